/**
 * Receipt analysis under load (issue 10):
 *   tsx scripts/bench/analysis-load.ts [N=50] [--max-queue Q] [dir]
 * Sends N analyses at once through POST /api/receipts/validate's action (N signed-in users, one dev
 * receipt each from ../shared/receipts-dev, cycled) against a temporary database and the real OCR
 * pool (OCR_WORKERS, default 2), after warming the workers up. Rate limits are off here; the
 * reader's queue bound (OCR_MAX_QUEUE, or --max-queue) is what is measured. Prints one JSON object.
 */
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const IMAGE = /\.(jpe?g|png|webp)$/i
const MIME: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' }

function percentile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

function parseArgs(argv: string[]) {
  let n = 50
  let maxQueue: string | undefined
  let dir = path.join(repoRoot, '..', 'shared', 'receipts-dev')
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--max-queue') maxQueue = argv[++i]
    else if (/^\d+$/.test(argv[i])) n = Number(argv[i])
    else dir = path.resolve(argv[i])
  }
  return { n, maxQueue, dir }
}

async function main() {
  const { n, maxQueue, dir } = parseArgs(process.argv.slice(2))
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'recircle-bench-'))
  Object.assign(process.env, {
    DATABASE_URL: `file:${path.join(tmp, 'bench.db')}`,
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    RECIRCLE_TEST_MODE: '',
    RATE_LIMIT_ANALYSIS_PER_USER_PER_HOUR: '0',
    RATE_LIMIT_ANALYSIS_PER_IP_PER_HOUR: '0',
    ...(maxQueue !== undefined ? { OCR_MAX_QUEUE: maxQueue } : {}),
  })
  // Imported after the environment is set: the app reads it once.
  const { migrateToLatest } = await import('#db/db.server')
  const { createSession } = await import('~/auth/session.server')
  const { findOrCreateUser } = await import('~/users/users.server')
  const { analyzeReceipt } = await import('~/analysis/photo-analysis.server')
  const { closeOcrPool, getAnalysisGate, getOcrPool, maxQueueFor } = await import('~/ocr/tesseract.server')
  const { action } = await import('~/routes/api.receipts.validate')
  const { getDb } = await import('~/utils/db.server')

  const db = getDb()
  await migrateToLatest(db)
  const files = (await fs.readdir(dir)).filter((f) => IMAGE.test(f)).sort()
  const images = await Promise.all(files.map((f) => fs.readFile(path.join(dir, f))))
  const bodies = files.map((f, i) => JSON.stringify({ image: `data:${MIME[f.split('.').pop()!.toLowerCase()]};base64,${images[i].toString('base64')}` }))

  const cookies: string[] = []
  for (let i = 0; i < n; i++) {
    const { user } = await findOrCreateUser(db, `0x${crypto.randomBytes(20).toString('hex')}`)
    const setCookie = await createSession(db, new Request('http://localhost:3000/'), user.id)
    cookies.push(setCookie.split(';')[0])
  }

  const pool = getOcrPool()
  await pool.warmUp()
  await Promise.all(Array.from({ length: pool.size }, (_, i) => analyzeReceipt(images[i % images.length]).catch(() => null)))

  const started = performance.now()
  const results = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const request = new Request('http://localhost:3000/api/receipts/validate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookies[i] },
        body: bodies[i % bodies.length],
      })
      const t = performance.now()
      const res = await action({ request, params: {}, context: { clientIp: '127.0.0.1' } }).catch((r: unknown) => r as Response)
      const body = (await res.json().catch(() => null)) as { timeoutFallback?: boolean } | null
      return { status: res.status, ms: performance.now() - t, timeoutFallback: !!body?.timeoutFallback }
    }),
  )
  const elapsed = performance.now() - started
  const capacity = getAnalysisGate().capacity()
  await closeOcrPool()
  await db.destroy()
  await fs.rm(tmp, { recursive: true, force: true })

  const accepted = results.filter((r) => r.status === 200)
  const refused = results.filter((r) => r.status === 503)
  const times = accepted.map((r) => r.ms).sort((a, b) => a - b)
  const refusedTimes = refused.map((r) => r.ms).sort((a, b) => a - b)
  const round = (v: number | null) => (v === null ? null : Math.round(v))
  console.log(
    JSON.stringify(
      {
        concurrent: n,
        workers: pool.size,
        maxQueue: maxQueueFor(pool.size),
        admittedAtOnce: capacity,
        cpus: os.cpus().length,
        accepted: accepted.length,
        refused503: refused.length,
        otherStatuses: results.filter((r) => r.status !== 200 && r.status !== 503).map((r) => r.status),
        timeoutFallbacks: accepted.filter((r) => r.timeoutFallback).length,
        acceptedMs: { p50: round(percentile(times, 0.5)), p99: round(percentile(times, 0.99)), max: round(times.at(-1) ?? null) },
        refusedMs: { p50: round(percentile(refusedTimes, 0.5)), max: round(refusedTimes.at(-1) ?? null) },
        elapsedMs: Math.round(elapsed),
      },
      null,
      2,
    ),
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

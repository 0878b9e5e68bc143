/**
 * Scaling on PostgreSQL (issue 12), in one run on this machine:
 *   npm run build && npm run bench:scale [-- --jobs 40 --seconds 10]
 * Needs PostgreSQL's server binaries (apt-get install postgresql); starts a throwaway server.
 * 1. Receipt analyses per second with 1 and 2 `npm run worker` processes (OCR_WORKERS=1 each) taking
 *    jobs from one PostgreSQL database: the dev receipts are queued at once and the clock stops
 *    when every job is done.
 * 2. Signed-in /home requests per second through 1 and 2 app instances on that database
 *    (autocannon, 50 connections split between the instances).
 * Prints one JSON object. On one 2-core machine both steps share the same two cores, so this
 * shows that the work spreads over processes, not what two machines would do.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb, migrateToLatest } from '#db/db.server'
import { seed } from '#db/seed'
import { createDatabase, startTestPostgres } from '../../tests/setup/postgres'
import { freePort, load, signIn, startServer, type Started } from './http'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const jobCount = arg('jobs', 40)
const seconds = arg('seconds', 10)
const receiptsDir = path.join(repoRoot, '..', 'shared', 'receipts-dev')

if (!fs.existsSync(path.join(repoRoot, 'build/index.js'))) {
  console.error('No build: run `npm run build` first.')
  process.exit(1)
}

const pg = await startTestPostgres()
const servers: Started[] = []
try {
  const url = await createDatabase(pg.url, 'recircle_bench_scale')
  const db = createDb(url, { poolSize: 4 })
  await migrateToLatest(db)
  await seed(db)
  const now = new Date().toISOString()
  const user = await db
    .insertInto('users')
    .values({ wallet_address: '0x' + '42'.repeat(20), referral_code: 'BENCHSCALE', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  const photos = fs
    .readdirSync(receiptsDir)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort()
    .map((f) => fs.readFileSync(path.join(receiptsDir, f)))

  const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: url,
    SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0123456789',
    RECIRCLE_TEST_MODE: '',
    RATE_LIMITS_DISABLED: '1',
    OCR_WORKERS: '1',
    ...extra,
  }) as NodeJS.ProcessEnv

  /** Start `n` worker processes, queue the jobs, time them until all are done. */
  async function analyses(n: number) {
    const workers = Array.from({ length: n }, () => spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], { cwd: repoRoot, env: env({}), stdio: ['ignore', 'pipe', 'pipe'] }))
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            let out = ''
            w.stdout.on('data', (d: Buffer) => {
              out += d
              if (out.includes('waiting for jobs')) resolve()
            })
            w.once('exit', () => reject(new Error(`worker exited: ${out}`)))
          }),
      ),
    )
    await db.deleteFrom('analysis_jobs').execute()
    const started = performance.now()
    const at = new Date().toISOString()
    for (let i = 0; i < jobCount; i++) {
      await db.insertInto('analysis_jobs').values({ user_id: user.id, image: photos[i % photos.length]!, status: 'queued', created_at: at }).execute()
    }
    for (;;) {
      const left = await db.selectFrom('analysis_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow()
      if (Number(left.n) === 0) break
      await new Promise((r) => setTimeout(r, 50))
    }
    const ms = performance.now() - started
    const done = await db.selectFrom('analysis_jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'done').executeTakeFirstOrThrow()
    await Promise.all(workers.map((w) => new Promise((r) => (w.once('exit', r), w.kill('SIGTERM')))))
    return { workers: n, jobs: jobCount, done: Number(done.n), seconds: Math.round(ms) / 1000, analysesPerSecond: Math.round((jobCount / ms) * 100_000) / 100 }
  }

  async function home(n: number) {
    const instances: Started[] = []
    for (let i = 0; i < n; i++) {
      const port = await freePort()
      instances.push(await startServer(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: repoRoot, port, readyPath: '/terms-of-service', env: env({ PORT: String(port) }) }))
    }
    servers.push(...instances)
    // One session, made on the first instance, used on all of them.
    const cookie = await signIn(instances[0]!.url)
    const result = await load(instances.map((s) => `${s.url}/home`), { connections: 50, seconds, warmupSeconds: 3, cookie })
    await Promise.all(instances.map((s) => s.stop()))
    return { instances: n, ...result }
  }

  const analysisRuns = [await analyses(1), await analyses(2)]
  const homeRuns = [await home(1), await home(2)]
  await db.destroy()
  console.log(JSON.stringify({ machine: { cpus: os.cpus().length, node: process.version }, analyses: analysisRuns, home: homeRuns }))
} finally {
  await Promise.all(servers.map((s) => s.stop()))
  pg.stop()
}

/**
 * Throughput and accuracy of receipt analysis over a folder of images:
 *   tsx scripts/bench-ocr.ts [dir]     (default ../shared/receipts-dev from the repo root)
 * Runs every image through analyzeReceipt with the shared pool (OCR_WORKERS, default 2), as many
 * at a time as the pool has workers, after warming the workers up. Prints one JSON object.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { analyzeReceipt } from '~/receipts/analyze.server'
import { closeOcrPool, getOcrPool } from '~/ocr/tesseract.server'
import type { ReceiptAnalysis } from '~/receipts/types'
import { scoreAnalysis, type Truth } from './receipt-truth'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const IMAGE = /\.(jpe?g|png|webp|gif|heic|heif|avif|tiff?)$/i

async function readTruth(dir: string): Promise<Map<string, Truth> | null> {
  try {
    const list: Truth[] = JSON.parse(await fs.readFile(path.join(dir, 'truth.json'), 'utf8'))
    return new Map(list.map((t) => [t.file, t]))
  } catch {
    return null
  }
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[i]
}

async function main() {
  const dir = path.resolve(process.argv[2] ?? path.join(repoRoot, '..', 'shared', 'receipts-dev'))
  const files = (await fs.readdir(dir)).filter((f) => IMAGE.test(f)).sort()
  const truth = await readTruth(dir)
  const buffers = await Promise.all(files.map((f) => fs.readFile(path.join(dir, f))))
  const pool = getOcrPool()
  // Warm-up (not counted): start the workers and run one receipt through each.
  await pool.warmUp()
  await Promise.all(Array.from({ length: pool.size }, (_, i) => analyzeReceipt(buffers[i % buffers.length]).catch(() => null)))

  const results: Array<{ file: string; ms: number; analysis: ReceiptAnalysis | null }> = []
  const queue = files.map((file, i) => ({ file, buf: buffers[i] }))
  const started = performance.now()
  await Promise.all(
    Array.from({ length: pool.size }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const t = performance.now()
        const analysis = await analyzeReceipt(job.buf).catch(() => null)
        results.push({ file: job.file, ms: performance.now() - t, analysis })
      }
    }),
  )
  const elapsed = performance.now() - started
  await closeOcrPool()

  const times = results.map((r) => r.ms).sort((a, b) => a - b)
  const scored = truth ? results.filter((r) => truth.has(r.file)).map((r) => ({ t: truth.get(r.file)!, s: scoreAnalysis(r.analysis, truth.get(r.file)!) })) : []
  const fraction = (field: 'vendor' | 'category' | 'total' | 'date') =>
    scored.length === 0 ? null : round(scored.filter((x) => x.s[field]).length / scored.length, 3)
  const autoApproved = results.filter((r) => r.analysis?.isAcceptable && !r.analysis.needsManualReview).length
  const wrongAutoApprovals = scored.filter((x) => x.s.wrongAuto).length
  const good = scored.filter((x) => x.t.expect === 'auto')
  const goodAuto = good.filter((x) => x.s.auto && !x.s.wrongAuto).length

  console.log(
    JSON.stringify({
      receipts: results.length,
      workers: pool.size,
      medianMs: Math.round(percentile(times, 0.5)),
      p90Ms: Math.round(percentile(times, 0.9)),
      receiptsPerSecond: round(results.length / (elapsed / 1000), 2),
      accuracy: {
        vendor: fraction('vendor'),
        category: fraction('category'),
        total: fraction('total'),
        date: fraction('date'),
      },
      autoApproved,
      wrongAutoApprovals: truth ? wrongAutoApprovals : null,
      goodAutoRate: good.length > 0 ? round(goodAuto / good.length, 3) : null,
    }),
  )
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits

main().catch(async (error) => {
  console.error(error)
  await closeOcrPool()
  process.exit(1)
})

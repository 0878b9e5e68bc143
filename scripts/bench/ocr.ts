/**
 * Throughput and accuracy of receipt analysis over a folder of images:
 *   tsx scripts/bench/ocr.ts [dir]     (default ../shared/receipts-dev from the repo root)
 * Runs every image through analyzeReceipt with the shared pool (OCR_WORKERS, default 2), as many
 * at a time as the pool has workers, after warming the workers and the second reader up: first with
 * tesseract alone, then combined with PaddleOCR for the photos tesseract reads badly (issue 13).
 * Accuracy is split between well taken and badly taken photos (truth.json's render.hard). Prints
 * one JSON object.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { analyzeReceipt, type SecondReader } from '~/analysis/photo-analysis.server'
import { closePaddleReader, getPaddleReader } from '~/ocr/paddle.server'
import { closeOcrPool, getOcrPool } from '~/ocr/tesseract.server'
import type { StoredAnalysis } from '~/analysis/stored-analysis'
import { scoreAnalysis, type Score, type Truth } from '../eval/receipt-truth'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
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

type Mode = { name: 'tesseract' | 'combined'; secondReader: SecondReader | null }

async function main() {
  const dir = path.resolve(process.argv[2] ?? path.join(repoRoot, '..', 'shared', 'receipts-dev'))
  const files = (await fs.readdir(dir)).filter((f) => IMAGE.test(f)).sort()
  const truth = await readTruth(dir)
  // Each photo is read from disk when its turn comes, as a server receives one upload at a time:
  // holding the whole folder (55 MB for the real corpus) would add to the peak RSS measured.
  const load = (i: number) => fs.readFile(path.join(dir, files[i]))
  const pool = getOcrPool()
  // Warm-up (not counted): start the workers and run one receipt through each. PaddleOCR is loaded
  // only before the combined run, so the peak RSS of tesseract alone does not include its models.
  await pool.warmUp()
  await Promise.all(Array.from({ length: pool.size }, async (_, i) => analyzeReceipt(await load(i % files.length), { secondReader: null }).catch(() => null)))

  const modes: Mode[] = [
    { name: 'tesseract', secondReader: null },
    { name: 'combined', secondReader: getPaddleReader().read },
  ]
  const report: Record<string, unknown> = { receipts: files.length, workers: pool.size }
  for (const mode of modes) {
    if (mode.secondReader) await getPaddleReader().warmUp()
    report[mode.name] = await runMode(mode, files, load, truth, pool.size)
  }
  await closeOcrPool()
  await closePaddleReader()
  console.log(JSON.stringify(report))
}

async function runMode(mode: Mode, files: string[], load: (i: number) => Promise<Buffer>, truth: Map<string, Truth> | null, workers: number) {
  const results: Array<{ file: string; ms: number; analysis: StoredAnalysis | null }> = []
  const queue = files.map((file, i) => ({ file, i }))
  // How long this thread (a web server's, in production) was kept from other work.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()
  const started = performance.now()
  // CPU time of the whole process (the tesseract and PaddleOCR workers are its threads): on a shared
  // machine, wall times move with the neighbours' load, CPU per receipt much less.
  const cpuBefore = process.cpuUsage()
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const buf = await load(job.i)
        const t = performance.now()
        const analysis = await analyzeReceipt(buf, { secondReader: mode.secondReader }).catch(() => null)
        results.push({ file: job.file, ms: performance.now() - t, analysis })
      }
    }),
  )
  const elapsed = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  loopDelay.disable()
  const times = results.map((r) => r.ms).sort((a, b) => a - b)
  const scored = truth
    ? results.filter((r) => truth.has(r.file)).map((r) => ({ t: truth.get(r.file)!, s: scoreAnalysis(r.analysis, truth.get(r.file)!), a: r.analysis }))
    : []
  const accuracy = (group: typeof scored) => {
    const share = (ok: (s: Score) => boolean) => (group.length === 0 ? null : round(group.filter((x) => ok(x.s)).length / group.length, 3))
    return {
      receipts: group.length,
      vendor: share((s) => s.vendor),
      category: share((s) => s.category),
      total: share((s) => s.total),
      date: share((s) => s.date),
      allFour: share((s) => s.vendor && s.category && s.total && s.date),
    }
  }
  const good = scored.filter((x) => !x.t.render?.hard)
  const hard = scored.filter((x) => x.t.render?.hard)
  const goodTransport = good.filter((x) => x.t.expect === 'auto')
  return {
    medianMs: Math.round(percentile(times, 0.5)),
    p90Ms: Math.round(percentile(times, 0.9)),
    receiptsPerSecond: round(results.length / (elapsed / 1000), 2),
    cpuMsPerReceipt: Math.round((cpu.user + cpu.system) / 1000 / Math.max(1, results.length)),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    eventLoopDelayP99Ms: Math.round(loopDelay.percentile(99) / 1e6),
    eventLoopDelayMaxMs: Math.round(loopDelay.max / 1e6),
    accuracy: { all: accuracy(scored), good: accuracy(good), hard: accuracy(hard) },
    autoApproved: results.filter((r) => r.analysis?.isAcceptable && !r.analysis.needsManualReview).length,
    wrongAutoApprovals: truth ? scored.filter((x) => x.s.wrongAuto).length : null,
    wrongAutoApprovalFiles: scored.filter((x) => x.s.wrongAuto).map((x) => x.t.file),
    goodTransportAutoRate: goodTransport.length > 0 ? round(goodTransport.filter((x) => x.s.auto && !x.s.wrongAuto).length / goodTransport.length, 3) : null,
    hardTransportAutoRate: (() => {
      const hardTransport = hard.filter((x) => x.t.expect === 'auto')
      return hardTransport.length > 0 ? round(hardTransport.filter((x) => x.s.auto && !x.s.wrongAuto).length / hardTransport.length, 3) : null
    })(),
    decidedByPaddleOcr: results.filter((r) => r.analysis?.reader === 'paddleocr').length,
    secondReadings: results.filter((r) => r.analysis?.otherReading).length,
  }
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits

main().catch(async (error) => {
  console.error(error)
  await closeOcrPool()
  await closePaddleReader()
  process.exit(1)
})

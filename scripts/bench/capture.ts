/**
 * How well the capture check (app/ocr/capture-quality.ts) tells unreadable photos from good ones:
 *   tsx scripts/bench/capture.ts [dir] [--readings READINGS.json]
 * (default dir ../shared/receipts-dev; a folder with a truth.json like bench:ocr's). "Unreadable":
 * analysis does not get all four fields right. Without --readings every photo is analysed (both
 * readers, as bench:ocr runs them); with the dump of scripts/eval/dump-readings.ts the pure decision is
 * replayed instead. "Good": truth.json's render.hard is not set (well taken photos and screenshots).
 * Prints one JSON object: the shares flagged, the thresholds, and each photo's metrics.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkPhotoCapture } from '~/ocr/capture.server'
import { closePaddleReader } from '~/ocr/paddle.server'
import { closeOcrPool, getOcrPool } from '~/ocr/tesseract.server'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { CAPTURE_THRESHOLDS, type CaptureMetrics } from '~/ocr/capture-quality'
import type { OcrLine } from '~/analysis/extract'
import { asksSecondReader, judgeReadings, readingOf } from '~/analysis/readings'
import { scoreAnalysis, type Truth } from '../eval/receipt-truth'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
type Dumped = { lines: OcrLine[]; confidence: number }

async function readFully(dir: string, truth: Truth[], dump: string | null): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>()
  if (dump) {
    const readings: Array<{ file: string; tesseract: Dumped; paddleocr: Dumped | null }> = JSON.parse(await fs.readFile(dump, 'utf8'))
    const byFile = new Map(readings.map((r) => [r.file, r]))
    for (const t of truth) {
      const r = byFile.get(t.file)
      if (!r) continue
      const first = readingOf('tesseract', r.tesseract)
      const now = new Date()
      const second = r.paddleocr && asksSecondReader(first, now) ? readingOf('paddleocr', r.paddleocr) : null
      const f = judgeReadings(first, second, now).decided.fields
      const right =
        (f.storeName ?? '').toLowerCase() === t.vendor.toLowerCase() && f.category === t.category &&
        f.totalAmount !== null && Math.abs(f.totalAmount - t.totalAmount) < 0.005 && f.purchaseDate === t.purchaseDate
      out.set(t.file, right)
    }
    return out
  }
  await getOcrPool().warmUp()
  const queue = [...truth]
  await Promise.all(
    Array.from({ length: getOcrPool().size }, async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        const a = await analyzeReceipt(await fs.readFile(path.join(dir, t.file))).catch(() => null)
        const s = scoreAnalysis(a, t)
        out.set(t.file, s.vendor && s.category && s.total && s.date)
      }
    }),
  )
  await closeOcrPool()
  await closePaddleReader()
  return out
}

async function main() {
  const args = process.argv.slice(2)
  const at = args.indexOf('--readings')
  const dump = at >= 0 ? args[at + 1] : null
  const dir = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--readings') ?? path.join(repoRoot, '..', 'shared', 'receipts-dev'))
  const truth: Truth[] = JSON.parse(await fs.readFile(path.join(dir, 'truth.json'), 'utf8'))
  const readable = await readFully(dir, truth, dump)
  const rows: Array<{ file: string; hard: boolean; readable: boolean; problem: string | null } & CaptureMetrics> = []
  let checkMs = 0
  for (const t of truth) {
    const buf = await fs.readFile(path.join(dir, t.file))
    const started = performance.now()
    const verdict = await checkPhotoCapture(buf)
    checkMs += performance.now() - started
    rows.push({ file: t.file, hard: Boolean(t.render?.hard), readable: readable.get(t.file) ?? false, problem: verdict.problem, ...verdict.metrics })
  }
  const share = (xs: typeof rows) => (xs.length ? Math.round((xs.filter((r) => r.problem).length / xs.length) * 1000) / 1000 : null)
  const unreadable = rows.filter((r) => !r.readable)
  const good = rows.filter((r) => !r.hard)
  console.log(
    JSON.stringify({
      dir,
      receipts: rows.length,
      unreadable: unreadable.length,
      unreadableFlagged: share(unreadable),
      good: good.length,
      goodFlagged: share(good),
      readableFlagged: share(rows.filter((r) => r.readable)),
      hardFlagged: share(rows.filter((r) => r.hard)),
      meanCheckMs: Math.round(checkMs / rows.length),
      thresholds: CAPTURE_THRESHOLDS,
      photos: rows,
    }),
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

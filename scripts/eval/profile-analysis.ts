/**
 * Where one photo's analysis spends its time, photo after photo (no concurrency), both readers:
 *   tsx scripts/eval/profile-analysis.ts [dir]     (default ../shared/receipts-dev from the repo root)
 * Prints one JSON line of totals (ms: whole analyses, OCR with PaddleOCR, PaddleOCR alone,
 * preprocessing, photo checks, extraction; tesseract readings; photos read more than once), then a
 * line per photo: file, tesseract readings, total, OCR, PaddleOCR ('-' when not asked), extraction.
 * The throughput sections of docs/research/receipt-ocr-lab-notes.md were measured with it;
 * bench:ocr gives the figures under load.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { closePaddleReader, getPaddleReader } from '~/ocr/paddle.server'
import { closeOcrPool, getOcrPool, type OcrFn } from '~/ocr/tesseract.server'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

async function main() {
  const dir = path.resolve(process.argv[2] ?? path.join(repoRoot, '..', 'shared', 'receipts-dev'))
  const files = (await fs.readdir(dir)).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).sort()
  const pool = getOcrPool()
  await pool.warmUp()
  await getPaddleReader().warmUp()
  let readings = 0
  const ocr: OcrFn = (image, o) => {
    readings++
    return pool.recognize(image, o)
  }
  const rows: Array<{ file: string; readings: number; totalMs: number; ocrMs: number; secondMs: number | null; preprocessMs: number; validateMs: number; extractMs: number }> = []
  for (const file of files) {
    readings = 0
    const a = await analyzeReceipt(await fs.readFile(path.join(dir, file)), { ocr, secondReader: getPaddleReader().read }).catch((error: Error) => {
      console.log(file, 'refused:', error.message)
      return null
    })
    if (!a) continue
    const t = a.timings
    rows.push({ file, readings, totalMs: t.totalMs, ocrMs: t.ocrMs, secondMs: t.secondReaderMs ?? null, preprocessMs: t.preprocessMs, validateMs: t.validateMs, extractMs: t.extractMs })
  }
  const sum = (pick: (r: (typeof rows)[number]) => number | null) => rows.reduce((s, r) => s + (pick(r) ?? 0), 0)
  console.log(
    JSON.stringify({
      photos: rows.length,
      totalMs: sum((r) => r.totalMs),
      ocrMs: sum((r) => r.ocrMs),
      paddleOcrMs: sum((r) => r.secondMs),
      preprocessMs: sum((r) => r.preprocessMs),
      validateMs: sum((r) => r.validateMs),
      extractMs: sum((r) => r.extractMs),
      tesseractReadings: sum((r) => r.readings),
      readMoreThanOnce: rows.filter((r) => r.readings > 1).length,
    }),
  )
  for (const r of rows) console.log(r.file, r.readings, r.totalMs, r.ocrMs, r.secondMs ?? '-', r.extractMs)
  await closeOcrPool()
  await closePaddleReader()
}

main().catch(async (error) => {
  console.error(error)
  await closeOcrPool()
  await closePaddleReader()
  process.exit(1)
})

/**
 * Both readers' full readings of every photo in a folder, with their line and digit confidences:
 *   tsx scripts/eval/dump-readings.ts DIR OUT.json
 * Tesseract reads the prepared image and PaddleOCR the original, as analysis does, but both read
 * every photo (analysis asks PaddleOCR only when tesseract misses a field). The readings are the
 * raw material that the per-field confidence thresholds were measured on
 * (docs/research/receipt-ocr-lab-notes.md) and that the digit-mutation test mutates
 * (tests/fixtures/receipt-readings.json).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { prepareForOcr } from '~/ocr/preprocess.server'
import { closePaddleReader, getPaddleReader } from '~/ocr/paddle.server'
import { closeOcrPool, getOcrPool, type OcrResult } from '~/ocr/tesseract.server'

const IMAGE = /\.(jpe?g|png|webp)$/i

const slim = (r: OcrResult) => ({
  confidence: r.confidence,
  lines: r.lines.map((l) => ({ text: l.text, confidence: l.confidence, digitConfidence: l.digitConfidence ?? null })),
})

async function main() {
  const [dir, out] = process.argv.slice(2)
  if (!dir || !out) throw new Error('usage: tsx scripts/eval/dump-readings.ts DIR OUT.json')
  const files = (await fs.readdir(dir)).filter((f) => IMAGE.test(f)).sort()
  const pool = getOcrPool()
  const paddle = getPaddleReader()
  await Promise.all([pool.warmUp(), paddle.warmUp()])
  const readings: unknown[] = []
  const queue = [...files]
  await Promise.all(
    Array.from({ length: pool.size }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        const buf = await fs.readFile(path.join(dir, file))
        const prepared = await prepareForOcr(buf)
        const [tesseract, paddleocr] = await Promise.all([pool.recognize(prepared.image), paddle.read(buf).catch(() => null)])
        readings.push({ file, tesseract: slim(tesseract), paddleocr: paddleocr ? slim(paddleocr) : null })
      }
    }),
  )
  readings.sort((a, b) => String((a as { file: string }).file).localeCompare((b as { file: string }).file))
  await fs.writeFile(out, JSON.stringify(readings))
  await closeOcrPool()
  await closePaddleReader()
  console.log(`${readings.length} readings in ${out}`)
}

main().catch(async (error) => {
  console.error(error)
  await closeOcrPool()
  await closePaddleReader()
  process.exit(1)
})

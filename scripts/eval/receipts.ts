/**
 * Development loop: analyse a receipt folder against its truth.json and show every miss.
 *   tsx scripts/eval/receipts.ts [dir] [--only REGEX] [--save-ocr DIR] [--from-ocr DIR]
 * --save-ocr keeps each OCR result as JSON; --from-ocr replays them, so extraction and verdict
 * changes can be checked in a second. PREPROCESS='{"lineHeight":32}' and OCR_* env tune the run.
 */
import fs from 'node:fs'
import path from 'node:path'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { ReceiptImageError } from '~/ocr/photo.server'
import { type PreprocessOptions } from '~/ocr/preprocess.server'
import { createOcrPool, poolSizeFromEnv, type OcrFn, type OcrResult } from '~/ocr/tesseract.server'
import type { FreshAnalysis } from '~/analysis/stored-analysis'
import { scoreAnalysis, type Truth } from './receipt-truth'

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

async function main() {
  const dir = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : path.resolve('../shared/receipts-dev')
  const truth: Truth[] = JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8'))
  const only = arg('--only')
  const saveDir = arg('--save-ocr')
  const fromDir = arg('--from-ocr')
  const preprocess: PreprocessOptions = JSON.parse(process.env.PREPROCESS ?? '{}')
  const pool = fromDir
    ? null
    : createOcrPool({
        size: poolSizeFromEnv(),
        dataVariant: (process.env.OCR_DATA as '4.0.0' | '4.0.0_best_int' | undefined) ?? undefined,
        psm: (process.env.OCR_PSM as never) ?? undefined,
        params: JSON.parse(process.env.OCR_PARAMS ?? '{}'),
      })
  if (saveDir) fs.mkdirSync(saveDir, { recursive: true })
  const items = truth.filter((t) => !only || new RegExp(only).test(t.file))
  // a: null for a photo the input checks refuse (too small, unreadable): a miss on every field.
  const results: Array<{ t: Truth; a: FreshAnalysis | null; refusal?: string }> = []
  await pool?.warmUp()
  const started = performance.now()
  const cpu0 = process.cpuUsage()
  const queue = [...items]
  const workers = Array.from({ length: pool?.size ?? 1 }, async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const file = path.join(dir, t.file)
      const cached = path.join(fromDir ?? saveDir ?? '', `${t.file}.json`)
      const ocr: OcrFn = fromDir
        ? async () => JSON.parse(fs.readFileSync(cached, 'utf8')) as OcrResult
        : async (img, o) => {
            const r = await pool!.recognize(img, o)
            if (saveDir) fs.writeFileSync(cached, JSON.stringify(r))
            return r
          }
      try {
        const a = await analyzeReceipt(fs.readFileSync(file), { ocr, preprocess })
        results.push({ t, a })
      } catch (e) {
        if (!(e instanceof ReceiptImageError)) throw e
        results.push({ t, a: null, refusal: e.message })
      }
    }
  })
  await Promise.all(workers)
  const elapsed = performance.now() - started
  const cpu = process.cpuUsage(cpu0)
  const cpuMs = (cpu.user + cpu.system) / 1000
  await pool?.terminate()
  results.sort((x, y) => x.t.file.localeCompare(y.t.file))
  const count = { vendor: 0, category: 0, total: 0, date: 0, auto: 0, wrongAuto: 0, goodAuto: 0, good: 0, refused: 0 }
  for (const { t, a, refusal } of results) {
    const ok = scoreAnalysis(a, t)
    for (const field of ['vendor', 'category', 'total', 'date', 'auto', 'wrongAuto'] as const) count[field] += +ok[field]
    if (t.expect === 'auto') {
      count.good++
      count.goodAuto += +(ok.auto && !ok.wrongAuto)
    }
    if (!a) {
      count.refused++
      console.log(`${t.file.padEnd(24)} refused: ${refusal}`)
      continue
    }
    const decision = ok.auto ? 'AUTO' : a.needsManualReview ? 'review' : 'reject'
    const flags = `${ok.vendor ? '.' : 'V'}${ok.category ? '.' : 'C'}${ok.total ? '.' : 'T'}${ok.date ? '.' : 'D'}`
    const expected = t.expect === 'auto' ? 'AUTO' : t.expect
    const mark = ok.wrongAuto ? ' !!WRONG' : decision !== expected ? ' *' : ''
    console.log(
      `${t.file.padEnd(24)} ${flags} ${decision.padEnd(6)} conf=${a.confidence.toFixed(2)} ${String(a.storeName).padEnd(14)} ${String(a.totalAmount).padEnd(7)} ${a.purchaseDate} ${a.timings.preprocessMs}+${a.timings.ocrMs}ms${t.render?.hard ? ' hard' : ''}${mark}`,
    )
    if (process.env.VERBOSE || (decision !== expected && process.env.VERBOSE !== '0')) {
      console.log(`    reasons: ${a.reasons.join(' | ')}`)
    }
  }
  const n = results.length
  const pct = (x: number) => `${((100 * x) / n).toFixed(1)}%`
  console.log(
    `\nn=${n} vendor ${pct(count.vendor)} category ${pct(count.category)} total ${pct(count.total)} date ${pct(count.date)} | auto ${count.auto} wrongAuto ${count.wrongAuto} goodAuto ${count.goodAuto}/${count.good}${count.refused ? ` refused ${count.refused}` : ''} | ${(elapsed / n).toFixed(0)} ms/receipt wall, ${(cpuMs / n).toFixed(0)} ms/receipt cpu`,
  )
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})

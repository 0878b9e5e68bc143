/**
 * Development loop: analyse a receipt folder against its truth.json and show every miss.
 *   tsx scripts/eval-receipts.ts [dir] [--only REGEX] [--save-ocr DIR] [--from-ocr DIR]
 * --save-ocr keeps each OCR result as JSON; --from-ocr replays them, so extraction and verdict
 * changes can be checked in a second. PREPROCESS='{"lineHeight":32}' and OCR_* env tune the run.
 */
import fs from 'node:fs'
import path from 'node:path'
import { analyzeReceipt } from '~/receipts/analyze.server'
import { ReceiptImageError, type PreprocessOptions } from '~/receipts/image.server'
import { createOcrPool, poolSizeFromEnv, type OcrFn, type OcrResult } from '~/receipts/ocr.server'
import type { ReceiptAnalysis } from '~/receipts/types'

type Truth = {
  file: string
  vendor: string
  category: string | null
  totalAmount: number
  purchaseDate: string
  expect: 'auto' | 'review' | 'reject'
  render?: { hard?: boolean }
}

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
  const results: Array<{ t: Truth; a: ReceiptAnalysis }> = []
  let refused = 0
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
        // A photo the input checks refuse (too small, unreadable) counts as a miss on every field.
        if (!(e instanceof ReceiptImageError)) throw e
        console.log(`${t.file.padEnd(24)} refused: ${e.message}`)
        refused++
      }
    }
  })
  await Promise.all(workers)
  const elapsed = performance.now() - started
  const cpu = process.cpuUsage(cpu0)
  const cpuMs = (cpu.user + cpu.system) / 1000
  await pool?.terminate()
  results.sort((x, y) => x.t.file.localeCompare(y.t.file))
  let vendor = 0
  let category = 0
  let total = 0
  let date = 0
  let auto = 0
  let wrongAuto = 0
  let goodAuto = 0
  let goodCount = 0
  for (const { t, a } of results) {
    const ok = {
      v: (a.storeName ?? '').toLowerCase() === t.vendor.toLowerCase(),
      c: a.category === t.category,
      t: a.totalAmount !== null && Math.abs(a.totalAmount - t.totalAmount) < 0.005,
      d: a.purchaseDate === t.purchaseDate,
    }
    vendor += +ok.v
    category += +ok.c
    total += +ok.t
    date += +ok.d
    const isAuto = a.isAcceptable && !a.needsManualReview
    const wrong = isAuto && (t.expect !== 'auto' || !ok.t || !ok.d || !ok.c)
    auto += +isAuto
    wrongAuto += +wrong
    if (t.expect === 'auto') {
      goodCount++ // (refused photos are not counted here: they never reach a verdict)
      goodAuto += +(isAuto && !wrong)
    }
    const decision = isAuto ? 'AUTO' : a.needsManualReview ? 'review' : 'reject'
    const flags = `${ok.v ? '.' : 'V'}${ok.c ? '.' : 'C'}${ok.t ? '.' : 'T'}${ok.d ? '.' : 'D'}`
    const expected = t.expect === 'auto' ? 'AUTO' : t.expect
    const mark = wrong ? ' !!WRONG' : decision !== expected ? ' *' : ''
    console.log(
      `${t.file.padEnd(24)} ${flags} ${decision.padEnd(6)} conf=${a.confidence.toFixed(2)} ${String(a.storeName).padEnd(14)} ${String(a.totalAmount).padEnd(7)} ${a.purchaseDate} ${a.timings.preprocessMs}+${a.timings.ocrMs}ms${t.render?.hard ? ' hard' : ''}${mark}`,
    )
    if (process.env.VERBOSE || (decision !== expected && process.env.VERBOSE !== '0')) {
      console.log(`    reasons: ${a.reasons.join(' | ')}`)
    }
  }
  const n = results.length + refused
  const pct = (x: number) => `${((100 * x) / n).toFixed(1)}%`
  console.log(
    `\nn=${n} vendor ${pct(vendor)} category ${pct(category)} total ${pct(total)} date ${pct(date)} | auto ${auto} wrongAuto ${wrongAuto} goodAuto ${goodAuto}/${goodCount}${refused ? ` refused ${refused}` : ''} | ${(elapsed / n).toFixed(0)} ms/receipt wall, ${(cpuMs / n).toFixed(0)} ms/receipt cpu`,
  )
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})

/**
 * Offline: both readers' readings (scripts/eval/dump-readings.ts) + truth.json -> how sure each reader was
 * of the dates, totals and services it read right and wrong, and what the pure decision
 * (app/analysis/readings.ts judgeReadings, as analysis runs it) approves with the thresholds in
 * app/analysis/verdict.ts. Prints one JSON object; reads no photo.
 *   tsx scripts/eval/readings.ts READINGS.json DIR_WITH_TRUTH [--now 2026-11-24]
 */
import fs from 'node:fs'
import path from 'node:path'
import type { OcrLine } from '~/analysis/extract'
import { asksSecondReader, judgeReadings, readingOf } from '~/analysis/readings'
import { FIELD_CONFIDENCE } from '~/analysis/verdict'
import { utcDay } from '../../app/utils/calendar'
import type { Truth } from './receipt-truth'

type Dumped = { lines: OcrLine[]; confidence: number }
type DumpedReading = { file: string; tesseract: Dumped; paddleocr: Dumped | null }

function main() {
  const [dump, dir] = process.argv.slice(2)
  const nowArg = process.argv.indexOf('--now')
  const now = nowArg > 0 ? new Date(process.argv[nowArg + 1]) : new Date()
  const readings: DumpedReading[] = JSON.parse(fs.readFileSync(dump, 'utf8'))
  const truth = new Map<string, Truth>((JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Truth[]).map((t) => [t.file, t]))
  const seen: Record<string, { right: number[]; wrong: number[]; wrongFiles: string[] }> = {}
  const note = (key: string, ok: boolean, value: number | null, file: string) => {
    const bucket = (seen[key] ??= { right: [], wrong: [], wrongFiles: [] })
    const v = value ?? -1
    if (ok) bucket.right.push(v)
    else {
      bucket.wrong.push(v)
      bucket.wrongFiles.push(`${file}:${v}`)
    }
  }
  let wrongAuto = 0
  const wrongAutoFiles: string[] = []
  let goodTransport = 0
  let goodAuto = 0
  const goodHeld: Array<{ file: string; reader: string; reasons: string[] }> = []
  let hard = 0
  let hardAll = 0
  let secondRuns = 0
  for (const r of readings) {
    const t = truth.get(r.file)
    if (!t) continue
    for (const reader of ['tesseract', 'paddleocr'] as const) {
      const ocr = r[reader]
      if (!ocr) continue
      const f = readingOf(reader, ocr).fields
      if (f.purchaseDate) note(`${reader}.date`, f.purchaseDate === t.purchaseDate, f.signals.dateDigitConfidence, r.file)
      if (f.totalAmount !== null) note(`${reader}.total`, Math.abs(f.totalAmount - t.totalAmount) < 0.005, f.signals.totalDigitConfidence, r.file)
      if (f.vendor) note(`${reader}.vendor`, f.vendor.name.toLowerCase() === t.vendor.toLowerCase(), f.signals.vendorLineConfidence, r.file)
    }
    const first = readingOf('tesseract', r.tesseract)
    const second = asksSecondReader(first, now) && r.paddleocr ? readingOf('paddleocr', r.paddleocr) : null
    if (second) secondRuns++
    const { decided, verdict } = judgeReadings(first, second, now)
    const f = decided.fields
    const right = {
      vendor: (f.storeName ?? '').toLowerCase() === t.vendor.toLowerCase(),
      category: f.category === t.category,
      total: f.totalAmount !== null && Math.abs(f.totalAmount - t.totalAmount) < 0.005,
      date: f.purchaseDate === t.purchaseDate,
    }
    const auto = verdict.isAcceptable && !verdict.needsManualReview
    if (auto && (t.expect !== 'auto' || !right.category || !right.total || !right.date)) {
      wrongAuto++
      wrongAutoFiles.push(r.file)
    }
    if (!t.render?.hard && t.expect === 'auto') {
      goodTransport++
      if (auto) goodAuto++
      else goodHeld.push({ file: r.file, reader: decided.reader, reasons: verdict.reasons })
    }
    if (t.render?.hard) {
      hard++
      if (right.vendor && right.category && right.total && right.date) hardAll++
    }
  }
  const summary = Object.fromEntries(
    Object.entries(seen).map(([k, v]) => {
      const right = [...v.right].sort((a, b) => a - b)
      const limit = FIELD_CONFIDENCE[k.split('.')[0] as 'tesseract' | 'paddleocr'][k.split('.')[1] as 'vendor' | 'total' | 'date']
      const passing = right.filter((c) => c >= limit || c < 0).length
      return [k, { right: right.length, rightRange: [right[0], right[right.length - 1]], rightPassing: passing, threshold: limit, rightLowest: right.slice(0, 12), wrong: v.wrongFiles }]
    }),
  )
  console.log(JSON.stringify({ receipts: readings.length, now: utcDay(now), secondRuns, wrongAuto, wrongAutoFiles, goodTransportAuto: `${goodAuto}/${goodTransport}`, goodHeld, hardAllFour: `${hardAll}/${hard}`, confidences: summary }, null, 1))
}

main()

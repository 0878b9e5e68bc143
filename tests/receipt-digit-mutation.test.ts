/**
 * No approval on a guess (issue 23): real readings of the dev photos by both readers, with their
 * line and digit confidences (tests/fixtures/receipt-readings, scripts/eval/dump-readings.ts), have
 * single digits of their date and total lines changed, as a misread would change them. Every change
 * that alters the date or the total analysis settles on must keep the receipt from automatic approval.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAmounts, type OcrLine } from '~/analysis/extract'
import { asksSecondReader, judgeReadings, readingOf, type Reading } from '~/analysis/readings'
import { MISREAD_DIGIT_CEILING } from '~/analysis/verdict'

type Dumped = { lines: OcrLine[]; confidence: number }
type Fixture = {
  now: string
  truth: Array<{ file: string; totalAmount: number; purchaseDate: string; expect: string }>
  readings: Array<{ file: string; tesseract: Dumped; paddleocr: Dumped | null }>
}

const fixture: Fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures/receipt-readings/dev.json'), 'utf8'))
const now = new Date(`${fixture.now}T12:00:00Z`)

/** readingOf is pure: an unchanged reading is extracted once, however many mutations of the other reading it is judged with. */
const extracted = { tesseract: new WeakMap<Dumped, Reading>(), paddleocr: new WeakMap<Dumped, Reading>() }
function reading(reader: 'tesseract' | 'paddleocr', dumped: Dumped): Reading {
  let r = extracted[reader].get(dumped)
  if (!r) extracted[reader].set(dumped, (r = readingOf(reader, dumped)))
  return r
}

/** Analysis's decision over a photo's two readings (the second only when analysis would ask for it). */
function decide(tesseract: Dumped, paddleocr: Dumped | null) {
  const first = reading('tesseract', tesseract)
  const second = paddleocr && asksSecondReader(first, now) ? reading('paddleocr', paddleocr) : null
  return judgeReadings(first, second, now)
}

/** Each of the two tests below judges some 2,100 mutated readings: ~16 s on a quiet 2-core machine, more beside other suites. */
const MUTATION_TEST_TIMEOUT_MS = 180_000

const approved = (d: ReturnType<typeof decide>) => d.verdict.isAcceptable && !d.verdict.needsManualReview

type Mutation = { file: string; field: 'date' | 'total'; from: string; to: string; approved: boolean; totalChange: number }

/**
 * Every single-digit change on the line holding the decided date or total. `keepConfidence`: the
 * changed line keeps its measured scores (a misread the reader was as sure of as of the real digit);
 * otherwise its lowest digit score becomes the highest any real misread of that reader scored.
 */
function mutations(keepConfidence: boolean): Mutation[] {
  const out: Mutation[] = []
  for (const r of fixture.readings) {
    const base = decide(r.tesseract, r.paddleocr)
    if (!approved(base)) continue
    const reader = base.decided.reader as 'tesseract' | 'paddleocr'
    const reading = r[reader] as Dumped
    const f = base.decided.fields
    for (const field of ['date', 'total'] as const) {
      const lineIndex = reading.lines.findIndex((l) =>
        field === 'date' ? readingOf(reader, { lines: [l], confidence: 90 }).fields.purchaseDate === f.purchaseDate : parseAmounts(l.text).some((a) => Math.abs(a.value - f.totalAmount!) < 0.005),
      )
      if (lineIndex < 0) continue
      const line = reading.lines[lineIndex]
      for (let i = 0; i < line.text.length; i++) {
        if (!/[0-9]/.test(line.text[i])) continue
        for (const digit of '0123456789') {
          if (digit === line.text[i]) continue
          const text = line.text.slice(0, i) + digit + line.text.slice(i + 1)
          const changed: OcrLine = {
            text,
            confidence: line.confidence,
            digitConfidence: keepConfidence ? line.digitConfidence : Math.min(line.digitConfidence ?? 100, MISREAD_DIGIT_CEILING[reader]),
          }
          const lines = reading.lines.map((l, k) => (k === lineIndex ? changed : l))
          const mutated = { ...reading, lines }
          const d = reader === 'tesseract' ? decide(mutated, r.paddleocr) : decide(r.tesseract, mutated)
          const g = d.decided.fields
          // A change to a time, a reference or an item that leaves date and total as they were is no misread of them.
          if (g.purchaseDate === f.purchaseDate && g.totalAmount === f.totalAmount) continue
          const totalChange = Math.round(Math.abs((g.totalAmount ?? 0) - (f.totalAmount ?? 0)) * 100) / 100
          out.push({ file: r.file, field, from: line.text, to: text, approved: approved(d), totalChange })
        }
      }
    }
  }
  return out
}

describe('single-digit misreads of dates and totals in real readings', () => {
  it('the fixture has approved readings by both readers to mutate', () => {
    const decided = fixture.readings.map((r) => decide(r.tesseract, r.paddleocr)).filter(approved)
    expect(decided.length).toBeGreaterThan(25)
  })

  it('approve none when the changed digit scores as a real misread did', () => {
    const found = mutations(false)
    // Measured 2026-11-24: 2,098 changes (1,387 of a date, 711 of a total) over the approved readings,
    // with the confirming second reading (1,911 before it approved more receipts to mutate).
    expect(found.filter((m) => m.field === 'date').length).toBeGreaterThan(500)
    expect(found.filter((m) => m.field === 'total').length).toBeGreaterThan(300)
    expect(found.filter((m) => m.approved)).toEqual([])
  }, MUTATION_TEST_TIMEOUT_MS)

  it('at the real digit\'s own confidence, structure alone catches most changes (a bound, not a target)', () => {
    const all = mutations(true)
    const totals = all.filter((m) => m.field === 'total')
    const dates = all.filter((m) => m.field === 'date')
    const approvedTotals = totals.filter((m) => m.approved)
    // Measured 2026-11-24: 481 of 1,387 date changes and 40 of 711 total changes would be approved
    // if a misread digit scored as high as a right one (40: a cent off, accepted as rounding, or a
    // run of the last items that adds up to the changed total). Real misreads scored lower
    // (MISREAD_DIGIT_CEILING), which the test above holds to. This keeps structure from getting worse.
    expect(dates.filter((m) => !m.approved).length).toBeGreaterThanOrEqual(906)
    expect(approvedTotals.length).toBeLessThanOrEqual(40)
  }, MUTATION_TEST_TIMEOUT_MS)
})

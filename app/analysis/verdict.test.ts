import { describe, expect, test } from 'vitest'
import { extractReceipt, type OcrLine } from '~/analysis/extract'
import { judgeReceipt, MANUAL_ENTRY_REASON, retakeMayHelp } from '~/analysis/verdict'

/** OCR text with every line read at `confidence`. */
function ocr(text: string, confidence = 92) {
  const lines: OcrLine[] = text
    .trim()
    .split('\n')
    .map((t) => ({ text: t.trim(), confidence }))
  return { text, lines, confidence }
}

function judge(text: string, confidence = 92) {
  const o = ocr(text, confidence)
  return judgeReceipt(extractReceipt(o), o.confidence)
}

const UBER = `Uber
Thanks for riding, Sam
Fri, Nov 20, 2026
Trip fare $35.16
Booking fee $2.12
Total $37.28
Mastercard ****3333`

describe('judgeReceipt', () => {
  test('a clean transport receipt is accepted without review', () => {
    expect(judge(UBER)).toEqual({ confidence: 1, isValid: true, isAcceptable: true, needsManualReview: false, reasons: [] })
  })

  test("with a clock, the year is judged against it: an old receipt as of its own day, a misread year as of today", () => {
    const old = UBER.replace('Fri, Nov 20, 2026', 'Fri, Nov 20, 2015')
    const fields = extractReceipt(ocr(old))
    expect(judgeReceipt(fields, 92).reasons).toContain('The purchase year looks misread')
    expect(judgeReceipt(fields, 92, { now: new Date('2015-11-21T12:00:00Z') })).toMatchObject({ isAcceptable: true, reasons: [] })
    expect(judgeReceipt(fields, 92, { now: new Date('2026-11-21T12:00:00Z') }).isAcceptable).toBe(false)
  })

  test.each([
    ['fuel', 'Shell\n09/24/2026\nUnleaded 12.53 GAL $56.49\nTOTAL $56.49', 'Fuel purchases are not eligible: only sustainable transport receipts earn B3TR'],
    ['groceries', 'WHOLE FOODS MARKET\n04/03/2026\nBANANAS 8.03\nMILK 4.41\nBALANCE DUE $12.44', 'Grocery and store purchases are not eligible'],
    ['coffee', 'STARBUCKS\nSep 28, 2026\nGrande Latte $6.31\nTotal $6.31', 'Food and drink purchases are not eligible'],
  ])('%s is not eligible, with a reason', (_, text, reason) => {
    const v = judge(text)
    expect(v).toMatchObject({ isValid: true, isAcceptable: false, needsManualReview: false })
    expect(v.reasons[0]).toContain(reason)
  })

  test.each([
    ['GameStop\n11/06/2026\nPRE-OWNED GAME $35.99\nTOTAL $35.99'],
    ['Goodwill\nThank you for shopping second-hand\nMay 19, 2026\nCLOTHING $29.61\nTOTAL $29.61'],
    ["Mary's Closet\nConsignment boutique\n05/01/2026\nJacket $20.00\nTotal $20.00"],
  ])('second-hand goes to staff review, never accepted: %j', (text) => {
    const v = judge(text)
    expect(v).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(v.reasons[0]).toMatch(/second-hand/)
  })

  test.each([
    ['items that do not add up', UBER.replace('$37.28', '$87.28')],
    ['no total', UBER.replace('Total $37.28', '')],
    ['no date', UBER.replace('Fri, Nov 20, 2026', '')],
    ['a year before the app existed', UBER.replace('2026', '2006')],
    ['only a weak total label', UBER.replace('Total', 'Paid')],
    ['unknown merchant with transport words', 'Harbor Shuttle Co\nShuttle ride to the pier\n03/03/2026\nFare $12.00\nTotal $12.00'],
    ['a transport name misread', UBER.replace('Uber', 'Ubcr')],
    ['a second non-transport merchant named', UBER.replace('Thanks for riding, Sam', 'Shell')],
  ])('unsure: %s -> manual review', (_, text) => {
    expect(judge(text)).toMatchObject({ isAcceptable: false, needsManualReview: true })
  })

  test('a low-confidence read is never auto-approved', () => {
    expect(judge(UBER, 55)).toMatchObject({ isAcceptable: false, needsManualReview: true })
    const lowTotalLine = ocr(UBER)
    lowTotalLine.lines[5].confidence = 50
    expect(judgeReceipt(extractReceipt(lowTotalLine), 90)).toMatchObject({ isAcceptable: false, needsManualReview: true })
  })

  test('a total a cent off its items passes only when read clearly', () => {
    const text = UBER.replace('$37.28', '$37.29')
    expect(judge(text, 95).isAcceptable).toBe(true)
    expect(judge(text, 80)).toMatchObject({ isAcceptable: false, needsManualReview: true })
  })

  test('an EV rental is accepted, a petrol rental is not', () => {
    const ev = 'Hertz\nVehicle: Tesla Model 3 (Electric)\nReturn date 01/04/2026\nTime & mileage $178.78\nTaxes $21.45\nTOTAL CHARGES $200.23'
    expect(judge(ev).isAcceptable).toBe(true)
    const petrol = judge(ev.replace('Tesla Model 3 (Electric)', 'Toyota Camry'))
    expect(petrol).toMatchObject({ isAcceptable: false, needsManualReview: false })
    expect(petrol.reasons[0]).toMatch(/electric vehicle/)
  })

  test('nothing readable: the spec reason, manual entry', () => {
    expect(judge('~~ ,, ..', 20)).toEqual({
      confidence: expect.any(Number),
      isValid: false,
      isAcceptable: false,
      needsManualReview: true,
      reasons: [MANUAL_ENTRY_REASON],
    })
  })

  test('isAcceptable and needsManualReview are never both true', () => {
    for (const text of [UBER, UBER.replace('$37.28', '$1.00'), 'Goodwill\nTOTAL $3.00', 'Shell\nTOTAL $3.00', '']) {
      const v = judge(text)
      expect(v.isAcceptable && v.needsManualReview).toBe(false)
    }
  })
})

describe('no approval on a guess (issue 23)', () => {
  const now = new Date('2026-11-24T12:00:00Z')
  /** UBER with the date's and the total's lines read with these lowest digit scores. */
  function judgeDigits(reader: 'tesseract' | 'paddleocr', date: number, total: number, confirmed = {}) {
    const o = ocr(UBER)
    o.lines = o.lines.map((l) => ({ ...l, digitConfidence: /2026/.test(l.text) ? date : /^Total/.test(l.text) ? total : 99 }))
    return judgeReceipt(extractReceipt(o), o.confidence, { reader, now, confirmed })
  }
  test.each([
    // reader, date digits, total digits, confirmed by the other reader, approved
    ['tesseract', 99, 99, {}, true],
    ['tesseract', 97, 99, {}, false],
    ['tesseract', 99, 97, {}, false],
    ['tesseract', 97, 97, { date: true, total: true }, true],
    ['paddleocr', 90, 90, {}, true],
    ['paddleocr', 79.8, 90, {}, false],
    ['paddleocr', 90, 60, {}, false],
    ['paddleocr', 60, 60, { date: true, total: true }, true],
    ['paddleocr', 60, 90, { total: true }, false],
  ] as const)('%s, date %d, total %d, confirmed %j: approved %s', (reader, date, total, confirmed, ok) => {
    expect(judgeDigits(reader, date, total, confirmed).isAcceptable).toBe(ok)
  })

  test('a service line PaddleOCR was unsure of needs the other reader', () => {
    const o = ocr(UBER)
    o.lines = o.lines.map((l, i) => ({ ...l, confidence: i === 0 ? 70 : 99, digitConfidence: 99 }))
    expect(judgeReceipt(extractReceipt(o), 95, { reader: 'paddleocr', now }).isAcceptable).toBe(false)
    expect(judgeReceipt(extractReceipt(o), 95, { reader: 'paddleocr', now, confirmed: { vendor: true } }).isAcceptable).toBe(true)
  })

  test.each([
    // text of the date line, now, approved
    ['Fri, Nov 20, 2026', '2026-11-24', true],
    ['Thu, Nov 20, 2026', '2026-11-24', false],
    ['Nov 20, 2026', '2026-11-24', true],
    ['Fri, Nov 20, 2026', '2027-01-03', true],
    ['Nov 20, 2024', '2026-11-24', false],
    ['Nov 20, 2016', '2026-11-24', false],
  ])('date line %s on %s: approved %s', (line, today, ok) => {
    const o = ocr(UBER.replace('Fri, Nov 20, 2026', line))
    expect(judgeReceipt(extractReceipt(o), 92, { reader: 'tesseract', now: new Date(`${today}T12:00:00Z`) }).isAcceptable).toBe(ok)
  })
})

describe('retakeMayHelp: retake before review only when a better photo could change the answer', () => {
  test.each([
    ['an unreadable photo', 'blurred text\nnothing here', true],
    ['a transport receipt read with doubts', UBER.replace('Total $37.28', 'Total $37.98'), true],
    ['a clean transport receipt (approved)', UBER, false],
    ['a thrift store', 'Goodwill\nUsed jacket $12.00\nTotal $12.00\nNov 20, 2026', false],
    ['a fuel receipt', 'Shell\nUnleaded $40.00\nTotal $40.00\nNov 20, 2026', false],
  ])('%s -> %s', (_name, text, retake) => {
    const o = ocr(text)
    const fields = extractReceipt(o)
    expect(retakeMayHelp(fields, judgeReceipt(fields, o.confidence))).toBe(retake)
  })
})

import { describe, expect, it } from 'vitest'
import { extractReceipt } from '~/receipts/extract'
import { DISAGREEMENT_REASONS, chooseReading, disagreements, wantsSecondReading, withDisagreements, type Reading } from '~/receipts/readings'
import { judgeReceipt } from '~/receipts/verdict'

const WAYMO = 'Waymo\nYour ride receipt\nMar 22, 2026 at 10:07 AM\nTrip fare $18.12\nFees $2.30\nTotal $20.42\nVisa ending in 4417'
const NO_TOTAL = 'Waymo\nYour ride receipt\nMar 22, 2026 at 10:07 AM\nVisa ending in 4417'
const reading = (reader: Reading['reader'], text: string, confidence = 92): Reading => ({
  reader,
  text,
  confidence,
  fields: extractReceipt({ text, lines: text.split('\n').map((t) => ({ text: t, confidence })) }),
})

describe('choosing between two readings of one photo', () => {
  it('asks for a second reading only when the vendor, the total or the date is missing', () => {
    expect(wantsSecondReading(reading('tesseract', WAYMO).fields)).toBe(false)
    expect(wantsSecondReading(reading('tesseract', NO_TOTAL).fields)).toBe(true)
    expect(wantsSecondReading(reading('tesseract', WAYMO.replace('Mar 22, 2026 at 10:07 AM', '')).fields)).toBe(true)
  })

  it('the second reading decides when it found at least as many fields; otherwise the first stands', () => {
    const blurred = reading('tesseract', NO_TOTAL)
    const second = reading('paddleocr', WAYMO)
    expect(chooseReading(blurred, second)).toBe(second)
    const worse = reading('paddleocr', 'Waymo\nTrip')
    expect(chooseReading(blurred, worse)).toBe(blurred)
  })

  it('names the fields both readings produced with different values', () => {
    const a = reading('tesseract', WAYMO).fields
    expect(disagreements(a, reading('paddleocr', WAYMO).fields)).toEqual([])
    expect(disagreements(a, reading('paddleocr', WAYMO.replace('$20.42', '$28.42')).fields)).toEqual(['total'])
    expect(disagreements(a, reading('paddleocr', WAYMO.replace('Mar 22', 'Mar 23')).fields)).toEqual(['date'])
    // A field only one reading has is no disagreement.
    expect(disagreements(a, reading('paddleocr', WAYMO.replace('Total $20.42', '')).fields)).toEqual([])
  })

  it('verdict-changing wording only the other reading found is a disagreement too', () => {
    // Tesseract saw the electric car but not the total; PaddleOCR read every key field but not the EV words.
    const rentalEv = 'Hertz\nRental agreement\nMar 22, 2026\nTesla Model 3 electric vehicle\nTotal $96.40'
    const tesseract = reading('tesseract', rentalEv.replace('Total $96.40', ''))
    const paddle = reading('paddleocr', rentalEv.replace('Tesla Model 3 electric vehicle', 'Compact car'))
    expect(tesseract.fields.signals.evEvidence.length).toBeGreaterThan(0)
    expect(paddle.fields.signals.evEvidence).toEqual([])
    const decided = chooseReading(tesseract, paddle)
    expect(decided).toBe(paddle)
    const found = disagreements(decided.fields, tesseract.fields)
    expect(found).toContain('evidence')
    const verdict = withDisagreements(judgeReceipt(decided.fields, decided.confidence), found)
    expect(verdict).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(verdict.reasons).toContain(DISAGREEMENT_REASONS.evidence)

    // Pre-owned wording seen by the other reading only.
    const ride = reading('paddleocr', WAYMO)
    expect(disagreements(ride.fields, reading('tesseract', WAYMO + '\nPre-owned items').fields)).toContain('evidence')
    // The same wording in both readings, or in the deciding one, is the verdict's business, not a disagreement.
    expect(disagreements(ride.fields, ride.fields)).toEqual([])
  })

  it('a disagreement never approves automatically, and says why', () => {
    const fields = reading('paddleocr', WAYMO).fields
    const verdict = judgeReceipt(fields, 92)
    expect(verdict.isAcceptable).toBe(true)
    const guarded = withDisagreements(verdict, ['total'])
    expect(guarded).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(guarded.reasons).toContain(DISAGREEMENT_REASONS.total)
    expect(withDisagreements(verdict, [])).toBe(verdict)
  })
})

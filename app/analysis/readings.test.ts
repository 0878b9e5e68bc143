import { describe, expect, it } from 'vitest'
import { extractReceipt } from '~/analysis/extract'
import { DISAGREEMENT_REASONS, agreements, chooseReading, disagreements, judgeReadings, wantsConfirmation, wantsSecondReading, withDisagreements, type Reading } from '~/analysis/readings'
import { judgeReceipt } from '~/analysis/verdict'

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

  it('a lone priced amount is no total: the second reading is still asked, and its labelled total decides', () => {
    // The total's line missed, one priced fare read elsewhere on the page.
    const first = reading('tesseract', NO_TOTAL.replace('Visa ending in 4417', 'Trip fare $18.12'))
    expect(first.fields).toMatchObject({ totalAmount: 18.12 })
    expect(wantsSecondReading(first.fields)).toBe(true)
    const second = reading('paddleocr', WAYMO)
    expect(chooseReading(first, second)).toBe(second)
    // Nor is it a total to disagree on, or to confirm.
    expect(disagreements(second.fields, first.fields)).not.toContain('total')
    expect(agreements(second.fields, reading('tesseract', NO_TOTAL.replace('Visa ending in 4417', 'Trip fare $20.42')).fields).total).toBe(false)
  })

  it("words of a food order found by one reading only are a disagreement: staff look", () => {
    const page = 'Uber\nJul 16, 2026\nOrder Details\nRate the COURIER or restaurant\nTotal $50.54'
    const decided = reading('tesseract', page.replace('COURIER', 'C0URIER'))
    const other = reading('paddleocr', page)
    expect(decided.fields.signals.notATrip).toBeNull()
    expect(disagreements(decided.fields, other.fields)).toContain('notATrip')
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

describe('a complete reading that is only unsure asks the other reader to confirm it (issue 23)', () => {
  const now = new Date('2026-03-24T12:00:00Z')
  // Every field read, but the items (misread $16.12) do not add up to the total.
  const MISMATCH = WAYMO.replace('Trip fare $18.12', 'Trip fare $16.12')
  const complete = (text: string, reader: Reading['reader'] = 'tesseract') => reading(reader, text)

  it('asks only when confirming the fields would approve it', () => {
    expect(judgeReceipt(complete(MISMATCH).fields, 92, { reader: 'tesseract', now }).reasons).toContain("The line items don't add up to the total")
    expect(wantsConfirmation(complete(MISMATCH), now)).toBe(true)
    // Approved alone, missing a field (the second reading is wanted anyway), or not eligible: no.
    expect(wantsConfirmation(complete(WAYMO), now)).toBe(false)
    expect(wantsConfirmation(complete(NO_TOTAL), now)).toBe(false)
    expect(wantsConfirmation(complete(MISMATCH.replace('Waymo', 'Chipotle Mexican Grill')), now)).toBe(false)
    // A date without separators is a doubt about what the text says: no reading confirms it away.
    expect(wantsConfirmation(complete(MISMATCH.replace('Mar 22, 2026 at 10:07 AM', 'Date 20260322')), now)).toBe(false)
  })

  it('the same total and date from the other reader, whose items add up, approve it; the first reading keeps deciding', () => {
    const first = complete(MISMATCH)
    const second = complete(WAYMO, 'paddleocr')
    expect(chooseReading(first, second)).toBe(first)
    const { decided, other, verdict } = judgeReadings(first, second, now)
    expect(decided).toBe(first)
    expect(other).toBe(second)
    expect(verdict).toMatchObject({ isAcceptable: true, needsManualReview: false, reasons: [] })
  })

  it('agreement is no cross-check: the same misfit items, or no items and no currency sign, in both readings leave it to staff', () => {
    // Both readings go through one extractor: it may take the wrong amount in both (a tip left out).
    const same = judgeReadings(complete(MISMATCH), complete(MISMATCH, 'paddleocr'), now)
    expect(same.verdict).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(same.verdict.reasons).toContain("The line items don't add up to the total")
    // With no items, a sign both readers may have read as a digit ('₹' as '3') leaves it to staff...
    const bare = 'Uber\nMar 22, 2026\nTotal 20.00'
    const noItems = judgeReadings(complete(bare), complete(bare, 'paddleocr'), now)
    expect(noItems.verdict).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(noItems.verdict.reasons).toContain('The total could not be cross-checked against the line items')
    // ...and its sign read, under a total's own word, it is as sure as a total printed twice (decision 118).
    const signed = 'Uber\nMar 22, 2026\nTotal $20.00'
    expect(judgeReadings(complete(signed), complete(signed, 'paddleocr'), now).verdict).toMatchObject({ isAcceptable: true, reasons: [] })
    // Not when another amount follows it: a promotion and the card's charge, a tip.
    for (const after of ['Promotion -$5.00\nVisa *1234 $15.00', 'Tip $2.00\nVisa *1234 $22.00']) {
      const page = `${signed}\n${after}`
      expect(judgeReadings(complete(page), complete(page, 'paddleocr'), now).verdict.isAcceptable).toBe(false)
    }
    // Nor when the other reading's items contradict it.
    const contradicted = `Uber\nMar 22, 2026\nTrip fare $16.00\nTotal $20.00`
    expect(judgeReadings(complete(signed), complete(contradicted, 'paddleocr'), now).verdict.isAcceptable).toBe(false)
  })

  it('a different total from the other reader, or none, leaves it to staff', () => {
    const first = complete(MISMATCH)
    const differs = judgeReadings(first, complete(MISMATCH.replace('$20.42', '$28.42'), 'paddleocr'), now)
    expect(differs.verdict).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(differs.verdict.reasons).toContain(DISAGREEMENT_REASONS.total)
    const missing = judgeReadings(first, complete(MISMATCH.replace('Total $20.42', ''), 'paddleocr'), now)
    expect(missing.decided).toBe(first)
    expect(missing.verdict.reasons).toContain("The line items don't add up to the total")
  })
})

describe("a bike or scooter ride read by one reader only (issue 37)", () => {
  // The corpus's bolt-scooter-email-es-01 screenshot, excerpts: PaddleOCR read the mail's top (the
  // logo's alt text "Bolt") and its footer; tesseract read its middle, which names the scooter.
  const PADDLE = 'Bolt  Total: 0.83\nJue, 25/04/2024\nAlex, gracias por viajar\nTotal  0.83\nSubtotal  0.83\nImporte total cobrado  0.83\nProveedor de servicios Bolt Operations OU'
  const TESSERACT = 'Total               0.83€\nSubtotal            0.83€\nImporte total cobrado   0.83€\nDetalles del viaje\nJue, 25/04/2024\nPatinete     2.44 km « 8 min'
  const read = (reader: 'tesseract' | 'paddleocr', text: string): Reading => ({ reader, text, confidence: 95, fields: extractReceipt(text) })
  const now = new Date('2024-04-26T12:00:00Z')

  it("is the service's bike or scooter ride", () => {
    expect(read('paddleocr', PADDLE).fields.category).toBe('ride_share')
    expect(read('tesseract', TESSERACT).fields.vendor).toBeNull()
    const { decided } = judgeReadings(read('tesseract', TESSERACT), read('paddleocr', PADDLE), now)
    expect(decided.fields).toMatchObject({ storeName: 'Bolt', category: 'scooter_bike', totalAmount: 0.83 })
  })

  it("not from an advert the other reading read", () => {
    const paddle = read('paddleocr', 'Lyft\nApr 25, 2024\nLyft ride 5.2 mi 14 min\nPickup 9:02 AM\nTotal $14.20')
    const ad = read('tesseract', 'Apr 25, 2024\nTotal $14.20\nNew: unlock Lyft bikes from the app')
    expect(judgeReadings(ad, paddle, now).decided.fields.category).toBe('ride_share')
    const bolt = read('tesseract', `${TESSERACT.replace('Patinete     2.44 km « 8 min', '')}\nPatinete 1 km gratis`)
    expect(judgeReadings(bolt, read('paddleocr', PADDLE), now).decided.fields.category).toBe('ride_share')
  })

  it('not when the other reading names another service', () => {
    const other = read('tesseract', 'Lyft\nPatinete     2.44 km « 8 min\nTotal 0.83€')
    const { decided, verdict } = judgeReadings(other, read('paddleocr', PADDLE), now)
    expect(decided.fields).toMatchObject({ storeName: 'Bolt', category: 'ride_share' })
    expect(verdict.isAcceptable).toBe(false)
  })
})

describe("a page's low score against two readings that agree (issue 37, twelfth session)", () => {
  // A real Trenitalia ticket (a PDF page) scored 44 for its banners, its QR code and its small print.
  const page = 'Trenitalia\nVIAGGIO da Roma Termini a Torino Porta Nuova il 01/02/2026 alle ore 16:10\nImporto totale*: 113.90 €'
  const now = new Date('2026-02-02T12:00:00Z')
  const low = reading('tesseract', page, 44)

  it('alone it is hard to read, so the other reader is asked; reading the service, the total and the date alike, they approve it', () => {
    expect(judgeReceipt(low.fields, 44, { reader: 'tesseract', now }).reasons).toContain('The photo is hard to read')
    expect(wantsConfirmation(low, now)).toBe(true)
    expect(judgeReadings(low, reading('paddleocr', page, 95), now).verdict).toMatchObject({ isAcceptable: true, reasons: [] })
  })

  it('a page barely read at all (under 40) keeps its doubt, however the readers agree', () => {
    const barely = reading('tesseract', page, 35)
    expect(judgeReadings(barely, reading('paddleocr', page, 95), now).verdict.reasons).toContain('The photo is hard to read')
  })

  it('one field read otherwise, or missed, and the page score stands', () => {
    const otherDate = judgeReadings(low, reading('paddleocr', page.replace('01/02/2026', '31/01/2026'), 95), now)
    expect(otherDate.verdict.reasons).toContain('The photo is hard to read')
    const noDate = judgeReadings(low, reading('paddleocr', page.replace(' il 01/02/2026', ''), 95), now)
    expect(noDate.verdict.isAcceptable).toBe(false)
    expect(noDate.verdict.reasons).toContain('The photo is hard to read')
  })
})

describe("a ticket's later day that only one reader read (issue 37, twelfth session)", () => {
  it('sends it to staff: tesseract lost the "02.07" of a real PKP Intercity ticket bought on 21-06-2024; PaddleOCR read it', () => {
    const now = new Date('2024-06-22T12:00:00Z')
    const page = 'PKP INTERCITY S.A.\n21-06-2024 18:30\nPARAGON FISKALNY\nSuma: PLN 161.18\nBILLET+RESERVATION'
    const first = reading('tesseract', `${page}\nWROCLAW GL => BERLIN HBF 11.06 2`)
    const second = reading('paddleocr', `${page}\n02.07  WROCLAWGL  =>BERLIN HBF  02.07  11.06  2`)
    expect(first.fields.signals.laterDay).toBeNull()
    expect(second.fields.signals.laterDay).toBe('02.07')
    expect(disagreements(first.fields, second.fields)).toContain('laterDay')
    expect(judgeReadings(first, second, now).verdict.reasons).toContain(DISAGREEMENT_REASONS.laterDay)
  })
})

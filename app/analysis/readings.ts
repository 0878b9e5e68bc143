/**
 * Pure: when a second reading of the photo is taken, and which reading decides (issue 13,
 * decision 010). The same extraction and verdict serve both readers; this only chooses between
 * their fields and guards against their disagreeing.
 */
import { extractReceipt, hasTotal, statesBikeOrScooterRide, type ExtractedReceipt, type OcrLine } from '~/analysis/extract'
import type { ReaderName } from '~/analysis/stored-analysis'
import { judgeReceipt, type Verdict } from '~/analysis/verdict'

export type Reading = { reader: ReaderName; text: string; confidence: number; fields: ExtractedReceipt }

/** One reader's lines (with their confidences) -> a Reading, as analysis extracts it. */
export function readingOf(reader: ReaderName, ocr: { lines: OcrLine[]; confidence: number }): Reading {
  const text = ocr.lines.map((l) => l.text).join('\n')
  return { reader, text, confidence: ocr.confidence, fields: extractReceipt({ text, lines: ocr.lines }) }
}

/**
 * The fields a verdict needs. A reading missing one of them cannot be approved automatically. A
 * price found only as the page's one priced amount counts as no total: a second reading may find
 * the total's line.
 */
function keyFields(fields: ExtractedReceipt): number {
  return Number(fields.vendor !== null) + Number(hasTotal(fields)) + Number(fields.purchaseDate !== null)
}

/** Measured (decision 011): a second reading helps only where the first missed a field. */
export function wantsSecondReading(first: ExtractedReceipt): boolean {
  return keyFields(first) < 3
}

/**
 * A first reading with every key field that falls short only on how sure it is of them, or on items
 * it misread: a second reading that reads the same values (and items adding up to the total) would
 * confirm them (issue 23: good photos whose total line tesseract scored low went to staff although
 * both readers read every field right).
 */
export function wantsConfirmation(first: Reading, now: Date): boolean {
  if (keyFields(first.fields) < 3) return false
  const alone = judgeReceipt(first.fields, first.confidence, { reader: first.reader, now })
  if (alone.isAcceptable || !alone.needsManualReview) return false
  // The best a second reading could bring: every field read alike, and items that add up to the total.
  return judgeReceipt(first.fields, first.confidence, {
    reader: first.reader,
    now,
    confirmed: { vendor: true, total: true, date: true },
    otherTotalCheck: 'sum',
  }).isAcceptable
}

/** Whether analysis asks the second reader: a field is missing, or every field is there but unsure. */
export function asksSecondReader(first: Reading, now: Date): boolean {
  return wantsSecondReading(first.fields) || wantsConfirmation(first, now)
}

/**
 * The second reading decides when it found more of the key fields, or as many where the first
 * missed one (PaddleOCR reads a badly taken photo better where both read something); otherwise
 * the first stands: a complete first reading that was only asked to be confirmed keeps deciding.
 */
export function chooseReading(first: Reading, second: Reading): Reading {
  const a = keyFields(first.fields)
  const b = keyFields(second.fields)
  return b > a || (b === a && a < 3) ? second : first
}

export const DISAGREEMENT_REASONS = {
  total: 'The two readings of this photo disagree on the total: staff will check it',
  date: 'The two readings of this photo disagree on the date: staff will check it',
  vendor: 'The two readings of this photo disagree on the service: staff will check it',
  evidence: 'Only one reading of this photo found electric vehicle or pre-owned wording: staff will check it',
  notATrip: 'Only one reading of this photo found words of a food order, a fee, a summary or a membership: staff will check it',
  laterDay: 'Only one reading of this photo found a later day on the ticket: staff will check the day of the trip',
} as const

/**
 * What the deciding reading and the other one read differently: fields both produced with different
 * values, and wording that changes the verdict (electric vehicle evidence on a rental, pre-owned
 * items, a ticket's later day) found only by the other reading.
 */
export function disagreements(decided: ExtractedReceipt, other: ExtractedReceipt, rupeeSign = false): Array<keyof typeof DISAGREEMENT_REASONS> {
  const out: Array<keyof typeof DISAGREEMENT_REASONS> = []
  // A lone priced amount is no total to disagree on (hasTotal).
  if (hasTotal(decided) && hasTotal(other) && !sameTotal(decided, other, rupeeSign)) out.push('total')
  if (decided.purchaseDate !== null && other.purchaseDate !== null && decided.purchaseDate !== other.purchaseDate) out.push('date')
  if (decided.vendor !== null && other.vendor !== null && decided.vendor.name !== other.vendor.name) out.push('vendor')
  const evOnlyInOther = decided.vendor?.kind === 'car_rental' && decided.signals.evEvidence.length === 0 && other.signals.evEvidence.length > 0
  const preOwnedOnlyInOther = decided.signals.preOwnedKeywords.length === 0 && other.signals.preOwnedKeywords.length > 0
  if (evOnlyInOther || preOwnedOnlyInOther) out.push('evidence')
  if (!decided.signals.notATrip && other.signals.notATrip) out.push('notATrip')
  // A ticket's trip day without its year, which one reader lost (a real PKP Intercity ticket's "02.07").
  if (!decided.signals.laterDay && other.signals.laterDay && decided.purchaseDate === other.purchaseDate) out.push('laterDay')
  return out
}

/**
 * A rupee sign one reader read as a digit glued to the amounts, where the other left it out:
 * tesseract read '₹251.73' as '3251.73' and the page's other amounts with a '2' or '3' in front
 * ('2214.56', '3239.73'), and PaddleOCR read '251.73', '214.56', '239.73' (the corpus's
 * uber-email-in-01, a real Uber receipt from India). The totals are the same amount when the page is
 * in rupees and at least two other amounts show such a digit: each read with it by one reader and
 * without it by the other, and neither form read by both (so that '20.00' beside '0.00' on the same
 * page proves nothing). One reader dropping the leading digit of several different amounts is not a
 * misreading that happens; a sign read as a digit in front of each is. A total alone with a digit
 * more is one reader losing a digit: the readings disagree.
 */
export function rupeeSignAsDigit(longer: Reading, shorter: Reading): boolean {
  const [a, b] = [longer.fields, shorter.fields]
  if (a.currency !== 'INR' || b.currency !== 'INR' || !hasTotal(a) || !hasTotal(b)) return false
  const glued = (long: string, short: string) => long.length === short.length + 1 && /^[23]/.test(long) && long.slice(1) === short
  const total = a.totalAmount!.toFixed(2)
  const shortTotal = b.totalAmount!.toFixed(2)
  if (!glued(total, shortTotal)) return false
  const figures = (text: string) => new Set(text.match(/(?<![0-9.,])[0-9]+\.[0-9]{2}(?![0-9])/g) ?? [])
  const long = figures(longer.text)
  const short = figures(shorter.text)
  const others = new Set([...long].filter((f) => f !== total && glued(f, f.slice(1)) && short.has(f.slice(1)) && !short.has(f) && !long.has(f.slice(1))).map((f) => f.slice(1)))
  others.delete(shortTotal)
  return others.size >= 2
}

/** The same total: equal, or the other's is the decided one's with a rupee sign read as a digit in front (`rupeeSign`, rupeeSignAsDigit). */
function sameTotal(decided: ExtractedReceipt, other: ExtractedReceipt, rupeeSign: boolean): boolean {
  return rupeeSign || Math.abs(decided.totalAmount! - other.totalAmount!) < 0.005
}

/** The deciding fields both readings read, and read the same: confirmed without a confidence of their own (issue 23). */
export function agreements(decided: ExtractedReceipt, other: ExtractedReceipt, rupeeSign = false): { vendor: boolean; total: boolean; date: boolean } {
  return {
    vendor: decided.vendor !== null && other.vendor !== null && decided.vendor.name === other.vendor.name,
    // A lone priced amount is a total to confirm only where it is the page's one amount in both readings (a ticket's fare: verdict.ts ticketFare, decision 115).
    total: ((hasTotal(decided) && hasTotal(other)) || (decided.signals.priceAlone && other.signals.priceAlone)) && sameTotal(decided, other, rupeeSign),
    date: decided.purchaseDate !== null && decided.purchaseDate === other.purchaseDate,
  }
}

/**
 * A bike or scooter ride read by one reader only: the other read a part of the page where it is not
 * said (PaddleOCR reads a long screenshot's top and footer; a real Bolt mail names its scooter in the
 * middle, "Patinete 2.44 km • 8 min"). The same service's ride is the one the words name, said of
 * the ride, not offered in an advert (statesBikeOrScooterRide).
 */
function withRideKind(decided: Reading, other: Reading): Reading {
  // The other reading names no other service (it may name none: the logo is an image).
  const sameService = other.fields.vendor === null || other.fields.vendor.name === decided.fields.vendor?.name
  if (!sameService || decided.fields.category !== 'ride_share' || !statesBikeOrScooterRide(other.text)) return decided
  return { ...decided, fields: { ...decided.fields, category: 'scooter_bike' } }
}

/** A disagreement between two readings never approves automatically. */
export function withDisagreements(verdict: Verdict, found: Array<keyof typeof DISAGREEMENT_REASONS>): Verdict {
  if (found.length === 0) return verdict
  return {
    ...verdict,
    isAcceptable: false,
    needsManualReview: true,
    reasons: [...verdict.reasons, ...found.map((f) => DISAGREEMENT_REASONS[f])],
  }
}

/**
 * The readings of one photo -> the reading that decides and its verdict: the choice, the verdict
 * with the deciding reader's thresholds and the fields both read alike, then the disagreements.
 * `second` is null when the second reader did not run (or failed).
 */
export function judgeReadings(first: Reading, second: Reading | null, now: Date): { decided: Reading; other: Reading | null; verdict: Verdict } {
  let chosen = second ? chooseReading(first, second) : first
  let other = second ? (chosen === first ? second : first) : null
  // The reading that kept a rupee sign out of the total's digits decides.
  if (other && rupeeSignAsDigit(chosen, other)) [chosen, other] = [other, chosen]
  const rupeeSign = other !== null && rupeeSignAsDigit(other, chosen)
  const decided = other ? withRideKind(chosen, other) : chosen
  const verdict = withDisagreements(
    judgeReceipt(decided.fields, decided.confidence, {
      reader: decided.reader,
      confirmed: other ? agreements(decided.fields, other.fields, rupeeSign) : {},
      otherTotalCheck: other?.fields.signals.totalCheck,
      now,
    }),
    other ? disagreements(decided.fields, other.fields, rupeeSign) : [],
  )
  return { decided, other, verdict }
}

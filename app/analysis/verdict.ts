/**
 * Pure: extracted fields + OCR confidence -> whether the receipt can be accepted without a human.
 * A wrong automatic approval pays real tokens, so anything short of a clean, cross-checked read
 * of a known transport service goes to manual review (decision 010).
 */
import { hasTotal, PRICE_ONLY_LABEL, type ExtractedReceipt } from '~/analysis/extract'
import type { NotATrip } from '~/analysis/trip-kind'
import type { ReaderName } from '~/analysis/stored-analysis'
import type { MerchantKind } from '~/analysis/vendors'

type TotalCheck = ExtractedReceipt['signals']['totalCheck']

export type Verdict = {
  /** 0..1: how sure we are that the fields were read correctly. */
  confidence: number
  /** A receipt was read at all (some merchant, amount or date). */
  isValid: boolean
  /** Eligible and read well enough to reward without a human. Never true together with needsManualReview. */
  isAcceptable: boolean
  needsManualReview: boolean
  reasons: string[]
}

/** Thresholds, measured on the development corpus (docs/research/receipt-ocr-lab-notes.md). */
export const VERDICT_THRESHOLDS = {
  /** Auto-approval needs at least this overall confidence. */
  autoConfidence: 0.8,
  /** Mean tesseract word confidence (0..100) below which the whole read is suspect. */
  minPageConfidence: 65,
  /** Tesseract confidence of the line holding the total / the date. */
  minTotalLineConfidence: 75,
  minDateLineConfidence: 85,
  minPlausibleYear: 2020,
  /** A total a cent off its items is trusted only when its line was read this clearly. */
  nearSumLineConfidence: 85,
  /** A named second merchant this close to the best one makes the merchant uncertain. */
  runnerUpRatio: 0.6,
}

/** The fields whose reading decides an automatic approval (the category follows from the service). */
export type DecidingField = 'vendor' | 'total' | 'date'

/**
 * Per reader, the lowest score (0..100) the reader that decided may give the least sure digit of
 * the total's and the date's line, and the service's line, for an automatic approval when the other
 * reader did not read the same value. Measured on both readers' readings of the dev set and the
 * unseen sets: every misread date or total had a digit below these (decision 010, issue 23).
 */
export const FIELD_CONFIDENCE: Record<PhotoReader, Record<DecidingField, number>> = {
  // Tesseract scores nearly every digit 99, misread ones up to 97; its line scores do not tell a
  // misread service name (right names were read at 19), which the name match judges instead.
  tesseract: { vendor: 0, total: 98, date: 98 },
  // PaddleOCR's misread digits scored up to 79.8; right service names 88 and up.
  paddleocr: { vendor: 85, total: 85, date: 85 },
}

/**
 * The highest score either reader gave the least sure digit of a date or total it misread, over
 * both readers' readings of the dev set (63), the unseen set (60) and the harder unseen set (60).
 * The digit-mutation test gives a changed digit this score (tests/receipt-digit-mutation.test.ts).
 */
export const MISREAD_DIGIT_CEILING: Record<PhotoReader, number> = { tesseract: 97, paddleocr: 79.8 }

type PhotoReader = Exclude<ReaderName, 'email'>

export type VerdictContext = {
  /** The reader whose reading is judged: its thresholds apply (FIELD_CONFIDENCE). */
  reader?: ReaderName
  /** Fields the other reader read the same: they need no confidence of their own. */
  confirmed?: Partial<Record<DecidingField, boolean>>
  /**
   * How the other reading's own line items checked the total it read. Where both read the same
   * total and the other's items add up to it, the total is cross-checked, even if this reading
   * misread an item. Agreement alone is no cross-check: both readings go through one extractor,
   * which may take the wrong amount in both.
   */
  otherTotalCheck?: TotalCheck
  /** Today, for the year check (this year or last); without it minPlausibleYear applies instead. */
  now?: Date
}

export const NOT_A_PAYMENT_REASON =
  'This receipt says it is not a payment receipt (a trip or charge summary). The service sends the receipt once the payment is processed: send that one instead.'

export const MANUAL_ENTRY_REASON =
  "We couldn't automatically determine if this receipt qualifies. Please enter the details manually."

const NOT_ELIGIBLE: Partial<Record<MerchantKind, string>> = {
  fuel: 'Fuel purchases are not eligible: only sustainable transport receipts earn B3TR',
  grocery: 'Grocery and store purchases are not eligible: only sustainable transport receipts earn B3TR',
  food: 'Food and drink purchases are not eligible: only sustainable transport receipts earn B3TR',
  retail: 'Retail purchases are not eligible: only sustainable transport receipts earn B3TR',
  air: 'Flights are not eligible: only sustainable transport receipts earn B3TR',
}

export function judgeReceipt(fields: ExtractedReceipt, pageConfidence: number | null, context: VerdictContext = {}): Verdict {
  const confidence = readConfidence(fields, pageConfidence, context.confirmed, context.otherTotalCheck)
  const isValid = fields.vendor !== null || hasTotal(fields) || fields.purchaseDate !== null
  const base = { confidence, isValid }
  if (!isValid) {
    return { ...base, isAcceptable: false, needsManualReview: true, reasons: [MANUAL_ENTRY_REASON] }
  }
  // A trip or charge summary says itself that it is no payment receipt: the receipt that follows
  // the payment pays, this never does (decision 112).
  if (fields.signals.notAPayment) return { ...base, isAcceptable: false, needsManualReview: false, reasons: [NOT_A_PAYMENT_REASON] }
  const kind = fields.vendor?.kind ?? null
  const preOwned = fields.signals.preOwnedKeywords
  if (kind === 'thrift' || (preOwned.length > 0 && kind !== 'transport' && kind !== 'car_rental')) {
    const what = fields.vendor ? `${fields.vendor.name} sells second-hand goods` : `Pre-owned items found (${preOwned.join(', ')})`
    return {
      ...base,
      isAcceptable: false,
      needsManualReview: true,
      reasons: [`${what}: second-hand purchases are accepted for staff review only`],
    }
  }
  if (kind && NOT_ELIGIBLE[kind]) return judgeOtherMerchant(fields, base, kind, pageConfidence)
  if (kind === 'car_rental' && fields.category === null) {
    // The EV words may simply have been misread on a poor photo: let a human look then.
    const unsure = confidence < VERDICT_THRESHOLDS.autoConfidence
    return {
      ...base,
      isAcceptable: false,
      needsManualReview: unsure,
      reasons: [`${fields.vendor?.name} rental without an electric vehicle: only electric vehicle rentals earn B3TR`],
    }
  }
  if (!fields.vendor || !fields.category) {
    const hint = fields.signals.categoryHint
    return {
      ...base,
      isAcceptable: false,
      needsManualReview: true,
      reasons: [
        hint
          ? 'The transport service could not be recognised: sent to manual review'
          : 'The merchant could not be recognised as a sustainable transport service: sent to manual review',
      ],
    }
  }
  const doubts = [
    ...transportDoubts(fields, pageConfidence, confidence, context.confirmed ?? {}, totalCheckOf(fields, context.confirmed, context.otherTotalCheck), context.now),
    ...fieldDoubts(fields, context),
  ]
  if (preOwned.length > 0) doubts.push(`Pre-owned items mentioned (${preOwned.join(', ')})`)
  if (doubts.length > 0) return { ...base, isAcceptable: false, needsManualReview: true, reasons: doubts }
  return { ...base, isAcceptable: true, needsManualReview: false, reasons: [] }
}

function judgeOtherMerchant(
  fields: ExtractedReceipt,
  base: { confidence: number; isValid: boolean },
  kind: MerchantKind,
  pageConfidence: number | null,
): Verdict {
  const reason = NOT_ELIGIBLE[kind] as string
  // A transport service named nearly as prominently: let a human decide rather than refuse.
  const runnerUp = fields.signals.runnerUp
  const transportToo =
    runnerUp && (runnerUp.kind === 'transport' || runnerUp.kind === 'car_rental') &&
    runnerUp.score >= fields.signals.vendorScore * VERDICT_THRESHOLDS.runnerUpRatio
  // Nothing but a name read off a poor photo may be a chance match: let a human look.
  const barelyRead =
    (!hasTotal(fields) && fields.purchaseDate === null) ||
    (pageConfidence !== null && pageConfidence < VERDICT_THRESHOLDS.minPageConfidence - 15)
  if (transportToo || barelyRead || !merchantConfident(fields)) {
    return { ...base, isAcceptable: false, needsManualReview: true, reasons: [reason, 'The merchant is uncertain: sent to manual review'] }
  }
  return { ...base, isAcceptable: false, needsManualReview: false, reasons: [reason] }
}

/**
 * An exact name near the top, a near miss ('zlipcar') on the header line itself, or the name
 * printed several times.
 */
function merchantConfident(fields: ExtractedReceipt): boolean {
  const s = fields.signals
  return (s.vendorExact && s.vendorScore >= 0.9) || s.vendorScore >= 1.4
}

/** How far each cross-check outcome trusts the total (also its factor in readConfidence). */
const TOTAL_CHECK_TRUST: Record<TotalCheck, number> = { sum: 1, 'near-sum': 0.95, repeated: 0.9, none: 0.8, mismatch: 0.55 }

/**
 * A transit ticket's fare (decision 115): a ticket prints its price with no word for it and no
 * items to add up ("￥57.0元" on a China Railway ticket). It is the total when it is the page's one
 * amount of any kind: no other figure could be the one paid, which is what a cross-check against
 * items guards against. Its digits are judged as any total's: read surely by the reader that
 * decided (FIELD_CONFIDENCE), or read alike by both.
 */
function ticketFare(fields: ExtractedReceipt): boolean {
  return fields.signals.totalLabel === PRICE_ONLY_LABEL && fields.signals.priceAlone && fields.category === 'public_transit'
}

/** The better of the two readings' cross-checks, where both read the same total; otherwise this reading's. */
function totalCheckOf(fields: ExtractedReceipt, confirmed: VerdictContext['confirmed'], other: TotalCheck | undefined): TotalCheck {
  // A ticket's one amount: no other could be the one paid.
  if (ticketFare(fields)) return 'repeated'
  // A taxi meter's amount that its own rate and distance account for (extract.ts, meterFare).
  if (fields.signals.meterFare) return 'repeated'
  const own = fields.signals.totalCheck
  const best = confirmed?.total && other && TOTAL_CHECK_TRUST[other] > TOTAL_CHECK_TRUST[own] ? other : own
  // Nothing to add up, but both readers read the same total under a total's own word, and the
  // deciding one read its currency sign (so no sign was misread as a digit, as India's '₹' is read
  // as '3' by both) and needed no repair: as sure as a total the page prints twice (decision 118: a
  // DB ticket's "Betrag 66,50€" and "Summe 66,50", a taxi meter's "金额: ￥78.00元"). Not when the
  // page prints another amount below it (a promotion, a tip, the card's charge), nor when the other
  // reading's items contradict it.
  const s = fields.signals
  const alone = s.totalLabelStrength >= 2 && s.totalSigned && !s.totalRepaired && !s.amountAfterTotal && other !== 'mismatch'
  return best === 'none' && confirmed?.total && alone ? 'repeated' : best
}

/**
 * What keeps a transport receipt from automatic approval. A total or date both readers read the
 * same (`confirmed`) needs no clear line of its own: those scores guard against one reader's
 * misread, and two readers agreeing digit for digit is the stronger guard (issue 23). The total's
 * cross-check against the items (`check`: the better of the two readings' where they agree) and
 * what the text says (its total label, a date without separators, the merchant) stand whoever read it.
 */
function transportDoubts(
  fields: ExtractedReceipt,
  pageConfidence: number | null,
  confidence: number,
  confirmed: Partial<Record<DecidingField, boolean>>,
  check: TotalCheck,
  now?: Date,
): string[] {
  const s = fields.signals
  const t = VERDICT_THRESHOLDS
  const doubts: string[] = []
  if (!merchantConfident(fields)) doubts.push('The transport service name was not read clearly')
  // Uber and Bolt deliver food too, under the same name, and every service mails fees and summaries:
  // a page that reads like one (a screenshot of an Uber Eats mail names "Uber" and its "courier") is
  // for staff, never approved. The e-mail reader refuses the same words (trip-kind.ts).
  if (s.notATrip) doubts.push(`The receipt reads like ${NOT_A_TRIP_LIKE[s.notATrip.kind]} ("${s.notATrip.evidence}"): staff will check it`)
  if (s.runnerUp && s.runnerUp.kind !== 'transport' && s.runnerUp.kind !== 'car_rental' && s.runnerUp.score >= s.vendorScore * t.runnerUpRatio) {
    doubts.push(`The receipt also names ${s.runnerUp.name}`)
  }
  if (fields.totalAmount === null) doubts.push('The total amount could not be read')
  else if (fields.totalAmount <= 0) doubts.push('The total amount is zero')
  else {
    if (s.totalLabelStrength < 2 && !ticketFare(fields)) doubts.push('No clear total line was found')
    if (check === 'mismatch') doubts.push("The line items don't add up to the total")
    if (check === 'none') doubts.push('The total could not be cross-checked against the line items')
    if (check === 'near-sum' && !confirmed.total && (s.totalLineConfidence ?? 0) < t.nearSumLineConfidence) {
      doubts.push('The line items are a cent off the total')
    }
    if (!confirmed.total && lowLine(s.totalLineConfidence, t.minTotalLineConfidence)) doubts.push('The total was read with low confidence')
    if (s.creditAfterTotal) doubts.push(`A credit was applied after the total ("${s.creditAfterTotal}"): staff will check the amount paid`)
  }
  if (fields.purchaseDate === null) doubts.push('The purchase date could not be read')
  else {
    if (s.laterDay) doubts.push(`The ticket also shows a later day ("${s.laterDay}"): staff will check the day of the trip`)
    if (s.dateFormat === 'compact') doubts.push('The purchase date was read without separators')
    if (!confirmed.date && lowLine(s.dateLineConfidence, t.minDateLineConfidence)) doubts.push('The purchase date was read with low confidence')
    // Years before the app existed are far more likely a misread '2026' than a real receipt. With a
    // clock, the year is judged against it instead (this year or last: dateDoubts), so a receipt
    // judged as of its own day (eval:receipts --as-of-printed-date) is not refused for its age.
    if (!now && Number(fields.purchaseDate.slice(0, 4)) < t.minPlausibleYear) doubts.push('The purchase year looks misread')
  }
  if (pageConfidence !== null && pageConfidence < t.minPageConfidence && !readAlike(confirmed, pageConfidence)) doubts.push('The photo is hard to read')
  if (doubts.length === 0 && confidence < t.autoConfidence) doubts.push('The receipt was read with low confidence')
  return doubts
}

const lowLine = (value: number | null, min: number) => value !== null && value < min

/**
 * Both readers read the service, the total and the date alike: the page's own score, an average over
 * every word, no longer speaks for the fields. Two readers agreeing digit for digit is the stronger
 * guard (issue 23). A real Trenitalia ticket (a PDF page) scores 44 for its banners, its QR code and
 * its small print, not for its fields; with the page's score deciding, no second reading was even
 * asked for. Under 40, the page's score stands.
 */
function readAlike(confirmed: Partial<Record<DecidingField, boolean>>, pageConfidence: number | null): boolean {
  // Not on a page barely read at all, where both readers may lose the same words (a food order's).
  const barely = pageConfidence !== null && pageConfidence < VERDICT_THRESHOLDS.minPageConfidence - 25
  return confirmed.vendor === true && confirmed.total === true && confirmed.date === true && !barely
}

const NOT_A_TRIP_LIKE: Record<NotATrip['kind'], string> = {
  food_order: 'a food or delivery order',
  trip_summary: 'a summary of several trips',
  fee_only: 'a fee without a trip',
  membership: 'a membership or subscription',
  tax_invoice: 'a tax invoice, which may cover several rides and is dated the day it was issued',
  other_service: 'a service that is not a ride (a designated driver, freight, fuel, parking or a car rental)',
}

export const FIELD_DOUBTS = {
  vendor: 'The transport service was read with low confidence and not confirmed by a second reading',
  total: "The total's digits were read with low confidence and not confirmed by a second reading",
  date: "The purchase date's digits were read with low confidence and not confirmed by a second reading",
  weekday: 'The weekday printed on the receipt does not match its date',
  year: 'The purchase year is neither this year nor last year: it looks misread',
} as const

/**
 * No approval on a guess (issue 23): each deciding field is read with a per-field confidence above
 * the deciding reader's threshold, or read the same by both readers; the date also checks itself.
 * A null confidence means the reader gave no score for it (canned text): the line checks above stand.
 */
function fieldDoubts(fields: ExtractedReceipt, context: VerdictContext): string[] {
  const s = fields.signals
  const doubts: string[] = []
  const limits = context.reader && context.reader !== 'email' ? FIELD_CONFIDENCE[context.reader] : null
  const confirmed = context.confirmed ?? {}
  if (limits) {
    if (!confirmed.vendor && lowLine(s.vendorLineConfidence, limits.vendor)) doubts.push(FIELD_DOUBTS.vendor)
    if (!confirmed.total && fields.totalAmount !== null && lowLine(s.totalDigitConfidence, limits.total)) doubts.push(FIELD_DOUBTS.total)
    if (!confirmed.date && fields.purchaseDate !== null && lowLine(s.dateDigitConfidence, limits.date)) doubts.push(FIELD_DOUBTS.date)
  }
  if (fields.purchaseDate !== null) doubts.push(...dateDoubts(fields.purchaseDate, s.dateWeekday, context.now))
  return doubts
}

/** Pure: what is wrong with a date on its own (ISO date, the weekday printed beside it, today). */
export function dateDoubts(isoDate: string, printedWeekday: number | null, now?: Date): string[] {
  const doubts: string[] = []
  const date = new Date(`${isoDate}T00:00:00Z`)
  if (printedWeekday !== null && date.getUTCDay() !== printedWeekday) doubts.push(FIELD_DOUBTS.weekday)
  if (now) {
    const year = date.getUTCFullYear()
    // Last year counts for receipts near New Year. Age and future dates are the submission's
    // window rule (app/receipts/age-window.ts), which refuses them whatever analysis says.
    if (year !== now.getUTCFullYear() && year !== now.getUTCFullYear() - 1) doubts.push(FIELD_DOUBTS.year)
  }
  return doubts
}

/** 0..1 from the page's OCR confidence and how well the fields held up. */
export function readConfidence(
  fields: ExtractedReceipt,
  pageConfidence: number | null,
  confirmed: Partial<Record<DecidingField, boolean>> = {},
  otherTotalCheck?: TotalCheck,
): number {
  const s = fields.signals
  const vendor = !fields.vendor ? 0.4 : merchantConfident(fields) ? 1 : s.vendorExact ? 0.85 : 0.7
  const check = totalCheckOf(fields, confirmed, otherTotalCheck)
  const total = fields.totalAmount === null ? 0.4 : TOTAL_CHECK_TRUST[check] * (s.totalLabelStrength >= 2 || ticketFare(fields) ? 1 : 0.85)
  const date = fields.purchaseDate === null ? 0.5 : s.dateFormat === 'compact' ? 0.85 : 1
  const lines = [confirmed.total ? null : s.totalLineConfidence, confirmed.date ? null : s.dateLineConfidence]
    .filter((c): c is number => c !== null)
    .map((c) => Math.min(1, c / 90))
  const page = pageConfidence === null ? 0.9 : Math.min(1, Math.max(pageConfidence / 85, readAlike(confirmed, pageConfidence) ? 0.9 : 0))
  const value = Math.min(page, ...lines, 1) * vendor * total * date
  return Math.round(Math.max(0, Math.min(1, value)) * 100) / 100
}

/**
 * The readings fell short (review) for a reason a better photo could fix: not an ineligible or
 * second-hand merchant, only doubts about what was read (issue 23: "retake" before "review").
 */
export function retakeMayHelp(fields: ExtractedReceipt, verdict: Verdict): boolean {
  if (!verdict.needsManualReview) return false
  const kind = fields.vendor?.kind ?? null
  if (fields.signals.preOwnedKeywords.length > 0 || kind === 'thrift') return false
  return kind === null || kind === 'transport' || kind === 'car_rental'
}

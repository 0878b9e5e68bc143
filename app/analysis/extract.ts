/**
 * Pure: OCR text (and per-line confidences) -> receipt fields plus the signals the verdict needs
 * to decide how far to trust them.
 */
import {
  CJK,
  DAY_FIRST_ONLY,
  electricVehicleEvidence,
  findVendors,
  guessCategory,
  INDIA_ONLY,
  preOwnedKeywords,
  type MerchantKind,
  type TransportCategory,
  type Vendor,
  VENDORS,
} from '~/analysis/vendors'
import { scriptShare } from '~/ocr/script'
import { withinOneEdit } from '~/utils/text'
import { MONTHS } from './months'
import { FEE_ONLY, FOOD, INVOICE_DATE_ZH, ITINERARY_ZH, MEMBERSHIP_WORDS, NOT_A_PAYMENT, ONE_TRIP_ZH, OTHER_SERVICE, STATEMENT, TAX_INVOICE_ZH, showsTrip, type NotATrip } from './trip-kind'

/**
 * `digitConfidence`: the lowest 0..100 score of a digit on the line, when the reader scores
 * characters. `words`: the line's words with their own scores, when the reader scores words
 * (tesseract), so that a total or date is as sure as the words it was read from (fieldConfidence).
 */
export type OcrLine = { text: string; confidence: number; digitConfidence?: number | null; digitScores?: ReadonlyArray<number> | null; words?: ReadonlyArray<OcrWord> }
export type OcrWord = { text: string; confidence: number }
/** OCR output as the extractor sees it; `confidence` values are tesseract's 0..100. */
export type OcrText = { text: string; lines?: OcrLine[]; confidence?: number }

export type PaymentMethod = { method: string | null; cardLastFour: string | null; isDigital: boolean }

export type TotalCheck =
  /** A run of line items just above the total adds up to it. */
  | 'sum'
  /** The items add up to within a cent (receipts round each line; OCR rarely misreads by exactly 1). */
  | 'near-sum'
  /** No items add up, but the same amount is printed again (e.g. on the payment line). */
  | 'repeated'
  /** Nothing to check against. */
  | 'none'
  /** Items are there but do not add up: something was misread. */
  | 'mismatch'

export type ExtractionSignals = {
  lineCount: number
  vendorScore: number
  vendorExact: boolean
  vendorLine: number | null
  vendorKind: MerchantKind | null
  /** Second-best merchant, when another one is also named. */
  runnerUp: { name: string; score: number; kind: MerchantKind } | null
  evEvidence: string[]
  preOwnedKeywords: string[]
  categoryHint: TransportCategory | null
  totalLabel: string | null
  totalLabelStrength: number
  totalLineConfidence: number | null
  /** The lowest score of a digit on the total's line (null: the reader gave none). */
  totalDigitConfidence: number | null
  /** The amount needed a repair (letters read for digits, a lost decimal point, a '$' read as '5'). */
  totalRepaired: boolean
  /** The total was read with its currency's sign or code: no sign was misread as one of its digits. */
  totalSigned: boolean
  /** Another amount is printed below the total (a promotion, a tip, a card's charge): the total may not be what was paid. */
  amountAfterTotal: boolean
  totalCheck: TotalCheck
  /** The total is the page's one priced amount, and no other amount of any kind is printed: a ticket's fare (onlyPricedAmount). */
  priceAlone: boolean
  /** A credit or voucher line below the total ("Gutschrift … 10,00€"): what was paid is less than the total. */
  creditAfterTotal: string | null
  /** A taxi meter's amount that its printed rate and distance account for (meterFare): its cross-check. */
  meterFare: boolean
  itemAmounts: number[]
  dateFormat: DateFormat | null
  dateLineConfidence: number | null
  /** The lowest score of a digit on the date's line (null: the reader gave none). */
  dateDigitConfidence: number | null
  /** The weekday printed beside the date (0 Sunday .. 6 Saturday), or null. */
  dateWeekday: number | null
  /** The reader's confidence in the line that names the merchant. */
  vendorLineConfidence: number | null
  /** Other dates on the receipt that differ from the chosen one. */
  otherDates: string[]
  /** The date is a ticket's travel date (a label said so), not the day it was bought. */
  travelDate: boolean
  /**
   * A ticket's day and month printed without a year, after the date read ("02.07" on a real PKP
   * Intercity ticket bought 21-06-2024): the trip may be that later day, or null.
   */
  laterDay: string | null
  /** The receipt's own words that it is not a payment receipt (a trip or charge summary), or null. */
  notAPayment: string | null
  /** Words of a food order, a summary of several trips, a fee without a trip or a membership, as the e-mail reader refuses them by, or null. */
  notATrip: NotATrip | null
}

export type ExtractedReceipt = {
  storeName: string | null
  vendor: Vendor | null
  category: TransportCategory | null
  totalAmount: number | null
  /** ISO 4217 code of the total's currency when the receipt shows one ('USD', 'EUR', 'KRW'…). */
  currency: string | null
  purchaseDate: string | null
  paymentMethod: PaymentMethod
  signals: ExtractionSignals
}

type Line = {
  text: string
  confidence: number | null
  digitConfidence: number | null
  /** Each digit's 0..100 score, in the order of the line's digits (null: the reader gave none). */
  digitScores: ReadonlyArray<number> | null
  words: ReadonlyArray<OcrWord> | null
  /** The line's parts where the reader left two spaces or more: a table's cells (columnTotal). */
  cells: string[]
  index: number
  /** The page's currency sign is lost in reading: its bare whole numbers may be amounts (parseAmounts). */
  signLost?: boolean
  /** A page written in Hangul: its figures in thousands are won, sign or not (parseAmounts). */
  wonPage?: boolean
}

/**
 * `known.vendor`: the merchant is already known for certain (a verified e-receipt's signer, issue
 * 21), so the fuzzy search for it over every line, most of the cost on a long text, is skipped.
 */
export function extractReceipt(ocr: OcrText | string, known: { vendor?: Vendor } = {}): ExtractedReceipt {
  const lines = toLines(typeof ocr === 'string' ? { text: ocr } : ocr)
  const fullText = lines.map((l) => l.text).join('\n')
  const named = known.vendor ? [{ vendor: known.vendor, score: 1, exact: true, line: null }] : findVendors(lines.map((l) => l.text))
  // A service named only by its mail's sender address also mails food orders, parcels and
  // memberships (GrabFood, GrabExpress, Bolt Food): without one trip on the page, it names nobody.
  const found = named[0] && 'namedBySender' in named[0] && named[0].namedBySender && !showsTrip(fullText) ? named.slice(1) : named
  // A Chinese taxi meter's invoice whose title was misread is still one by its form.
  const vendors = found.length === 0 && (meterForm(lines) || taxiFormKo(lines)) ? [{ vendor: TAXI, score: 1, exact: true, line: null }] : found
  const best = vendors[0] ?? null
  const second = vendors[1] ?? null
  const evEvidence = electricVehicleEvidence(fullText)
  const vendor = best?.vendor ?? null
  if (rupeeSignLost(fullText, vendor)) for (const line of lines) line.signLost = true
  else if (scriptShare(fullText, 'Hangul') >= HANGUL_PAGE) for (const line of lines) line.wonPage = true
  const printed = findTotal(lines)
  const total = printed ? (paidAfterCredit(lines, printed) ?? printed) : null
  // India writes the day first, as Europe does ("12/03/2024" on an Indian ticket is 12 March), and so
  // do Europe's own services on a page whose euro sign was lost; otherwise the page's amounts say.
  const dayFirstPage =
    fromIndia(fullText, vendor) || (vendor !== null && DAY_FIRST_ONLY.has(vendor.name) && !/\$|\bUSD\b/.test(fullText)) || prefersDayFirst(fullText)
  const date = findDate(lines, dayFirstPage)
  return {
    storeName: vendor?.name ?? guessStoreName(lines),
    vendor,
    category: categoryFor(vendor, evEvidence, fullText),
    totalAmount: total?.value ?? null,
    currency: receiptCurrency(total?.currency ?? documentCurrency(fullText), fullText, vendor),
    purchaseDate: date?.iso ?? null,
    paymentMethod: findPaymentMethod(fullText),
    signals: {
      lineCount: lines.length,
      vendorScore: best?.score ?? 0,
      vendorExact: best?.exact ?? false,
      vendorLine: best?.line ?? null,
      vendorKind: vendor?.kind ?? null,
      runnerUp: second ? { name: second.vendor.name, score: second.score, kind: second.vendor.kind } : null,
      evEvidence,
      preOwnedKeywords: preOwnedKeywords(fullText),
      categoryHint: guessCategory(fullText),
      totalLabel: total?.label ?? null,
      totalLabelStrength: total?.strength ?? 0,
      totalLineConfidence: total?.confidence ?? null,
      totalDigitConfidence: total?.digitConfidence ?? null,
      totalRepaired: total?.repaired ?? false,
      totalSigned: total?.signed ?? false,
      amountAfterTotal: total ? amountAfter(lines, total) : false,
      totalCheck: total?.check ?? 'none',
      priceAlone: total?.alone ?? false,
      creditAfterTotal: total && !total.creditTaken ? creditAfter(lines, total) : null,
      meterFare: total !== null && meterFare(lines, total),
      itemAmounts: total?.items ?? [],
      dateFormat: date?.format ?? null,
      dateLineConfidence: date?.confidence ?? null,
      dateDigitConfidence: date?.digitConfidence ?? null,
      dateWeekday: date?.weekday ?? null,
      vendorLineConfidence: best?.line != null ? (lines[best.line]?.confidence ?? null) : null,
      otherDates: date?.others ?? [],
      travelDate: date?.travel ?? false,
      laterDay: date && !date.travel ? laterDayOnTicket(lines, date, dayFirstPage, categoryFor(vendor, evEvidence, fullText)) : null,
      notAPayment: NOT_A_PAYMENT.exec(fullText)?.[0] ?? null,
      notATrip: notATripOnPage(lines, total?.value ?? null, fullText),
    },
  }
}

function toLines(ocr: OcrText): Line[] {
  const source: Array<{ text: string; confidence: number | null; digitConfidence: number | null; digitScores: ReadonlyArray<number> | null; words: ReadonlyArray<OcrWord> | null }> =
    ocr.lines && ocr.lines.length > 0
      ? ocr.lines.map((l) => ({ text: l.text, confidence: l.confidence, digitConfidence: l.digitConfidence ?? null, digitScores: l.digitScores ?? null, words: l.words ?? null }))
      : ocr.text.split(/\r?\n/).map((text) => ({ text, confidence: null, digitConfidence: null, digitScores: null, words: null }))
  return source
    .map((l) => ({ ...l, raw: l.text.replace(CAP, '$1') }))
    .map((l) => ({
      text: l.raw.replace(/\s+/g, ' ').trim(),
      cells: l.raw.trim().split(/\s{2,}/),
      confidence: l.confidence,
      digitConfidence: l.digitConfidence,
      digitScores: l.digitScores,
      words: l.words,
    }))
    .filter((l) => /[\p{L}\p{N}]/u.test(l.text))
    .map((l, index) => ({ ...l, index }))
}

/**
 * How sure the reader is of the words that characters start..end of a line were read from: a
 * total's amount, a date. Not the whole line's score, which an icon read as marks ("Lo" for
 * a card logo), a masked card number ("Visa*1234") or any other text beside the field pulls down
 * (issue 37: real payment lines scored 38-58 with the amount's own word at 95-96). Where the
 * reader gave no word scores, or its words do not spell the line, the line's score.
 */
export function fieldConfidence(line: Pick<Line, 'text' | 'confidence' | 'words'>, start: number, end: number): number | null {
  const words = line.words
  const tokens = line.text.split(' ')
  if (!words || words.length !== tokens.length || tokens.some((t, i) => t !== words[i].text.trim())) return line.confidence
  const scores: number[] = []
  const withDigits: number[] = []
  let at = 0
  tokens.forEach((token, i) => {
    const from = at
    at += token.length + 1
    if (from >= end || from + token.length <= start) return
    scores.push(words[i].confidence)
    if (/\d/.test(token)) withDigits.push(words[i].confidence)
  })
  if (scores.length === 0) return line.confidence
  // Their mean, so that a stray mark glued to a month ("‘November") costs that word only; but no
  // more than its least sure word with digits in it, where a misread shows ("Sep 18, 2026" for the
  // 16th: the day's word scored low, its digits' own scores did not).
  const mean = scores.reduce((sum, c) => sum + c, 0) / scores.length
  return Math.round(Math.min(mean, ...withDigits) * 10) / 10
}

/**
 * The lowest score of the digits between `start` and `end` of the line: a field is as sure as its
 * own digits, not as a neighbour's (a real Shenzhen invoice's "2023年12月148": the date's digits
 * scored 94 and up, the '8' its day's sign was misread as 57). The line's lowest when the reader
 * scored no digit one by one, or its scores do not match the line's digits.
 */
export function digitsConfidence(line: Pick<Line, 'text' | 'digitConfidence' | 'digitScores'>, start: number, end: number): number | null {
  const scores = line.digitScores
  const positions = [...line.text.matchAll(/[0-9]/g)].map((m) => m.index ?? 0)
  if (!scores || scores.length !== positions.length) return line.digitConfidence
  const own = scores.filter((_, i) => positions[i] >= start && positions[i] < end)
  return own.length === 0 ? line.digitConfidence : Math.min(...own)
}

/**
 * Car rentals count as electric_vehicle only when the receipt shows an EV; other merchants have no
 * category. A ride-share service that also runs bikes and scooters (Lyft Bike, Uber's and Bolt's
 * scooters) is scooter_bike when the receipt is for a bike or scooter ride.
 */
function categoryFor(vendor: Vendor | null, evEvidence: string[], text: string): TransportCategory | null {
  if (!vendor) return null
  if (vendor.kind === 'car_rental') return evEvidence.length > 0 ? 'electric_vehicle' : null
  if (vendor.kind !== 'transport') return null
  if (vendor.category === 'ride_share' && readsAsBikeOrScooterRide(text)) return 'scooter_bike'
  return vendor.category
}

/**
 * A bike or scooter ride, in the words of a receipt: "Your Lyft Bike ride", "Ebike ride ($0.25 per
 * min…)"; in the languages read, "tu viaje en patinete" (a real Bolt receipt); and the vehicle
 * before the ride's distance, as Bolt prints it ("Patinete 2.44 km • 8 min").
 */
export function readsAsBikeOrScooterRide(text: string): boolean {
  return withoutOffers(text).some((line) => BIKE_OR_SCOOTER_RIDE.test(line) || BIKE_OR_SCOOTER_BRAND.test(line))
}

/** The lines that offer nothing: an advert names bikes and scooters without a ride on them. */
const withoutOffers = (text: string) => text.split('\n').filter((line) => !PROMOTIONAL.test(line) && !OFFER.test(line))

/**
 * The same, said of the ride itself, in a line that offers nothing: another reading's words may
 * come from a part of the page this one did not read, or from an advert ("New: unlock Lyft bikes",
 * "Patinete 1 km gratis"), which names no ride (readings.ts).
 */
export function statesBikeOrScooterRide(text: string): boolean {
  return withoutOffers(text).some((line) => BIKE_OR_SCOOTER_RIDE.test(line))
}

const OFFER = /\b(?:free|gratis|gratuit[oa]?|kostenlos|new|neu|nuevo|nouveau|nuovo|novo|try|prueba|essaie|prova|download|app)\b/iu

/** The service's bikes or scooters named with its brand: "Your Lyft Bike ride" (an advert may do so too). */
const BIKE_OR_SCOOTER_BRAND = /\b(?:lyft|uber|bolt)\s+(?:bike|scooter)s?\b/i

const BIKE_OR_SCOOTER_RIDE = new RegExp(
  [
    String.raw`\b(?:e-?bike|bike|e-?scooter|scooter)\s+(?:ride|trip)\b`,
    String.raw`\b(?:e-?scooter|scooter|e-?bike|roller|fahrrad)-?fahrt\b|\bfahrt mit (?:dem|einem) (?:e-?scooter|scooter|e-?bike|fahrrad|roller)\b`,
    String.raw`\b(?:trajet|course) en (?:trottinette|v[ée]lo)\b|\b(?:viaje|trayecto) en (?:patinete|bicicleta|bici)\b`,
    String.raw`\b(?:corsa|viaggio) in (?:monopattino|bici(?:cletta)?)\b|\bviagem de (?:trotinete|patinete|bicicleta)\b`,
    String.raw`\b(?:e-?scooter|scooter|e-?bike|patinete|trottinette|monopattino|trotinete)\s+\d+(?:[.,]\d+)?\s?km\b`,
  ].join('|'),
  'iu',
)


const GENERIC_HEADER = /^(?:receipt|ride receipt|trip receipt|your receipt|invoice|tax invoice|order|thank you.*|thanks.*|we hope.*|welcome.*|this is your.*|your (?:trip|ride|order).*|hello.*|hi .*|save .*)$/i

/** For an unknown merchant, the first line that reads like a name, so staff see something useful. */
function guessStoreName(lines: Line[]): string | null {
  for (const line of lines.slice(0, 4)) {
    // Garbage from an unreadable photo is no name.
    if (line.confidence !== null && line.confidence < 60) continue
    const text = line.text.replace(/[^\p{L}\p{N}&'. -]/gu, '').trim()
    if (text.replace(/[^\p{L}]/gu, '').length < 3) continue
    if (GENERIC_HEADER.test(text) || /\d{3,}/.test(text)) continue
    // A line with an amount or a date is no name ("Total $20.87").
    if (parseAmounts(line.text).length > 0 || parseDates(line.text).length > 0) continue
    return text.slice(0, 60)
  }
  return null
}

// ---------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------

export type Amount = {
  value: number
  start: number
  /** Where its match ends on the line (its currency included). */
  end: number
  repaired: boolean
  /** A currency sign or code stood beside it. */
  currency: boolean
  /** Which currency (ISO 4217), when the sign says ('$' is read as USD). */
  code: string | null
  alternatives: number[]
}

const DIGITISH = '0-9OoQDIl|SsBZ'
/** Signs and codes printed before an amount ('$12.50', '₩27,700', 'EUR 12,50', 'Rs. 450'). */
const PREFIX_CURRENCY = String.raw`US\$|(?<!\p{L})(?:R|AU?|CA?|HK|NZ|MX|S)\$|USD|EUR|GBP|CHF|KRW|CNY|RMB|JPY|INR|MYR|SGD|AUD|CAD|HKD|NZD|MXN|BRL|PLN|Rs\.?|RM|\$|€|£|¥|￥|₩|₹|[Ss](?=[0-9])`
/** Signs and codes printed after it ('86,43 €', '27,700원', '61元', '1.200 円'). */
const SUFFIX_CURRENCY = String.raw`€|EUR|EURO|원|元|円|CHF|PLN|zł|Kč|kr|SGD|AUD|CAD|HKD|NZD|MXN|BRL`
const MONEY_RE = new RegExp(
  // optional currency, optional sign, an integer part (digits, maybe grouped), a separator, 2 decimals, optional currency after
  String.raw`(?:(?<cur>${PREFIX_CURRENCY})\s?)?(?<num>[0-9][${DIGITISH}]{0,2}(?:[,.'][0-9O]{3})+|(?=[${DIGITISH}]{0,6}[0-9])[${DIGITISH}]{1,7})(?:(?<sep>[.,·]|\s(?=\d{2}\s*$))(?:(?<dec>[${DIGITISH}]{2})|(?<dec1>[0-9])(?![0-9])))?(?![0-9]|[.,][0-9])(?:\s?(?<suf>${SUFFIX_CURRENCY})(?![\p{L}]))?`,
  'gu',
)

/** Units of a trip's time and distance printed right after a number. */
const DURATION_OR_DISTANCE = /^\s?(?:min(?:s|utes?)?|km|kms|mi|miles?|hrs?|hours?)\b/i

/** Currencies whose amounts have no minor unit: '₩27,700' is 27700, never a lost decimal point. */
const WHOLE_CURRENCIES = new Set(['KRW', 'JPY'])

/** The ISO code a printed sign or code stands for ('¥' is yuan unless the text is Japanese: see currencyCode). */
function currencyCode(sign: string | undefined): string | null {
  if (!sign) return null
  const s = sign.replace(/\.$/, '').toUpperCase()
  if (s === '$' || s === 'US$' || s === 'USD' || s === 'S') return 'USD'
  // The other dollars and the real, written with their country's letters ('R$ 50,77' on a Brazilian Uber receipt).
  if (s === 'R$' || s === 'BRL') return 'BRL'
  if (s === 'A$' || s === 'AU$' || s === 'AUD') return 'AUD'
  if (s === 'C$' || s === 'CA$' || s === 'CAD') return 'CAD'
  if (s === 'HK$' || s === 'HKD') return 'HKD'
  if (s === 'NZ$' || s === 'NZD') return 'NZD'
  if (s === 'MX$' || s === 'MXN') return 'MXN'
  // Singapore's dollar ('S$', 'SGD 10.60' on a real Grab receipt).
  if (s === 'S$' || s === 'SGD') return 'SGD'
  if (s === '€' || s === 'EUR' || s === 'EURO') return 'EUR'
  if (s === '£' || s === 'GBP') return 'GBP'
  if (s === '₩' || s === '원' || s === 'KRW') return 'KRW'
  if (s === '円' || s === 'JPY') return 'JPY'
  if (s === '¥' || s === '￥' || s === '元' || s === 'CNY' || s === 'RMB') return 'CNY'
  if (s === '₹' || s === 'RS' || s === 'INR') return 'INR'
  if (s === 'RM' || s === 'MYR') return 'MYR'
  if (s === 'CHF') return 'CHF'
  if (s === 'ZŁ' || s === 'PLN') return 'PLN'
  if (s === 'KČ') return 'CZK'
  return null
}

/** Map letters OCR reads in place of digits. */
function fixDigits(s: string): string {
  return s
    .replace(/[OoQD]/g, '0')
    .replace(/[Il|]/g, '1')
    .replace(/[Ss]/g, '5')
    .replace(/B/g, '8')
    .replace(/Z/g, '2')
}

/**
 * The share of a page's letters in Hangul from which it is a Korean page. Korean's reading of a real
 * Korean card slip or store receipt is 70-95 % Hangul; the rest is Latin (card brands, "POS").
 */
const HANGUL_PAGE = 0.5
/** A figure in thousands ("34,000", "1,234,500"), no decimals. */
const THOUSANDS = /^[0-9]{1,3}(?:,[0-9]{3})+$/

/**
 * Money amounts on one line, left to right. Needs a currency sign or two decimals to count, or,
 * where the page's sign is lost (`signLost`), to be a bare whole number ending the line's words
 * (bareWhole), or on a Korean page (`wonPage`) to be a figure in thousands.
 */
export function parseAmounts(raw: string, opts: { signLost?: boolean; wonPage?: boolean } = {}): Amount[] {
  const found: Amount[] = []
  const { line, euroAt } = withEuroSigns(raw)
  for (const m of line.matchAll(MONEY_RE)) {
    const { cur, num, sep, suf, dec1 } = m.groups as Record<string, string | undefined>
    // One decimal only beside the yuan's sign: China prints yuan and jiao ('￥57.0元', '¥443.5元');
    // and on an Indian page whose rupee sign was lost, which prints rupees so ("Ticket Fare 700.0",
    // "Agent Service Charge 40.0" on a real Indian Railways ticket; "Rate for 19.2 kms: 249.6" on Ola's).
    // Elsewhere it is a cent lost to the reading ('$20.9').
    const oneDecimal = currencyCode(cur ?? suf) === 'CNY' || (opts.signLost === true && !cur && !suf)
    const dec = m.groups?.dec ?? (dec1 !== undefined && oneDecimal ? `${dec1}0` : undefined)
    if (!num) continue
    if (dec1 !== undefined && dec === undefined) continue
    const start = m.index ?? 0
    const end = start + m[0].length
    const sign = cur ?? suf
    // Korea prints won without a sign as often as with one: a slip's "합계 34,000" under "금액 30,909원"
    // (a real card slip), a store's "판매합계 5,000". On a Korean page a figure in thousands is won,
    // unless a unit follows it: a distance ("운행거리 5,230m") or points ("1,480P").
    const won = opts.wonPage === true && !sign && dec === undefined && THOUSANDS.test(num) && !/^\s?\p{L}/u.test(line.slice(end))
    const code = won ? 'KRW' : currencyCode(sign)
    // A letter code or 'S' glued to a word is part of the word ('BRS', 'CHFx'): only the signs count alone.
    if (cur && /^[A-Za-z]/.test(cur) && /[\p{L}]/u.test(line[start - 1] ?? ' ')) continue
    // Ignore digits glued to letters on the left: 'Model3', 'Store#553'. Not to Chinese, Japanese or
    // Korean, written without spaces: '金额144.0元', or a yuan sign read as a character ('和144.0元').
    const before = line[start - 1] ?? ' '
    if (!cur && /[\p{L}#]/u.test(before) && !CJK.test(before)) continue
    if (!sign && !dec && !won && !(opts.signLost && sep === undefined && bareWhole(line, start, end))) continue
    // A rate, not money: "CGST @ 2.5%" on a page whose figures have no sign.
    if (opts.signLost && !sign && /^\s?%/.test(line.slice(end))) continue
    // A time or a distance ("TOTAL RIDE TIME : 71.93 min", "23.95 km"), not money.
    if (!sign && DURATION_OR_DISTANCE.test(line.slice(end))) continue
    // '20 26' at the end of a line is only an amount with a currency sign ('$20 26').
    if (!cur && sep !== undefined && /\s/.test(sep)) continue
    const realDigits = (num + (dec ?? '')).replace(/[^0-9]/g, '').length
    if (realDigits < Math.max(1, (num + (dec ?? '')).length - 1)) continue
    // A word ('Tip', 'Sold') is not a number even if every letter could be a digit.
    if (!/[0-9]/.test(num)) continue
    const whole = code !== null && WHOLE_CURRENCIES.has(code)
    const intPart = fixDigits(num.replace(/[,.' ]/g, ''))
    const decPart = dec && !whole ? fixDigits(dec) : '00'
    if (!/^\d+$/.test(intPart) || !/^\d{2}$/.test(decPart)) continue
    const value = whole && dec ? Number(fixDigits(num.replace(/[,.' ]/g, '') + dec)) : Number(`${intPart}.${decPart}`)
    if (!Number.isFinite(value) || value > (whole ? 10_000_000 : 100_000)) continue
    const repaired = fixDigits(num) !== num || (dec !== undefined && fixDigits(dec) !== dec) || (sep !== undefined && sep !== '.' && !(sep === ',' && code !== null && code !== 'USD'))
    const alternatives: number[] = []
    // '$' read as '5' or 'S' glued to the number: '$20.00' -> '520.00'.
    if (!cur && !suf && intPart.length >= 2 && intPart.startsWith('5')) alternatives.push(Number(`${intPart.slice(1)}.${decPart}`))
    // A lost decimal point: '$1633' for '$16.33' (not in a currency without cents).
    if (cur && !dec && !whole && intPart.length >= 3 && !/[,.']/.test(num)) alternatives.push(Number(intPart) / 100)
    // Discounts and promotions: '-$3.00', '−3.00', '($3.00)'.
    const prefix = line.slice(Math.max(0, start - 2), start)
    if (/[-−–(]\s?$/.test(prefix)) {
      found.push({ value: -value, start, end, repaired, currency: Boolean(sign), code, alternatives: alternatives.map((a) => -a) })
      continue
    }
    found.push({ value, start, end, repaired: repaired || (cur !== undefined && /^[Ss]$/.test(cur)) || euroAt.has(end - 1), currency: Boolean(sign), code, alternatives })
  }
  return found
}

/**
 * A whole number standing for an amount whose currency sign was lost (an Indian page's "Total
 * Payable Bill 415", "Total Bill (rounded off) 1129", "TOTAL FARE" over "284": real Ola invoices
 * print whole rupees, and no reader read their '₹'). Only one in the line's figures after its
 * words: alone between spaces, no letter after it, and no part of a date ("26 Nov, 2014"), a
 * time ("10:26 am"), a phone number ("+91 22 3355 3355, Fax", "Customer care 1800 419 4040"), a
 * number ("Train No 12951"), a rate ("5 %") or a distance ("15 km").
 */
function bareWhole(line: string, start: number, end: number): boolean {
  const num = line.slice(start, end)
  if (!/^[1-9][0-9]{0,5}$/.test(num)) return false
  if (!/^\s?$/.test(line[start - 1] ?? '') || !/^(?:\s|$)/.test(line.slice(end))) return false
  if (/\p{L}|:|%/u.test(line.slice(end)) || /[+:]\s?$|\b(?:tel|phone|fax|mobile|pin|helpline|care)\b|\b(?:no|nr|number)\.?\s*$|#\s*$/i.test(line.slice(0, start))) return false
  // A phone number's groups ("1800 419 4040"): three or more runs of digits between single spaces.
  const run = /(?:\d+ ){2,}\d+$|^\d+(?: \d+){2,}/.exec(`${line.slice(0, end).match(/[\d ]*$/)?.[0] ?? ''}${line.slice(end).match(/^[\d ]*/)?.[0] ?? ''}`.trim())
  if (run) return false
  return !datesOnLine(line).some((d) => start < d.end && end > d.start)
}

/**
 * The euro sign as tesseract misreads it after a decimal comma: '16,40 ¢' (a cent sign never
 * follows a comma amount; a real FreeNow receipt), and '142,006' on a line where another amount
 * is written the European way with its sign ("Summe 142,006 142,006 22,68€" on a real DB ticket).
 * Put back in place, one character for one, so positions hold; the amounts read through it count
 * as repaired.
 */
function withEuroSigns(raw: string): { line: string; euroAt: Set<number> } {
  const euroAt = new Set<number>()
  if (!/,\d{2}\s?¢|,\d{3}\b/.test(raw)) return { line: raw, euroAt }
  // A '6' only beside an amount written the European way with its euro sign read right: "1,256 EUR" is a thousand.
  const euroLine = /\d,\d{2}\s?(?:€|EUR\b)/.test(raw)
  const line = raw.replace(/(\d,\d{2})(\s?)([¢6])(?=\s|$)/g, (whole, amount: string, space: string, sign: string, at: number) => {
    if (sign === '6' && (space !== '' || !euroLine)) return whole
    euroAt.add(at + amount.length + space.length)
    return `${amount}${space}€`
  })
  return { line, euroAt }
}

/**
 * Advertised or promotional amounts, never what was paid: "get up to $120/year in ride credit",
 * "Lyft Pink savings … Saved this trip $6.65", "earn $5 for every friend you refer". A cap in a
 * ticket's conditions is no amount either ("… un buono del 25% del prezzo (max 15 €) sugli
 * Intercités", a real SNCF ticket, whose "prezzo" was taken for the price): only the amount right
 * after a cap's word goes (CAP), never the rest of its line ("Prezzo 110,00 EUR  Rimborsabile fino a
 * 110,00 EUR"), a name ("Max Mustermann") or a date ("valido fino a 12/03/2026").
 */
const PROMOTIONAL = /\b(?:up\s+to|earn(?:s|ed|ing)?|saved?\b|savings|save\s+\$|per\s+(?:year|month|week)|a\s+(?:year|month)|in\s+(?:\w+\s+)?(?:ride\s+)?credits?|refer|invite|promo\s+code|offer|bonus|rewards?|points)\b|\/\s?(?:yr|year|mo|month|week)\b/i
/** A cap's word and the amount right after it, in a currency: the amount is taken off its line (toLines). */
const CAP = /((?:\(\s*max\b\.?|\bmax\.|\bmax:|\bmaxim(?:um|al)\b|\bbis\s+zu\b|\bjusqu['’]?\s*[àa]|\bhasta\b|\bfino\s+a\b|\bmassimo\b)\s*:?\s*)([€$£]\s?\d+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?\s?(?:€|EUR\b|\$|£|CHF\b))/giu

/**
 * A page from India: its GST taxes or its cesses (Swachh Bharat, Krishi Kalyan, education), its
 * currency's code or name, its calling code or its address.
 * Its rupee sign is read as something else: on the real corpus's Indian receipts (Ola, Rapido,
 * Uber, Indian Railways), neither reader ever read '₹', but '$', '¥', '%', 'X' or a digit.
 */
const INDIAN_PAGE = /\b(?:CGST|SGST|UTGST|IGST|GSTIN|INR)\b|₹|\bRs\.?\s?\d|\+91[\s-]?\d|,\s*India\b/
/**
 * An Indian address: a state or a metropolis before its six-digit PIN code, which a reader may glue
 * to it ("Karnataka560059nda" for "Karnataka 560059, India", PaddleOCR on a turned copy of a real Ola invoice).
 */
const INDIAN_ADDRESS =
  /\b(?:Andhra\s*Pradesh|Arunachal\s*Pradesh|Assam|Bihar|Chhattisgarh|Goa|Gujarat|Haryana|Himachal\s*Pradesh|Jharkhand|Karnataka|Kerala|Madhya\s*Pradesh|Maharashtra|Manipur|Meghalaya|Mizoram|Nagaland|Odisha|Punjab|Rajasthan|Sikkim|Tamil\s*Nadu|Telangana|Tripura|Uttar\s*Pradesh|Uttarakhand|West\s*Bengal|Delhi|Chandigarh|Puducherry|Bengaluru|Bangalore|Mumbai|Chennai|Kolkata|Hyderabad|Pune|Gurugram|Gurgaon|Noida)[ \t]*[,-]?[ \t]*[1-9][0-9]{5}(?![0-9])/i
/** India's cesses, in any case: "Swachh Bharat Cess", "SHE cess", "Krishi Kalyan". */
const INDIAN_CESS = /\b(?:swachh\s*bharat|krishi\s*kalyan|cess)\b/i
/** What a misread rupee sign passes for. */
const RUPEE_READ_AS = new Set([null, 'USD', 'CNY'])

/** A page from India, or of a service only India has. */
function fromIndia(fullText: string, vendor: Vendor | null): boolean {
  return INDIAN_PAGE.test(fullText) || INDIAN_CESS.test(fullText) || INDIAN_ADDRESS.test(fullText) || (vendor !== null && INDIA_ONLY.has(vendor.name))
}

/** A page from India where no amount was read with the rupee's sign or code. */
function rupeeSignLost(fullText: string, vendor: Vendor | null): boolean {
  return fromIndia(fullText, vendor) && !/₹|\b(?:INR|Rs\.?)\s?\d/.test(fullText)
}

/** The receipt's currency: the one read, unless it is what a rupee sign is misread as on a page from India. */
function receiptCurrency(read: string | null, fullText: string, vendor: Vendor | null): string | null {
  if (!RUPEE_READ_AS.has(read)) return read
  return fromIndia(fullText, vendor) ? 'INR' : read
}

/** The currency a receipt is in when its total carries no sign: the most frequent one it names. */
export function documentCurrency(text: string): string | null {
  const counts = new Map<string, number>()
  for (const m of text.matchAll(/(US\$|(?<!\p{L})(?:R|AU?|CA?|HK|NZ|MX)\$|(?<!\p{L})S\$(?=\s?\d)|\$|€|£|¥|￥|₩|₹|원|元|円|\b(?:USD|EUR|EURO|GBP|CHF|KRW|CNY|RMB|JPY|INR|MYR|SGD|AUD|CAD|HKD|NZD|MXN|BRL|PLN)\b)/gu)) {
    const code = currencyCode(m[1])
    if (code) counts.set(code, (counts.get(code) ?? 0) + 1)
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
}

function lineAmount(line: Line): Amount | null {
  if (PROMOTIONAL.test(line.text)) return null
  const amounts = parseAmounts(line.text, line)
  return amounts[amounts.length - 1] ?? null
}

/**
 * The amount a total's line gives: its last, where a total is printed; but a table's total row
 * prints the gross amount first and its tax columns after it (a real DB ticket's "Summe 66,50€
 * 66,50€ 10,62€": price, price, VAT): where no amount after the first is larger, the first.
 */
function totalOnLine(line: Line): Amount | null {
  if (PROMOTIONAL.test(line.text)) return null
  const amounts = parseAmounts(line.text, line).filter((a) => a.value > 0)
  const [first, ...rest] = amounts
  if (first && rest.length > 0 && rest.every((a) => a.value <= first.value)) return first
  return positiveAmount(line)
}

/** A Korean receipt's points earned, balance left and mileage: figures under the items that were never paid. */
const NOT_AN_ITEM_KO = /포[ \t]*인[ \t]*트|적[ \t]*립|잔[ \t]*액|마[ \t]*일[ \t]*리[ \t]*지/u

/**
 * A ticket's seat, berth or coach: numbers, never a charge ("Seat No/s : 21,22" on a real KSRTC
 * ticket, read as 21.22; "Carrozza 12 Posto 219" on a real SNCF one).
 */
const SEAT_LABEL = /^\W*(?:seats?|berths?|coach|posto|posti|sitz(?:platz)?|pl[aä]tze?|places?|si[eè]ges?|asientos?|plazas?|wagen|carrozza|voiture|coche)\s*(?:n[or°]\S{0,3}|numbers?|#)?\s*[:.]?\s*[0-9]/iu

/**
 * A seat's line: its label, then its number ("Seat No/s : 21,22", "Posti: 8D", "Carrozza 12"), and no
 * amount in a currency. "Seat upgrade $15.00", "Coach fare $45.00" and "Coach upgrade 15.00" are charges.
 */
function seatLine(line: Line): boolean {
  return SEAT_LABEL.test(line.text) && !parseAmounts(line.text, line).some((a) => a.currency)
}

/**
 * A rate is a price per unit, not a charge: a taxi invoice's "单价: 3.51元" (per km) above its
 * "金额: ￥78.00元" (a real Shenzhen invoice), "Unit price", "Price per km".
 */
const RATE_LABEL = /单\s*价|單\s*價|\bunit\s+price\b|\bprice\s+per\b|\bper\s+(?:km|mile|minute)\b|\b(?:km|kilometer)-?preis\b|\bpreis\s+(?:pro|je)\s+km\b|\bprix\s+(?:au|par)\s+km\b/iu

/**
 * An item's amount ends its line, or has at most a tax code or a currency after it ("12.50 A",
 * "3,20 EUR"). One followed by words is in a sentence: "Service Fee, includes a $0.30 Lyft
 * California Driver" (a real Lyft receipt; its own amount, $2.75, is read on a line of its own).
 */
function itemAmount(line: Line): Amount | null {
  if (RATE_LABEL.test(line.text) || NOT_AN_ITEM_KO.test(line.text) || seatLine(line)) return null
  const last = lineAmount(line)
  // Dashes and bars after it are a table's rules read as marks ("9,00€ 1,44€ —_—").
  if (!last || !/^[\s*]*(?:[A-Za-z]{1,3}|[€$£¥₩₹%])?[\s*—–_|-]*$/u.test(line.text.slice(last.end))) return null
  // A table's row, like its total's (totalOnLine): the price first, then columns no larger (a real
  // DB ticket's "ICE Fahrkarte 1 133,00€ 133,00€ 21,24€": price, price, VAT).
  return totalOnLine(line) ?? last
}

function positiveAmount(line: Line): Amount | null {
  const amount = lineAmount(line)
  return amount && amount.value > 0 ? amount : null
}

// ---------------------------------------------------------------------------
// Total
// ---------------------------------------------------------------------------

type TotalLabel = { label: string; strength: number }

const NOT_TOTAL = /\b(?:sub-?\s?total|total\s+(?:savings|saved|tax|taxes|distance|time|miles|mileage|trips|rides|points|items|weight|duration)|total\s+(?:ride|trip|travel|journey|waiting|wait|drive|driving)\s+(?:time|distance|duration)|before\s+tax|tax)\b/i
const STRONG_LABELS = /\b(?:total\s+(?:charged|charges|charge|paid|due|amount|fare|price|cost|ttc)|gesamtbetrag|gesamtpreis|gesamtsumme|endbetrag|rechnungsbetrag|bruttobetrag|zahlbetrag|gesamt|zu\s+zahlen|summe|montant\s+total|total\s+[àa]\s+payer|prix\s+total|importe\s+total|precio\s+total|total\s+a\s+pagar|totale(?:\s+da\s+pagare)?|prezzo\s+totale|importo\s+totale|amount\s+(?:charged|paid|due|billed)|grand\s+total|balance\s+due|you\s+paid|fare\s+paid|total\s+to\s+pay|order\s+total|trip\s+total|ride\s+total|do\s+zap[łl]aty|te\s+betalen|att\s+betala)\b|합계(?:\s*금액)?|총\s*액|결제\s*금액|승차\s*요금|合\s*计|总\s*计|实\s*付|合\s*計/iu
/** The word for the price itself: English "Total", and what a European or Asian ticket prints (Polish "Suma" and "Razem", Dutch "Totaal", Swedish "Totalt", Czech "Celkem"). */
const TOTAL_WORD = /\b(?:total|fahrpreis|preis|betrag|prix|montant|importe|precio|prezzo|importo|tarif|suma|razem|totaal|totalt|celkem)\b|요\s*금|금\s*액|金\s*额|票\s*价|金\s*額|料\s*金/iu
const WEAK_LABELS = /\b(?:charged|paid|amount|payment|balance|due)\b/i

/** Words within one edit of 'total' ('Tota', 'otal', 'T0tal', 'Totai') from a blurred photo. */
function fuzzyTotal(text: string): boolean {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((w) => w.length >= 4 && w.length <= 6 && w !== 'total' && withinOneEdit(w.replace(/0/g, 'o').replace(/[1|]/g, 'l'), 'total'))
}

function totalLabel(text: string): TotalLabel | null {
  const strong = text.match(STRONG_LABELS)
  if (strong) return { label: strong[0], strength: 3 }
  if (NOT_TOTAL.test(text)) return null
  const total = text.match(TOTAL_WORD)
  if (total) return { label: total[0], strength: 2 }
  if (fuzzyTotal(text)) return { label: 'total?', strength: 1.5 }
  const weak = text.match(WEAK_LABELS)
  if (weak) return { label: weak[0], strength: 1 }
  return null
}

/** A label written in a sentence or an aside ("added to your total fare", "(incl. the total)"), not heading an amount. */
function inProse(text: string, label: string): boolean {
  const at = text.toLowerCase().indexOf(label.toLowerCase())
  if (at < 0) return false
  const before = text.slice(0, at)
  return /\([^)]*$/.test(before) || /\b(?:your|the|our|to|of|in|for)\s+$/i.test(before)
}

type TotalFound = {
  value: number
  currency: string | null
  label: string
  strength: number
  confidence: number | null
  digitConfidence: number | null
  repaired: boolean
  signed?: boolean
  check: TotalCheck
  items: number[]
  /** onlyPricedAmount: no other amount of any kind on the page. */
  alone?: boolean
  /** The amount paid after a credit the page took off the printed total (paidAfterCredit). */
  creditTaken?: boolean
  /** The line the amount was read from. */
  lineIndex?: number
}

/**
 * A line naming how the receipt was paid: its amount is the payment, not an item ("Contactless card
 * $14.60" above the total would otherwise check the total against itself). A card followed by what
 * was bought with it is an item: "Breeze card trip", "Clipper card reload", "Card fee".
 */
const PAYMENT_LINE =
  /\b(?:visa|master\s?card|amex|american express|discover|apple\s?pay|google\s?pay|samsung\s?pay|paypal|venmo(?:\s+account)?|cash\s?app|debit|credit(?!s\b)|card(?!\s*(?:trip|fare|ride|reload|top-?up|value|purchase|fee|pass)\b)|cash|ending)\b/i

function findTotal(lines: Line[]): TotalFound | null {
  const labelled = lines
    .filter((line) => !PROMOTIONAL.test(line.text))
    .map((line) => ({ line, label: totalLabel(line.text) }))
    .filter((x): x is { line: Line; label: TotalLabel } => x.label !== null)
  // Strongest label wins; among equals the later one (a total follows its items).
  labelled.sort((a, b) => b.label.strength - a.label.strength || b.line.index - a.line.index)
  let weak: TotalFound | null = null
  for (const { line, label } of labelled) {
    let amountLine = line
    let amount = totalOnLine(line)
    // A label in a sentence or an aside heads no amount printed before it: "Free ride time (0 min)
    // 30.0 (Taxes added to your total fare)" on a real Ola invoice.
    if (amount && inProse(line.text, label.label) && amount.start < line.text.toLowerCase().indexOf(label.label.toLowerCase())) amount = null
    // Photos of skewed receipts sometimes put the amount on the next OCR line; not a label in a
    // sentence, whose next line is anything ("(Taxes added to your total fare)" over a ride time).
    if (!amount && !inProse(line.text, label.label)) {
      const next = lines[line.index + 1]
      // Only an amount on a line of its own: a next line with words is another line ("Includes
      // $12.33 Taxes" under an Ola invoice's "Total Bill (rounded) 220", whose rupee sign was lost).
      if (next && !totalLabel(next.text) && parseAmounts(next.text, next).length === 1 && !/\p{L}{3,}/u.test(next.text)) {
        amount = positiveAmount(next)
        amountLine = next
      }
    }
    if (!amount) {
      const column = columnTotal(lines, line, label)
      if (column) return column
      continue
    }
    const found = judgeTotal(lines, amountLine, amount, label)
    if (label.strength >= 2) return found
    weak ??= found
    break
  }
  // No "Total" label (Lyft prints none): what the card or wallet was charged is the amount paid,
  // taken when the items above add up to it, or when nothing else names a total.
  const paid = paymentTotal(lines)
  if (paid && (paid.check === 'sum' || paid.check === 'near-sum' || !weak)) return paid
  return weak ?? structuralTotal(lines) ?? onlyPricedAmount(lines)
}

/**
 * A fare table: a row of labels, the total's last ("Ticket Fare  Convenience Fee  Total Fare"), over
 * a row of as many amounts ("Rs. 360.00  Rs.17.70  Rs.377.70", a real IRCTC booking mail). The
 * total is the amount under its label, and the amounts before it are its items. Readers print a
 * table's cells two spaces or more apart.
 */
function columnTotal(lines: Line[], line: Line, label: TotalLabel): TotalFound | null {
  if (label.strength < 2) return null
  const cells = line.cells
  const next = lines[line.index + 1]
  if (cells.length < 2 || !next || totalLabel(cells[cells.length - 1]) === null || cells.slice(0, -1).some((c) => totalLabel(c)?.strength === 3)) return null
  const row = (l: Line | undefined) => (l ? parseAmounts(l.text, l).filter((a) => a.value > 0) : [])
  const amounts = row(next)
  // Nothing but the amounts on their row, one under each label; and one row only: a table of
  // several rows (a fare, a tip and a total for each of two rides) is no one total.
  if (amounts.length !== cells.length || /\p{L}{3,}/u.test(next.text.replace(/\bRs\b|\b[A-Z]{3}\b/g, ''))) return null
  if (row(lines[next.index + 1]).length >= 2) return null
  const total = amounts[amounts.length - 1]
  const found = judgeTotal(lines, next, total, label)
  const parts = amounts.slice(0, -1)
  // Figures a reader repaired (a letter read for a digit) check nothing: the same blurred glyphs
  // may have been misread the same way in two cells.
  if (total.repaired || parts.some((a) => a.repaired)) return { ...found, items: parts.map((a) => a.value), check: 'none' }
  const values = parts.map((a) => a.value)
  const check: TotalCheck = itemsAddingUp(values, total.value) === values.length ? 'sum' : 'mismatch'
  return { ...found, value: total.value, repaired: false, items: values, check }
}

/**
 * What on a photographed page says it is no trip's receipt, by the e-mail reader's words
 * (trip-kind.ts), kept to where they mean that on a page: a food or delivery word outside an advert
 * ("Get 40% off your next Uber Eats order" is an advert on a ride); a statement's words (not a
 * transit card's ride counter); a fee or a membership only on the line that charges the total (a
 * "Late return fee $25" on an EV rental, "Lyft Pink savings -$2.89" on a ride, "Auto-renew: On" on a
 * pass are lines of a trip or a pass, not what was bought).
 */
function notATripOnPage(lines: Line[], total: number | null, fullText: string): NotATrip | null {
  for (const line of lines) {
    if (PROMOTIONAL.test(line.text) || /\b\d+\s?%\s*off\b|\bnext\b/i.test(line.text)) continue
    const food = FOOD.exec(line.text)
    if (food) return { kind: 'food_order', evidence: food[0] }
  }
  const statement = STATEMENT.exec(fullText)
  if (statement) return { kind: 'trip_summary', evidence: statement[0] }
  const itinerary = ITINERARY_ZH.exec(fullText)
  if (itinerary && !ONE_TRIP_ZH.test(fullText)) return { kind: 'trip_summary', evidence: itinerary[0] }
  const invoice = TAX_INVOICE_ZH.exec(fullText)
  if (invoice && INVOICE_DATE_ZH.test(fullText)) return { kind: 'tax_invoice', evidence: invoice[0] }
  const other = OTHER_SERVICE.exec(fullText)
  if (other) return { kind: 'other_service', evidence: other[0] }
  if (total === null) return null
  for (const line of lines) {
    const amount = lineAmount(line)
    if (!amount || cents(amount.value) !== cents(total)) continue
    const fee = FEE_ONLY.exec(line.text)
    if (fee) return { kind: 'fee_only', evidence: fee[0] }
    const membership = MEMBERSHIP_WORDS.exec(line.text)
    if (membership) return { kind: 'membership', evidence: membership[0] }
  }
  return null
}

/** Words of a credit, voucher or gift card spent on a purchase. */
const CREDIT_WORDS = /\b(?:gutschrift|gutschein\w*|(?:e-?)?coupons?|angerechnet\w*|guthaben|vouchers?|gift\s?cards?|credits?\s+applied|bons?\s+d['’]achat|avoirs?|vales?|buonos?)\b/iu

/**
 * A credit or voucher printed below the total with an amount less than it: the total is then not
 * what was paid (a real DB ticket: "Summe 67,50€", then a debit of 57,50€ and "Gutschrift …
 * eCoupons 10,00€"). Credits above a total were taken off before it (Lyft's "Credits -$10.00").
 */
function creditAfter(lines: Line[], total: TotalFound): string | null {
  return creditsBelow(lines, total)[0]?.word ?? null
}

/**
 * The credits printed below a total, less than it, with their amounts in cents (creditAfter,
 * paidAfterCredit). `own`: the amount is on a line that names the credit, or on a wrapped line next
 * to it that names no payment and no total ("Betrag für angerechnete 10,00€" over "eCoupons").
 */
function creditsBelow(lines: Line[], total: TotalFound): Array<{ word: string; cents: number; own: boolean }> {
  if (total.lineIndex === undefined) return []
  const found: Array<{ word: string; cents: number; own: boolean }> = []
  for (let i = total.lineIndex + 1; i < lines.length; i++) {
    const credit = CREDIT_WORDS.exec(lines[i].text)
    if (!credit) continue
    // Its amount on its line, or on the line above or below it (a wrapped label), never the total's own line.
    for (const line of lines.slice(Math.max(total.lineIndex + 1, i - 1), i + 2)) {
      const own = line.index === i || CREDIT_WORDS.test(line.text) || (!PAYMENT_LINE.test(line.text) && !totalLabel(line.text))
      for (const a of parseAmounts(line.text, line)) {
        if (Math.abs(a.value) > 0 && cents(Math.abs(a.value)) < cents(total.value)) found.push({ word: credit[0], cents: cents(Math.abs(a.value)), own })
      }
    }
  }
  return found
}

/**
 * Any amount other than the total on a line below it: a tip, a promotion, the card's charge. Not a
 * seat's number, nor an amount in the middle of a sentence of the ticket's conditions that names no
 * payment ("A partire da 6 giorni prima della partenza: trattenuta di 19 €. A partire da
 * 30 minuti…", a real SNCF ticket's fee for a change).
 */
function amountAfter(lines: Line[], total: TotalFound): boolean {
  if (total.lineIndex === undefined) return false
  return lines
    .slice(total.lineIndex + 1)
    .filter((l) => !seatLine(l))
    .some((l) => parseAmounts(l.text, l).some((a) => a.value !== 0 && cents(a.value) !== cents(total.value) && !inConditions(l, a)))
}

/**
 * A condition of the ticket, when it applies: eight words or more, words after the amount, a word of
 * a condition before it ("if", "from … before departure"), and no word of a payment, a total, a
 * refund, an adjusted fare or a tip: those still count, in a sentence or not.
 */
function inConditions(line: Line, amount: Amount): boolean {
  const words = line.text.match(/\p{L}{2,}/gu) ?? []
  const wordsAfter = line.text.slice(amount.end).match(/\p{L}{2,}/gu) ?? []
  return (
    words.length >= 8 &&
    wordsAfter.length >= 2 &&
    CONDITION.test(line.text.slice(0, amount.start)) &&
    !MONEY_BACK.test(line.text) &&
    !PAYMENT_LINE.test(line.text) &&
    !WEAK_LABELS.test(line.text) &&
    totalLabel(line.text) === null
  )
}

/** A refund, an adjusted fare, a tip or a charge: money that moved, whatever the sentence says. */
const MONEY_BACK = /\b(?:refund\w*|rimbors\w*|erstatt\w*|r[ée]?mbours\w*|reembols\w*|adjust\w*|tips?|trinkgeld|pourboire|propina|mancia|charg\w*|addebit\w*|cobrad\w*|d[ée]bit\w*|abgebucht|gutschrift)\b/iu

/** When a ticket's fee applies, said before the fee: if, in case, from (so long) before departure, in five languages. */
const CONDITION = /\b(?:if|in\s+case\s+of|before\s+(?:the\s+)?departure|in\s+caso\s+d|a\s+partire\s+da|prima\s+della\s+partenza|en\s+cas\s+d|[àa]\s+partir\s+d|avant\s+(?:le\s+)?d[ée]part|wenn|falls|vor\s+(?:der\s+)?abfahrt|en\s+caso\s+de|antes\s+de\s+la\s+salida)\b/iu

/**
 * The amount paid when a credit was taken off the printed total below it, and the page prints what
 * was paid: a real DB ticket's "Summe 67,50€", then "Betrag 57,50€" (the debit) and "Betrag für
 * angerechnete 10,00€ Coupons". The paid amount and the credit add up to the total: that is its
 * cross-check. The credit's amount is its own line's (never a payment's or a total's), and a total
 * its items contradict is left alone. Otherwise the total stands, and staff check the credit
 * (creditAfter).
 */
function paidAfterCredit(lines: Line[], total: TotalFound): TotalFound | null {
  // Items above that do not add up to the printed total leave it for staff, whatever was paid.
  if (total.lineIndex === undefined || total.check === 'mismatch') return null
  const above = lines.slice(0, total.lineIndex).map(itemAmount).filter((a): a is Amount => a !== null).map((a) => a.value)
  if (above.length > 0 && !addsUp(above, total.value, 1)) return null
  const after = lines.slice(total.lineIndex + 1)
  for (const credit of new Set(creditsBelow(lines, total).filter((c) => c.own).map((c) => c.cents))) {
    for (const line of after) {
      if (CREDIT_WORDS.test(line.text) || (!PAYMENT_LINE.test(line.text) && !totalLabel(line.text))) continue
      const paid = parseAmounts(line.text, line).find((a) => cents(a.value) + credit === cents(total.value))
      if (!paid) continue
      return {
        ...total,
        value: paid.value,
        confidence: fieldConfidence(line, paid.start, paid.end),
        digitConfidence: digitsConfidence(line, paid.start, paid.end),
        repaired: paid.repaired,
        signed: paid.currency,
        check: 'sum',
        items: [total.value, -credit / 100],
        creditTaken: true,
        lineIndex: line.index,
      }
    }
  }
  return null
}

/** The label of a total that is the page's one amount printed with a currency (onlyPricedAmount). */
export const PRICE_ONLY_LABEL = 'price'

/** A total found on the page, not only its one priced amount: what deciding how to read it on needs. */
export function hasTotal(fields: ExtractedReceipt): boolean {
  return fields.totalAmount !== null && fields.signals.totalLabel !== PRICE_ONLY_LABEL
}

/**
 * A ticket may print its price with no word for it ("￥73.00元" on a rail ticket): when nothing else
 * names a total, the one amount on the page printed with a currency sign or code is the price. It
 * has no label, so it never approves on its own ('No clear total line'), and a second reading is
 * still asked for a total (readings.ts).
 */
function onlyPricedAmount(lines: Line[]): TotalFound | null {
  const priced = lines.map((line) => ({ line, amount: lineAmount(line) })).filter((x): x is { line: Line; amount: Amount } => x.amount !== null && x.amount.currency && x.amount.value > 0)
  if (priced.length === 0 || new Set(priced.map((x) => cents(x.amount.value))).size !== 1) return null
  const { line, amount } = priced[0]
  const others = lines.filter((l) => !PROMOTIONAL.test(l.text)).flatMap((l) => parseAmounts(l.text, l)).filter((a) => cents(a.value) !== cents(amount.value))
  return {
    alone: others.length === 0,
    lineIndex: line.index,
    value: amount.value,
    currency: amount.code,
    label: PRICE_ONLY_LABEL,
    strength: 1,
    confidence: fieldConfidence(line, amount.start, amount.end),
    digitConfidence: digitsConfidence(line, amount.start, amount.end),
    repaired: amount.repaired,
    check: 'none',
    items: [],
  }
}

/** The amount on the last payment line ("Visa *1234 $49.19", "Venmo account $2.35"), judged against the items above it. */
function paymentTotal(lines: Line[]): TotalFound | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]
    if (!PAYMENT_LINE.test(line.text) || PROMOTIONAL.test(line.text)) continue
    const amount = positiveAmount(line)
    if (!amount) continue
    const found = judgeTotal(lines, line, amount, { label: 'payment', strength: 1.2 })
    const checked = found.check === 'sum' || found.check === 'near-sum'
    return checked ? { ...found, strength: 2 } : found
  }
  return null
}

function judgeTotal(lines: Line[], totalLine: Line, amount: Amount, label: TotalLabel): TotalFound {
  const items = lines
    .slice(0, totalLine.index)
    .filter((l) => !PAYMENT_LINE.test(l.text) || totalLabel(l.text) !== null)
    .map(itemAmount)
    .filter((a): a is Amount => a !== null)
  // The amounts below the total, each with its line (a copy of the total lends its digits' score: surestDigits).
  const underTotal = lines
    .slice(totalLine.index + 1)
    .map((line) => ({ line, amount: lineAmount(line) }))
    .filter((b): b is { line: Line; amount: Amount } => b.amount !== null)
  const after = underTotal.map((b) => b.amount)
  const itemValues = items.map((a) => itemValue(a, amount.value))
  const base = {
    lineIndex: totalLine.index,
    label: label.label,
    strength: label.strength,
    confidence: fieldConfidence(totalLine, amount.start, amount.end),
    digitConfidence: digitsConfidence(totalLine, amount.start, amount.end),
    items: itemValues,
    currency: amount.code ?? [...items, ...after].find((a) => a.code !== null)?.code ?? null,
    signed: amount.currency,
  }
  let weakMatch: number | null = null
  // A total the receipt says it rounded to the whole unit ("Total Bill (rounded off) 1129" over
  // "Ride Fare 1048.95" and "Taxes 79.72") is within half a unit of its items.
  const rounded = ROUNDED.test(totalLine.text) && cents(amount.value) % 100 === 0
  for (const tolerance of rounded ? [0, 1, 50] : [0, 1]) {
    for (const candidate of [amount.value, ...amount.alternatives]) {
      const used = itemsAddingUp(itemValues, candidate, tolerance)
      if (used === 0) continue
      const repaired = amount.repaired || candidate !== amount.value
      // One item equal to the total is the same figure printed twice: when either copy needed a
      // repair, the same blurred glyphs may simply have been misread the same way twice ('$23.51'
      // read as '$21.51' and '$2151'), so that is no cross-check.
      const weak = used === 1 && (repaired || items[items.length - 1].repaired || itemValues[itemValues.length - 1] !== items[items.length - 1].value)
      if (weak) {
        weakMatch ??= candidate
        continue
      }
      const check: TotalCheck = tolerance === 0 ? 'sum' : 'near-sum'
      return { ...base, value: candidate, repaired, check }
    }
  }
  // E-mail receipts often print the total first and the breakdown below it.
  const below = after.map((a) => itemValue(a, amount.value))
  if (addsUp([...below].reverse(), amount.value) && below.findIndex((v) => cents(v) === cents(amount.value)) !== 0) {
    return { ...base, items: below, value: amount.value, repaired: amount.repaired, check: 'sum' }
  }
  if (splitPayment(lines, totalLine.index, amount.value)) return { ...base, value: amount.value, repaired: amount.repaired, check: 'sum' }
  const copies = underTotal.filter((b) => cents(b.amount.value) === cents(amount.value))
  const repeated = copies.length > 0
  if (!repeated && weakMatch !== null) {
    // The reading the item supports is still the likelier one, but it stays unchecked.
    return { ...base, value: weakMatch, repaired: amount.repaired || weakMatch !== amount.value, check: 'none' }
  }
  const check: TotalCheck = repeated ? 'repeated' : itemValues.length > 0 ? 'mismatch' : 'none'
  return { ...base, digitConfidence: surestDigits(lines, base.digitConfidence, copies), value: amount.value, repaired: amount.repaired, check }
}

/**
 * The digits of a total printed again below it, both copies read alike, are as sure as its surer
 * copy: a real Ola invoice's big "416" under "TOTAL FARE" scored 54 by PaddleOCR, and its
 * "CASH PAID" line's "416" 100.
 */
function surestDigits(lines: Line[], own: number | null, copies: Array<{ line: Line; amount: Amount }>): number | null {
  let best = own
  for (const { line, amount } of copies) {
    // Only the amount paid or a total printed again: an item line of the same figure may be the
    // misread total's source, not its copy. Read as printed: a letter taken for a digit was never scored.
    const above = lines[line.index - 1]?.text ?? ''
    const paid = PAYMENT_LINE.test(line.text) || totalLabel(line.text) !== null || (!/\p{L}/u.test(line.text) && (PAYMENT_LINE.test(above) || totalLabel(above) !== null))
    if (!paid || amount.repaired) continue
    const score = digitsConfidence(line, amount.start, amount.end)
    if (score !== null && (best === null || score > best)) best = score
  }
  return best
}

const cents = (v: number) => Math.round(v * 100)

/**
 * A Chinese taxi meter's invoice (出租汽车专用发票, one form in every city): it prints when the ride
 * began and ended (上车, 下车), its rate per km (单价), its distance (里程), the time waited (等候)
 * and the amount (金额). Four of them, each heading its line, are the form.
 */
const METER_LABELS = ['上车', '下车', '单价', '里程', '等候', '金额']
const TAXI = VENDORS.find((v) => v.name === 'Taxi')!
/**
 * The labels a line begins with: on a tilted photo a reader may join two rows of the form's label
 * column ("日期: 上车: 2023年12月16日 14:54", PaddleOCR on a turned copy of a real Shenzhen invoice).
 */
const FORM_LABEL = `(?:${[...METER_LABELS, '日期', '车号', '证号'].join('|')})`
/** Each label of the run with its colon: a header of labels run together ('上车下车里程金额') is no form's column. */
const FORM_LABELS_FIRST = new RegExp(`^${FORM_LABEL}(?:\\s*[:：]\\s*${FORM_LABEL}(?=\\s*[:：]))*`, 'u')

function meterForm(lines: Line[]): boolean {
  const heads = new Set(lines.flatMap((l) => METER_LABELS.filter((label) => (FORM_LABELS_FIRST.exec(l.text)?.[0] ?? '').includes(label))))
  // 单价 and 金额 head lines of any Chinese invoice: the ride's own labels must be there. A car
  // rental's form (租赁, a lease; 租车, but not 出租车, a taxi) prints pick-up and return too.
  const ride = heads.has('上车') && heads.has('下车') && heads.has('里程')
  return heads.size >= 4 && ride && !lines.some((l) => /租赁|(?<!出)租车/.test(l.text))
}

/**
 * A Korean taxi's receipt, printed by its meter or its card reader: a taxi's plate ("서울 32 사
 * 1234": taxis carry 아, 바, 사 or 자; a rental car 하, 허 or 호), when the passenger boarded (승차,
 * 탑승; not 승차정원, a car's seats), and the distance driven. A parking slip prints the car's number
 * with its entry (입차), a freight note unloading (하차) without boarding, a rental its pick-up and
 * return (대여, 반납), a shop its items (상품명, 수량).
 */
const TAXI_PLATE_KO = /(?:(?:서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북|전남|경북|경남|제주)\s*|(?<![0-9]))\d{2,3}\s*[아바사자]\s*\d{4}(?!\d)/
const BOARDED_KO = /^\[?\s*(?:승\s*차|탑\s*승)(?!\s*(?:권|정\s*원|인\s*원|감|구))/
const DISTANCE_KO = /(?:거\s*리|주\s*행|운\s*행).*?\d(?:[.,]\d+)?\s*(?:km|㎞|m)\b|\d\.\d{1,2}\s*(?:km|㎞)(?![a-z])/i
const NOT_A_TAXI_KO = /상\s*품\s*명|품\s*목|수\s*량|대\s*여|반\s*납|입\s*차|출\s*차/

function taxiFormKo(lines: Line[]): boolean {
  const has = (re: RegExp) => lines.some((l) => re.test(l.text))
  return has(TAXI_PLATE_KO) && has(BOARDED_KO) && has(DISTANCE_KO) && !has(NOT_A_TAXI_KO)
}

/** The meter's rate ("单价: 2.70元") and distance ("里程: 10.61KM"), when both are read. */
function meterReadings(lines: Line[]): { rate: number; km: number } | null {
  const rate = lines.map((l) => /^单价\s*[:：]?\s*[￥¥]?\s*([0-9]{1,2}\.[0-9]{1,2})\s*元/.exec(l.text)).find(Boolean)
  // The distance as the meter prints it, with its decimals: a lost point ("985KM" for 9.85) would
  // scale the bounds with the amount's own lost point.
  const km = lines.map((l) => /^里程\s*[:：]?\s*([0-9]{1,3}\.[0-9]{1,2})\s*(?:km|公里)/i.exec(l.text)).find(Boolean)
  if (!rate || !km) return null
  const r = { rate: Number(rate[1]), km: Number(km[1]) }
  return r.rate > 0 && r.km > 0 ? r : null
}

/**
 * A taxi meter's amount that its own rate and distance account for: at least 0.6 of rate x
 * distance (a fare read a decimal point short, or the rate taken for it, falls under), at most 1.6
 * of it plus 25 (the flag fall, night and long-distance rates, waiting; a point lost, '￥3800元'
 * for 38.00 on a real Shenzhen invoice, is far over). Nothing on the form adds up to its amount:
 * this is its cross-check, as strong as a total printed twice. A longer wait than that allows
 * leaves the amount to staff.
 */
function meterFare(lines: Line[], total: TotalFound): boolean {
  if (total.label !== '金额' || !meterForm(lines)) return false
  // Read as printed, with its sign and its fen: no letter taken for a digit, no decimal point lost.
  if (total.repaired || !total.signed || total.lineIndex === undefined) return false
  const fen = String(cents(total.value) % 100).padStart(2, '0')
  if (!new RegExp(`(?<![0-9])${Math.floor(total.value)}\\.${fen}(?![0-9])`).test(lines[total.lineIndex].text)) return false
  const meter = meterReadings(lines)
  if (!meter) return false
  const expected = meter.rate * meter.km
  return total.value >= 0.6 * expected && total.value <= 1.6 * expected + 25
}

/**
 * A total paid in parts, the parts printed on a line of figures under the words for how each was
 * paid: a real Ola invoice's "Paid by Ola Money CASH PAID" over "250 34" under its "TOTAL FARE 284".
 */
function splitPayment(lines: Line[], totalIndex: number, total: number): boolean {
  for (let i = totalIndex + 1; i < lines.length; i++) {
    if (!PAYMENT_LINE.test(lines[i].text) && !PAYMENT_LINE.test(lines[i - 1]?.text ?? '')) continue
    // A line of figures only, each its own amount ("250 34" is not 250.34 here).
    if (/\p{L}/u.test(lines[i].text)) continue
    const parts = lines[i].text.split(/\s+/).flatMap((figure) => parseAmounts(figure, lines[i])).filter((a) => a.value > 0)
    if (parts.length >= 2 && parts.reduce((sum, a) => sum + cents(a.value), 0) === cents(total)) return true
  }
  return false
}

/** A total's label saying it was rounded: "rounded off", "(rounded)", "round-off", "gerundet", "arrondi", "redondeado", "arrotondato"; not a "Round Trip". */
const ROUNDED = /\b(?:rounded|rounding)\b|\bround[\s-]*off\b|\bgerundet\b|\barrondi\b|\bredondead[oa]\b|\barrotondat[oa]\b/i

/** An item can't cost more than the total: '$408' next to a $20.42 total was '$4.08'. */
function itemValue(item: Amount, total: number): number {
  if (item.value <= total) return item.value
  return item.alternatives.find((a) => a <= total) ?? item.value
}

/** True when the last k items (k >= 1) sum to the total: single items, items + fees, subtotal + tax. */
export function addsUp(items: number[], total: number, toleranceCents = 0): boolean {
  return itemsAddingUp(items, total, toleranceCents) > 0
}

/** How many of the last items sum to the total (the fewest that do), or 0. */
export function itemsAddingUp(items: number[], total: number, toleranceCents = 0): number {
  let sum = 0
  const target = cents(total)
  for (let i = items.length - 1; i >= 0; i--) {
    sum += cents(items[i])
    if (Math.abs(sum - target) <= toleranceCents) return items.length - i
  }
  return 0
}

/**
 * No readable total label: the last amount that two or more amounts just above it add up to is
 * the total (a blurred 'Total' is often read as 'Tora' or 'Beal').
 */
function structuralTotal(lines: Line[]): TotalFound | null {
  const amounts = lines
    .filter((l) => !PAYMENT_LINE.test(l.text))
    .map((l) => ({ line: l, amount: lineAmount(l) }))
    .filter((x): x is { line: Line; amount: Amount } => x.amount !== null)
  for (let i = amounts.length - 1; i >= 2; i--) {
    const total = amounts[i].amount.value
    if (total <= 0) continue
    const items = amounts.slice(0, i).map((x) => itemValue(x.amount, total))
    let sum = 0
    for (let k = items.length - 1; k >= 0; k--) {
      sum += cents(items[k])
      // Receipts round each line, so their items may be a cent off the total.
      if (Math.abs(sum - cents(total)) <= 1 && items.length - k >= 2) {
        const { line, amount } = amounts[i]
        return {
          value: amount.value,
          currency: amount.code,
          label: '',
          strength: 0,
          confidence: fieldConfidence(line, amount.start, amount.end),
          digitConfidence: digitsConfidence(line, amount.start, amount.end),
          repaired: amount.repaired,
          check: sum === cents(total) ? 'sum' : 'near-sum',
          lineIndex: line.index,
          items,
        }
      }
    }
  }
  return null
}

// ---------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------

export type DateFormat = 'iso' | 'us' | 'day-first' | 'written' | 'compact'

type DateFound = {
  iso: string
  /** A travel-date label chose it (a ticket's journey, not the day it was bought). */
  travel: boolean
  format: DateFormat
  confidence: number | null
  digitConfidence: number | null
  weekday: number | null
  others: string[]
}

/** English, Spanish, French, German and Portuguese weekday names and abbreviations, Sunday first. */
const WEEKDAY_NAMES: string[][] = [
  ['sun', 'sunday', 'dom', 'domingo', 'dim', 'dimanche', 'so', 'sonntag', 'domenica', 'zondag'],
  ['mon', 'monday', 'lun', 'lunes', 'lundi', 'mo', 'montag', 'segunda', 'lunedì', 'lunedi', 'maandag'],
  ['tue', 'tues', 'tuesday', 'mar', 'martes', 'mardi', 'di', 'dienstag', 'terça', 'terca', 'martedì', 'martedi', 'dinsdag'],
  ['wed', 'wednesday', 'mié', 'mie', 'miércoles', 'miercoles', 'mer', 'mercredi', 'mi', 'mittwoch', 'quarta', 'mercoledì', 'mercoledi', 'woensdag'],
  ['thu', 'thur', 'thurs', 'thursday', 'jue', 'jueves', 'jeu', 'jeudi', 'do', 'donnerstag', 'quinta', 'giovedì', 'giovedi', 'donderdag'],
  ['fri', 'friday', 'vie', 'viernes', 'ven', 'vendredi', 'fr', 'freitag', 'sexta', 'venerdì', 'venerdi', 'vrijdag'],
  ['sat', 'saturday', 'sáb', 'sab', 'sábado', 'sabado', 'sam', 'samedi', 'sa', 'samstag', 'sabato', 'zaterdag'],
]
/** Only names that cannot be a month or a common word on a receipt: 'mar', 'sam', 'do' and 'mi' are left out. */
const WEEKDAYS: Record<string, number> = Object.fromEntries(
  WEEKDAY_NAMES.flatMap((names, day) => names.filter((n) => n.length >= 3 && !['mar', 'sam', 'dom', 'sab'].includes(n)).map((n) => [n, day])),
)
const WEEKDAY_RE = new RegExp(`(?<![\\p{L}])(${Object.keys(WEEKDAYS).sort((a, b) => b.length - a.length).join('|')})\\.?(?![\\p{L}])`, 'iu')

/** The weekday named on a line, or null. */
export function printedWeekday(text: string): number | null {
  const m = text.match(WEEKDAY_RE)
  return m ? (WEEKDAYS[m[1].toLowerCase()] ?? null) : null
}

// Longest first so 'september' wins over 'sep'; a trailing dot ends an abbreviation.
const MONTH_RE = `(?<month>${Object.keys(MONTHS)
  .sort((x, y) => y.length - x.length)
  .join('|')})\\.?(?![\\p{L}])`
const D = '[0-9OoIl|]'
/**
 * A time glued to the date before it, where a reader dropped the space: '2020-02-2713:32' and
 * '16.02.201616:09Uhr' (PaddleOCR on a real Biedronka receipt and a real DB ticket). Only after a
 * whole day or year: the date's last digits are then its own, and the hour and minutes follow.
 */
const GLUED_TIME = '(?:[01][0-9]|2[0-3])[:：][0-5][0-9]'
/** After a year, whose four digits leave no doubt, the hour may have one digit ('25/12/20188:13:39 PM'). */
const GLUED_TIME_AFTER_YEAR = '(?:[01]?[0-9]|2[0-3])[:：][0-5][0-9]'

const DATE_PATTERNS: Array<{ format: DateFormat; re: RegExp }> = [
  { format: 'iso', re: new RegExp(`(?<![0-9])(?<year>(?:19|20)${D}{2})(?<sep>[-/.])(?<m>${D}{1,2})\\k<sep>(?<d>${D}{2}(?=${GLUED_TIME})|${D}{1,2}(?![0-9]))`, 'gi') },
  // 'Nov 20, 2026', 'Nov-20-2026'; '20 Nov 2026', '20-Nov-2026'.
  // ... and '12 de marzo de 2026', '12. März 2026'.
  // A reader may drop the spaces ('9JUL2025', 'Oct25,2026'): the month's letters still divide the numbers.
  { format: 'written', re: new RegExp(`(?<![\\p{L}])${MONTH_RE}(?:\\s*|-)(?<d>${D}{1,2})(?:st|nd|rd|th)?(?:,\\s*|\\.?\\s+|-)(?<year>(?:19|20)${D}{2})(?![0-9])`, 'giu') },
  { format: 'written', re: new RegExp(`(?<![0-9])(?<d>${D}{1,2})(?:st|nd|rd|th|er|\\.)?(?:\\s+de\\s+|\\s*|-)${MONTH_RE}(?:,?\\s+de\\s+|,?\\s*|-)(?<year>(?:19|20)${D}{2})(?![0-9])`, 'giu') },
  // One separator, twice: '2/4.00' is two items for 4.00 (a real Walgreens receipt), not 4 February 2000.
  { format: 'us', re: new RegExp(`(?<![0-9])(?<m>${D}{1,2})(?<sep>[/.-])(?<d>${D}{1,2})\\k<sep>(?<year>(?:19|20)${D}{2}(?=${GLUED_TIME_AFTER_YEAR})|(?:19|20)${D}{2}(?![0-9])|${D}{2}(?![0-9]))`, 'gi') },
  // Korean and Chinese: '2026년 3월 2일', '2026年3月2日'; the day's sign may be misread where year
  // and month are read ('2016年09月01B 08:33开', tesseract's reading of a China Railway ticket),
  // even as a digit, where the time follows it ('2019年04月218 18:41开', another) or the line ends
  // ('日期:2023年12月148', PaddleOCR on a real Shenzhen taxi invoice's dot-matrix print).
  { format: 'iso', re: /(?<![0-9])(?<year>20[0-9]{2})\s*[년年]\s*(?<m>[0-9]{1,2})\s*[월月]\s*(?<d>[0-9]{1,2})(?:\s*[일日]|[0-9](?=\s+[0-9]{1,2}[:：][0-9]{2}|\s*$)|(?![0-9]))/gu },
  // A dot-matrix date under its label, every sign read as a digit: '日期: 20234128308' is 2023年12月30日
  // (PaddleOCR on a real Shenzhen taxi invoice). Only there: elsewhere eleven digits are a number.
  // Each sign is there: a compact date run into its time ('2024110509:30') is no such date. A sign
  // read as 0, 1 or 2 could be a digit of the date itself, and is not taken for one.
  { format: 'iso', re: /(?<=日期\s*[:：]?\s*)(?<year>20[0-9]{2})[3-9年](?<m>0[1-9]|1[0-2])[3-9月](?<d>0[1-9]|[12][0-9]|3[01])[0-9日](?![0-9])/gu },
  { format: 'compact', re: /(?<![0-9])(?<year>20[0-9]{2})(?<m>[01][0-9])(?<d>[0-3][0-9])(?![0-9])/g },
]

const toInt = (s: string) => Number(fixDigits(s))

function validDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false
  if (y < 2000 || y > 2099 || m < 1 || m > 12 || d < 1) return false
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate()
}

const iso = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`

/** All dates on one line, with their format. */
export function parseDates(text: string, opts: { dayFirst?: boolean } = {}): Array<{ iso: string; format: DateFormat }> {
  return datesOnLine(text, opts).map(({ iso, format }) => ({ iso, format }))
}

/** The same patterns, each match with its groups' places: a date's digits are its year's, month's and day's, not a sign read as a digit beside them. */
const INDEXED_DATE_PATTERNS = DATE_PATTERNS.map(({ format, re }) => ({ format, re: new RegExp(re.source, `${re.flags}d`) }))

type DateOnLine = { iso: string; format: DateFormat; start: number; end: number; digitsStart: number; digitsEnd: number }

/** parseDates with where each date stands on the line (start..end), and its digits (digitsStart..digitsEnd). */
function datesOnLine(text: string, opts: { dayFirst?: boolean } = {}): DateOnLine[] {
  const found: DateOnLine[] = []
  const taken: Array<[number, number]> = []
  for (const { format, re } of INDEXED_DATE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0
      const end = start + m[0].length
      if (taken.some(([a, b]) => start < b && end > a)) continue
      const g = m.groups as Record<string, string | undefined>
      let year = toInt(g.year ?? '')
      // Date and time run together: '07.04.2014:38' is 7 April 2020 at 14:38, not 2014.
      const runOn = /^:[0-5][0-9]/.test(text.slice(end)) && (g.year ?? '').length === 4 && Number((g.year ?? '').slice(2)) < 24
      if (runOn) year = Number((g.year ?? '').slice(0, 2)) + 2000
      if (year < 100) year += 2000
      let month = g.month ? MONTHS[g.month.toLowerCase().replace(/\.$/, '')] : toInt(g.m ?? '')
      let day = toInt(g.d ?? '')
      let fmt = format
      // 20/11/2026 cannot be month-first; a dotted date (02.03.2020) is European, day first.
      const dotted = /^\d{1,2}\.\d{1,2}\./.test(m[0])
      if (format === 'us' && ((month > 12 && day <= 12) || ((opts.dayFirst || dotted) && day <= 12 && !g.month))) {
        ;[month, day] = [day, month]
        fmt = 'day-first'
      }
      if (!validDate(year, month, day)) continue
      taken.push([start, end])
      const spans = Object.values(m.indices?.groups ?? {}).filter((span): span is [number, number] => span !== undefined)
      const digitsStart = spans.length > 0 ? Math.min(...spans.map(([a]) => a)) : start
      const digitsEnd = spans.length > 0 ? Math.max(...spans.map(([, b]) => b)) : end
      found.push({ iso: iso(year, month, day), format: fmt, start, end, digitsStart, digitsEnd })
    }
  }
  return found.sort((a, b) => a.start - b.start)
}

/**
 * Labels that mark the date a receipt is for, versus dates that are not the purchase. A label may
 * touch its date, or its words each other, where a reader dropped the spaces ("DATE9JUL2025",
 * "VALIDUNTIL16JUL2025"): no letter may follow it, a digit may.
 */
const DATE_PREFERRED = /\b(?:date|return(?:ed)?|ended|end|paid|purchased?|charged|trip\s*on|drop-?off|completed|datum|fecha|data)(?![a-z])|일시|날짜|日期/iu
const DATE_AVOIDED =
  /\b(?:pick-?up\s*date|start(?:ed)?|valid(?:\s*(?:until|thru|through|to))?|expires?|expiry|exp|until|member\s*since|due|g[üu]ltig\s*bis|ablauf|valable\s*jusqu|scadenza|vence|caducidad)(?![a-z])/i
/**
 * A ticket's journey: the trip is what earns, so its date counts over the day it was booked
 * ("Reisedatum", "Date of Journey", "Hinfahrt am", "Départ le", "Abfahrt", "출발", "乘车日期"). A reader may
 * glue "am" to its word ("Hinfahrtam 22.12.2015", PaddleOCR on a real DB ticket).
 */
const TRAVEL_DATE =
  /\b(?:travel\s*date|date\s*of\s*(?:travel|journey)|journey\s*date|departure(?:\s*date)?|dep(?:arts?)?\.?\s*date|outward|reisedatum|reisetag|hinfahrt(?:am)?|r[üu]ckfahrt(?:am)?|fahrtantritt|abfahrt|g[üu]ltig\s*(?:ab|am)|gültigkeit|d[ée]part|aller\s*le|date\s*du\s*voyage|fecha\s*(?:de\s*)?(?:viaje|salida)|salida|partenza|data\s*(?:del\s*)?viaggio|andata)(?![a-z])|출발|승차일|乘车日期|开车|发车/iu
/**
 * A Spanish ticket's outward journey, "IDA" heading its row or its column ("IDA  FECHA  HORA"), or
 * "Ida:". Capitals or a colon only, at the start of a line: Ida is a name, and a street's.
 */
const OUTWARD_ES = /^\s*(?:IDA\b|[Ii]da\s*:)/u
/** The day a ticket was bought or issued: not its journey when a travel date is printed too. */
const BOOKING_DATE =
  /\b(?:booking\s*date|booked\s*on|date\s*of\s*(?:booking|issue|purchase)|issued?(?:\s*on)?|buchungsdatum|gebucht|ausgestellt|kaufdatum|date\s*(?:de\s*)?(?:r[ée]servation|d['’]achat|d['’][ée]mission)|fecha\s*(?:de\s*)?(?:compra|emisi[óo]n|reserva)|data\s*(?:di\s*)?(?:emissione|acquisto)|transaction\s*date)(?![a-z])/i

/**
 * The stamp a browser prints at the top of each printed page, its date and time before the page's
 * title, here a web mail's ("5/30/22, 7:06 PM  Gmail - Your ride with Ahmed on May 10", the corpus's
 * printed Lyft receipt): the day it was printed, not the day of the purchase. A receipt's own line
 * of a date, a time and words ("3/14/26, 5:32 PM  Ride with Ahmed") is no stamp.
 */
const PRINT_STAMP = /^\s*\d{1,2}\/\d{1,2}\/\d{2}(?:\d{2})?,\s*\d{1,2}:\d{2}\s*[AP]M\s+(?:Gmail|Outlook|Yahoo|Mail|Proton|iCloud)\b/iu

/**
 * A later day than the ticket's date, printed on a ticket or a ride's booking: the trip may be that
 * day (a real PKP Intercity ticket bought 21-06-2024 prints its trip "02.07 07.06 WROCLAW GL => BERLIN
 * HBF"). Any other full date the page prints, or a day and a month with no year ("02.07", "2.7.",
 * "02-07", "2 Jul"), in the 120 days after the date read, outside an amount. In the page's order
 * (day first in Europe and India, month first where dollars are). A time written with a dot may read
 * as such a day; then staff look, which is the safe side.
 */
function laterDayOnTicket(lines: Line[], date: DateFound, dayFirst: boolean, category: TransportCategory | null): string | null {
  // A ride booked ahead prints its day so too (BlaBlaCar); a ride's receipt prints other full dates
  // (a mail's, a print stamp's) that are no trip's, so only a ticket's count.
  if (category !== 'public_transit' && category !== 'ride_share') return null
  const bought = Date.parse(`${date.iso}T00:00:00Z`)
  const within = (when: number) => {
    const days = (when - bought) / 86_400_000
    return days >= 1 && days <= 120
  }
  const later = category === 'public_transit' ? date.others.find((iso) => within(Date.parse(`${iso}T00:00:00Z`))) : undefined
  if (later) return later
  const year = Number(date.iso.slice(0, 4))
  for (const line of lines) {
    // Inside an amount in a currency ("€ 12.05"); a bare "02.07" may be read as an amount too.
    const amounts = parseAmounts(line.text, line).filter((a) => a.currency)
    const inAmount = (at: number) => amounts.some((a) => at >= a.start && at < a.end)
    for (const m of line.text.matchAll(PARTIAL_DAY)) {
      if (inAmount(m.index ?? 0)) continue
      const g = m.groups ?? {}
      const named = g.month ? MONTHS[g.month.toLowerCase().replace(/\.$/, '')] : undefined
      // Two figures in the page's order; the German "2.7." and a month's name say which is which.
      const [day, month] = named
        ? [Number(g.a3), named]
        : g.a2
          ? [Number(g.a2), Number(g.b2)]
          : dayFirst
            ? [Number(g.a), Number(g.b)]
            : [Number(g.b), Number(g.a)]
      if (!day || !month || day > 31 || month > 12) continue
      if ([year, year + 1].some((y) => within(Date.UTC(y, month - 1, day)))) return m[0].trim()
    }
  }
  return null
}

/**
 * A day and a month without a year: two digits each ("02.07", "02/07", "02-07"), one digit each with
 * the German closing dot ("2.7."), or a day and a month's name ("2 Jul"). Not inside a longer run of
 * figures ("2.8" of a price, "02.07.2024", whose year makes it a full date).
 */
const PARTIAL_DAY = new RegExp(
  `(?<![0-9][.\\/:,-]?)(?<![0-9])(?:(?<a>[0-3][0-9])[./-](?<b>[01][0-9])(?![0-9]|[.\\/:,-]?[0-9])|(?<a2>[1-9])\\.(?<b2>[1-9])\\.(?![0-9])|(?<a3>[0-3]?[0-9])\\.?\\s*${MONTH_RE}(?!\\s*,?\\s*[0-9]))`,
  'giu',
)

/**
 * Read an ambiguous 05/11/2026 day first: euro or pound amounts, or a receipt that says EURO; or
 * amounts written with a decimal comma ("31,09"), which the month-first United States never prints.
 * Not the page's language: an American receipt names Los Angeles and El Paso. A real Spanish bus
 * ticket prints its euros as "31,09 E" and its issue date "05/03/2019" (5 March). The commas must
 * be most of the page's amounts with decimals, and at least two, so a price misread with a comma
 * does not turn the page around; and never on a page of dollars.
 */
function prefersDayFirst(text: string): boolean {
  if (/[€£]|\b(?:EUR|EURO|GBP)\b/i.test(text)) return true
  // A dollar page is most likely American, whose points a reader may take for commas ("$12,50").
  if (text.includes('$')) return false
  const commas = text.match(DECIMAL_COMMA)?.length ?? 0
  const points = text.match(DECIMAL_POINT)?.length ?? 0
  return commas >= 2 && commas > points
}

/** An amount with two decimals after a comma ("31,09", "1.234,50"), not a thousands group ("1,234"). */
const DECIMAL_COMMA = /(?<![\d.,])\d{1,3}(?:\.\d{3})*,\d{2}(?![\d,.])/g
const DECIMAL_POINT = /(?<![\d.,])\d{1,3}(?:,\d{3})*\.\d{2}(?![\d,.])/g

function findDate(lines: Line[], dayFirst: boolean): DateFound | null {
  const candidates = lines.flatMap((line) => {
    // A label on the line itself, or on the line just above ("Reisedatum" over "02.03.2020").
    const above = lines[line.index - 1]?.text ?? ''
    const labelled = (re: RegExp) => re.test(line.text) || (re.test(above) && parseDates(above).length === 0)
    const travel = (labelled(TRAVEL_DATE) || labelled(OUTWARD_ES)) && !BOOKING_DATE.test(line.text)
    return datesOnLine(line.text, { dayFirst }).map((d) => ({
      ...d,
      confidence: fieldConfidence(line, d.start, d.end),
      digitConfidence: digitsConfidence(line, d.digitsStart, d.digitsEnd),
      weekday: printedWeekday(line.text),
      travel,
      score:
        (travel ? 2 : 0) +
        (DATE_PREFERRED.test(line.text) ? 1 : 0) -
        (DATE_AVOIDED.test(line.text) ? 1 : 0) -
        (labelled(BOOKING_DATE) ? 1 : 0) -
        (PRINT_STAMP.test(line.text) && d.start < 10 ? 1 : 0) -
        (d.format === 'compact' ? 0.5 : 0),
      index: line.index,
    }))
  })
  if (candidates.length === 0) return null
  // Among dates equally labelled, the one printed most often, then the first: a printed e-mail's
  // print date heads the page once, its receipt's date is in the header and the body (a real Lyft
  // receipt printed from Gmail: "5/30/22, 7:06 PM" above "May 10, 2022" twice).
  const times = new Map<string, number>()
  for (const c of candidates) times.set(c.iso, (times.get(c.iso) ?? 0) + 1)
  const best = [...candidates].sort((a, b) => b.score - a.score || times.get(b.iso)! - times.get(a.iso)! || a.index - b.index)[0]
  const others = [...new Set(candidates.map((c) => c.iso).filter((d) => d !== best.iso))]
  return { iso: best.iso, travel: best.travel, format: best.format, confidence: best.confidence, digitConfidence: best.digitConfidence, weekday: best.weekday, others }
}

// ---------------------------------------------------------------------------
// Payment
// ---------------------------------------------------------------------------

const PAYMENT_METHODS: Array<{ method: string; re: RegExp; digital: boolean }> = [
  { method: 'Apple Pay', re: /\bapple\s?pay\b/i, digital: true },
  { method: 'Google Pay', re: /\b(?:google\s?pay|gpay)\b/i, digital: true },
  { method: 'Samsung Pay', re: /\bsamsung\s?pay\b/i, digital: true },
  { method: 'PayPal', re: /\bpay\s?pal\b/i, digital: true },
  { method: 'Venmo', re: /\bvenmo\b/i, digital: true },
  { method: 'Cash App', re: /\bcash\s?app\b/i, digital: true },
  { method: 'Visa', re: /\bvisa\b/i, digital: false },
  { method: 'Mastercard', re: /\bmaster\s?card\b/i, digital: false },
  { method: 'American Express', re: /\b(?:amex|american express)\b/i, digital: false },
  { method: 'Discover', re: /\bdiscover\b/i, digital: false },
  { method: 'Debit', re: /\bdebit\b/i, digital: false },
  { method: 'Cash', re: /\bcash\b/i, digital: false },
  { method: 'Transit card', re: /\b(?:metrocard|clipper|ventra|charliecard|smartrip|orca|presto|oyster|omny)\b/i, digital: false },
]

export function findPaymentMethod(text: string): PaymentMethod {
  // Wallets first: 'Apple Pay (Visa ending 1234)' is a digital payment.
  const hit = PAYMENT_METHODS.find((p) => p.re.test(text))
  return { method: hit?.method ?? null, cardLastFour: findLastFour(text), isDigital: hit?.digital ?? false }
}

function findLastFour(text: string): string | null {
  const m =
    text.match(/(?:ending(?:\s+in)?|last\s+(?:4|four)(?:\s+digits)?|x{2,}|\*{2,}|•{2,}|\.{3,}|#{2,})[\s:*•.x#-]*([0-9OQSlI]{4})(?![0-9])/i) ??
    text.match(/\b(?:visa|master\s?card|amex|discover|debit|credit)\b[^\n]{0,12}?([0-9]{4})(?![0-9])/i)
  if (!m) return null
  const digits = fixDigits(m[1])
  return /^\d{4}$/.test(digits) ? digits : null
}

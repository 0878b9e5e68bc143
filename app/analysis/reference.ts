/**
 * Pure: the trip / order / receipt number a receipt prints, normalised, or null. It identifies one
 * purchase across photos and wallets (issue 10), so only labels that name the purchase count —
 * never a store, terminal, card or phone number, which many different receipts share.
 */

const LABEL =
  /\b(?:trip|ride|order|receipt|invoice|booking|reservation|confirmation|ticket|transaction|journey|rental|agreement|ref(?:erence)?)\s*(?:id|no\.?|num(?:ber)?|#|code|ref(?:erence)?)?\s*(?:[:#.]\s*)*([A-Z0-9][A-Z0-9-]{3,39})\b/gi

/** A word that follows a label but is not a number ("Receipt from", "Trip fare", "Order total"). */
const HAS_DIGITS = /\d.*\d.*\d/

const NOT_A_PURCHASE = /\b(?:store|terminal|merchant|register|lane|cashier|phone|tel|card|account|member|loyalty|route|bus|train|vehicle|plate)\b/i

/**
 * Words that are themselves a purchase's number, in other languages and on other receipts (issue
 * 37): a DB ticket's "Auftragsnummer: 8OT117", a booking's or an invoice's number, Indian
 * Railways' "PNR", Ola's "CRN" (its ride's number, glued to it: "CRN2554661943"), a Chinese
 * invoice's "发票号码" (never its "发票代码", the code a whole book of invoices shares). The label
 * says it is a number, so one digit is enough ("NHVG8C").
 */
const NUMBER_LABEL =
  /(?:\b(?:auftragsnummer|auftrags-?nr|buchungsnummer|buchungs-?nr|rechnungsnummer|rechnungs-?nr|belegnummer|beleg-?nr|ticketnummer|pnr(?:\s*(?:no\.?|number))?)\b|(?<![A-Z])(?=CRN\d)|发票号码|订单号)\s*(?:[:：#.]\s*)*([A-Z0-9][A-Z0-9-]{3,39})\b/giu

export function findReferenceNumber(text: string): string | null {
  // A word that is the purchase's number first, wherever it is: it names no store, card or train.
  for (const match of text.matchAll(NUMBER_LABEL)) {
    const normalised = normaliseReference(match[1])
    if (/\d/.test(normalised) && normalised.length >= 6) return normalised
  }
  for (const line of text.split('\n')) {
    if (NOT_A_PURCHASE.test(line)) continue
    for (const match of line.matchAll(LABEL)) {
      const token = match[1]
      if (!HAS_DIGITS.test(token)) continue
      const normalised = normaliseReference(token)
      if (normalised.length >= 4) return normalised
    }
  }
  return null
}

/** OCR reads the same number with or without dashes and in either case: compare without them. */
export function normaliseReference(token: string): string {
  return token.toUpperCase().replace(/[^A-Z0-9]/g, '')
}

/**
 * The minute a trip happened, as the service prints it beside the trip's date ("Jul 12, 2026" over
 * "3:06 PM"): "2026-07-12 15:06". A service sends one trip's receipt again when a tip is added
 * later, with a new total and a number the first mail lacked; both print the same moment, so one
 * rider's trip pays once (issue 37). Never a key across riders: many trips start in one minute.
 */
export function findTripMoment(text: string, dates: (line: string) => string[]): string | null {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean)
  for (let i = 0; i < lines.length; i++) {
    const [day] = dates(lines[i])
    if (!day) continue
    const time = clockTime(lines[i]) ?? clockTime(lines[i + 1] ?? '')
    if (time) return `${day} ${time}`
  }
  return null
}

/** "3:06 PM" → "15:06", "14:38" → "14:38"; the first clock time on the line, or null. */
export function clockTime(line: string): string | null {
  const m = /(?<![\d:])(\d{1,2}):([0-5]\d)(?![\d:])\s*([ap])?\.?\s?m?\b/i.exec(line)
  if (!m) return null
  let hours = Number(m[1])
  if (hours > 23) return null
  const half = m[3]?.toLowerCase()
  if (half) {
    if (hours < 1 || hours > 12) return null
    hours = (hours % 12) + (half === 'p' ? 12 : 0)
  }
  return `${String(hours).padStart(2, '0')}:${m[2]}`
}

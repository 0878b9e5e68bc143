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

export function findReferenceNumber(text: string): string | null {
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

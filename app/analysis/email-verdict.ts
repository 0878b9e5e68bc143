/**
 * Pure: a verified e-receipt's fields → its verdict (issue 21). The text is the sender's own, so no
 * reading confidence is involved: what decides is whether the signed text holds an eligible
 * service, a total and a date, and whether that date fits the e-mail it came in.
 */
import { hasTotal, type ExtractedReceipt } from '~/analysis/extract'
import type { Verdict } from '~/analysis/verdict'
import { utcDay } from '~/utils/calendar'

export type EReceiptContext = {
  /** The Date header, when the signature covers it (ISO), else null. */
  signedSentAt: string | null
  /** The signature covers the To header that binds the mailbox. */
  recipientSigned: boolean
}

export const ERECEIPT_REASONS = {
  noTotal: 'We could not find the total in the e-receipt.',
  noDate: 'We could not find the trip date in the e-receipt.',
  notElectric: 'The e-receipt does not show that the vehicle was electric.',
  newerThanEmail: 'The trip date in the e-receipt is later than the e-mail was sent.',
  recipientUnsigned: "The e-mail's signature does not cover the address it was sent to.",
} as const

export function judgeEReceipt(fields: ExtractedReceipt, context: EReceiptContext): Verdict {
  const reasons: string[] = []
  if (fields.category === null) reasons.push(ERECEIPT_REASONS.notElectric)
  // A sender's receipt names its total: a lone priced amount in a mail (an offer, a membership) is none.
  if (!hasTotal(fields)) reasons.push(ERECEIPT_REASONS.noTotal)
  if (fields.purchaseDate === null) reasons.push(ERECEIPT_REASONS.noDate)
  else if (context.signedSentAt && fields.purchaseDate > latestLocalDay(context.signedSentAt)) {
    reasons.push(ERECEIPT_REASONS.newerThanEmail)
  }
  if (!context.recipientSigned) reasons.push(ERECEIPT_REASONS.recipientUnsigned)
  const ok = reasons.length === 0
  return { confidence: ok ? 1 : 0.5, isValid: true, isAcceptable: ok, needsManualReview: !ok, reasons }
}

/** The latest calendar day anywhere on Earth at that instant (UTC+14): receipts print local dates. */
function latestLocalDay(iso: string): string {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? '9999-12-31' : utcDay(new Date(t + 14 * 3600_000))
}

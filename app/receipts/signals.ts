/** Pure: the review signals of a receipt (fraud.server.ts records them) in words for the admin. */
import { describePassport, type PassportCheckView } from './passport-signals'

export type ReviewSignalsView = {
  walletAgeDays: number
  referredByUserId: number | null
  referredBySameCodeToday: number
  inviteeAutoApprovalsToday: number
  nearDuplicateOf: number | null
  sameReceiptFromOtherAccount: number | null
  /** VeBetter Passport at submission (issue 22), when it was asked. */
  passport?: PassportCheckView
}

export const NEW_WALLET_DAYS = 7

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export function describeSignals(signals: ReviewSignalsView | null, referenceNumber: string | null = null): string[] {
  const lines: string[] = []
  if (referenceNumber) lines.push(`Trip / order number on the receipt: ${referenceNumber}`)
  if (!signals) return lines
  if (signals.sameReceiptFromOtherAccount !== null) lines.push(`The same trip was already submitted from another account (receipt #${signals.sameReceiptFromOtherAccount})`)
  if (signals.nearDuplicateOf !== null) lines.push(`The photo is a close copy of receipt #${signals.nearDuplicateOf}`)
  lines.push(
    signals.walletAgeDays < NEW_WALLET_DAYS
      ? `New wallet: signed up ${signals.walletAgeDays === 0 ? 'today' : `${plural(signals.walletAgeDays, 'day')} ago`}`
      : `Wallet signed up ${plural(signals.walletAgeDays, 'day')} ago`,
  )
  const passport = describePassport(signals.passport)
  if (passport) lines.push(passport)
  if (signals.referredByUserId !== null) {
    lines.push(
      `Invited by user #${signals.referredByUserId}, who invited ${plural(signals.referredBySameCodeToday, 'account')} today; ${plural(signals.inviteeAutoApprovalsToday, 'receipt')} of their invitees approved automatically today`,
    )
  }
  return lines
}

export function parseSignals(json: string | null): ReviewSignalsView | null {
  if (!json) return null
  try {
    return JSON.parse(json) as ReviewSignalsView
  } catch {
    return null
  }
}

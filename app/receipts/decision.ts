import { isTransportCategory } from '~/analysis/categories'
import { checkPurchaseDate } from '~/receipts/age-window'

/** What the decision needs from the server's own analysis (a subset of StoredAnalysis). */
export type AnalysisFacts = {
  isValid: boolean
  storeName: string | null
  category: string | null
  totalAmount: number | null
  purchaseDate: string | null
  referenceNumber?: string | null
  isAcceptable: boolean
  needsManualReview: boolean
  reasons: string[]
  testMode?: boolean
  timeoutFallback?: boolean
  /** purchaseDate is a ticket's travel date. */
  travelDate?: boolean
}

export type UserValues = {
  category: string
  amountCents: number
  purchaseDate: string
  /** The transportation service chosen in the form, kept for the reviewer; it decides nothing. */
  serviceId?: number | null
}

export type SubmissionDecision =
  | { kind: 'reject'; reason: string }
  | { kind: 'review'; reasons: string[] }
  | { kind: 'approve' }

export const NOT_ELIGIBLE_REASON =
  'This receipt is not from an eligible sustainable transport service (rideshare, public transit, EV rental, e-scooter or bike).'

export function toCents(amount: number | null | undefined): number | null {
  return typeof amount === 'number' && Number.isFinite(amount) ? Math.round(amount * 100) : null
}

/**
 * Decision 005: the server's analysis decides; the user's edits can only send a receipt to
 * review, never raise what is paid. Duplicates (the same image, or the same trip again from the
 * same account) are refused before this (409); the same trip from another account, a near copy of
 * a photo and a wave of invited accounts are never paid automatically (issue 10).
 */
export function decideSubmission(input: {
  analysis: AnalysisFacts
  user: UserValues
  now: Date
  maxAgeDays: number
  nearDuplicate: boolean
  /** The same trip (vendor + total + date, or its printed number) was accepted for another account. */
  sameReceiptFromOtherAccount: boolean
  /** The user's referrer's invitees have used up today's automatic approvals. */
  inviteeCapReached: boolean
}): SubmissionDecision {
  const { analysis, user } = input
  if (analysis.testMode) return { kind: 'reject', reason: 'Demo receipts never earn tokens.' }
  if (!analysis.isAcceptable && !analysis.needsManualReview) {
    return { kind: 'reject', reason: analysis.reasons[0] ?? NOT_ELIGIBLE_REASON }
  }

  const date = analysis.purchaseDate ?? user.purchaseDate
  const window = checkPurchaseDate(date, input.now, input.maxAgeDays, { travel: analysis.travelDate === true && analysis.purchaseDate !== null })
  if (!window.ok) return { kind: 'reject', reason: window.reason }

  const reasons: string[] = []
  if (analysis.needsManualReview || !analysis.isAcceptable) {
    reasons.push(...(analysis.reasons.length ? analysis.reasons : ['The receipt needs a manual check.']))
  }
  const readCents = toCents(analysis.totalAmount)
  if (readCents === null) reasons.push('We could not read the total on the receipt.')
  else if (readCents !== user.amountCents) reasons.push('The amount you entered differs from the receipt.')
  if (analysis.purchaseDate === null) reasons.push('We could not read the date on the receipt.')
  else if (analysis.purchaseDate !== user.purchaseDate) reasons.push('The date you entered differs from the receipt.')
  if (!isTransportCategory(analysis.category)) reasons.push('We could not tell which kind of transport this is.')
  else if (analysis.category !== user.category) reasons.push('The category you chose differs from the receipt.')
  if (input.nearDuplicate) reasons.push('This photo looks like a receipt that was already submitted.')
  if (input.sameReceiptFromOtherAccount) reasons.push('This receipt was already submitted from another account.')
  if (input.inviteeCapReached) reasons.push('Many receipts came today from accounts invited by the same person.')

  return reasons.length ? { kind: 'review', reasons: [...new Set(reasons)] } : { kind: 'approve' }
}

/**
 * Why a receipt waits for staff, as its owner reads it (issue 40): worked out when shown, so the
 * form step and the receipt's page list the same reasons, and the wallet's standing is said as it
 * is now, never as it was when the receipt was sent. Pure.
 */
import { NEW_WALLET_REVIEW_REASON, standingReviewReason, type Standing } from './standing'

/** Said of a receipt sent while the wallet had no standing, once it has: it still waits, for that reason only. */
export const SENT_BEFORE_STANDING_REASON = 'Sent before one of your receipts was approved: our team checks it like your first.'

const FRAUD_REASON = standingReviewReason({ established: false, reason: 'fraud_rejection' })
const STANDING_REASONS = new Set([NEW_WALLET_REVIEW_REASON, FRAUD_REASON])

export interface WaitReasonsInput {
  /** What the reader and the checks found (stored with the receipt, or the analysis' before it is sent). */
  reasons: readonly string[]
  /** Whether the receipt waits (or will) because of the wallet's standing. */
  waitsForStanding: boolean
  /** The wallet's standing now. */
  standing: Standing
}

/** The receipt's own reasons, then one line on the wallet's standing as it is now. */
export function waitReasons({ reasons, waitsForStanding, standing }: WaitReasonsInput): string[] {
  const own = reasons.filter((r) => !STANDING_REASONS.has(r))
  const stood = waitsForStanding || reasons.some((r) => STANDING_REASONS.has(r))
  if (!stood) return [...new Set(own)]
  // Passport's blacklisting and signals carry their own reasons; a new wallet or a fraud rejection gets one line.
  const passport = standing.reason === 'passport_blacklisted' || standing.reason === 'passport_signalled'
  const line = standing.established ? SENT_BEFORE_STANDING_REASON : passport ? null : standingReviewReason(standing)
  return [...new Set(line ? [...own, line] : own)]
}

import type { PayoutStatus, TransactionStatus } from '#db/schema'
import { userFacingFailure } from '~/chain/payout'

export type ClaimState = {
  label: 'Confirmed' | 'Pending Claim' | 'Awaiting payout' | 'Failed'
  tone: 'approved' | 'pending' | 'rejected'
  /** Why it failed, in the user's words; null otherwise. */
  detail: string | null
}

/**
 * What a claim shows (decision 041): Confirmed only with a real transaction on chain, Pending Claim
 * while its transaction is on the way, Awaiting payout before one is sent, Failed with the reason.
 */
export function claimState(input: { status: TransactionStatus; payoutStatus: PayoutStatus | null; error: string | null }): ClaimState {
  if (input.status === 'confirmed') return { label: 'Confirmed', tone: 'approved', detail: null }
  if (input.status === 'failed') return { label: 'Failed', tone: 'rejected', detail: userFacingFailure(input.error ?? '') }
  if (input.payoutStatus === 'signed' || input.payoutStatus === 'sent') return { label: 'Pending Claim', tone: 'pending', detail: null }
  return { label: 'Awaiting payout', tone: 'pending', detail: null }
}

/** Every payout status, in the order the admin page lists them. */
export { PAYOUT_STATUSES } from '#db/schema'

export const PAYOUT_STATUS_LABELS: Record<PayoutStatus, string> = {
  pending: 'Waiting',
  signed: 'Signed',
  sent: 'Sent',
  confirmed: 'Confirmed',
  reverted: 'Reverted',
  expired: 'Expired',
  failed: 'Failed',
}

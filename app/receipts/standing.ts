/**
 * Standing (issue 31, docs/decisions/103-standing.md): whether a wallet's photo receipts are paid
 * at once or first checked by staff. Pure: the facts are read elsewhere (standing.server.ts).
 *
 * A photo can be drawn by a script; what cannot be drawn is evidence. A wallet is established when
 * VeBetter Passport says it is a person, when one of its verified e-receipts was approved, or when
 * staff approved one of its receipts, and in each case nothing speaks against it: no Passport
 * blacklisting or signal, and no receipt of it rejected as fraud. Any of those takes standing away.
 */
import type { PassportCheckView } from './passport-signals'

export type StandingFacts = {
  /** VeBetter Passport's answer for the wallet; null when it was not asked (PASSPORT_CHECKS=off). */
  passport: PassportCheckView | null
  /** One of the wallet's verified e-receipts was approved. */
  approvedEReceipt: boolean
  /** Staff approved one of the wallet's receipts. */
  staffApproved: boolean
  /** Staff rejected one of the wallet's receipts as fraud. */
  fraudRejection: boolean
}

export type StandingReason =
  | 'passport_person'
  | 'verified_ereceipt'
  | 'staff_approved'
  | 'new_wallet'
  | 'fraud_rejection'
  | 'passport_blacklisted'
  | 'passport_signalled'

export type Standing = { established: boolean; reason: StandingReason }

/** What speaks against a wallet comes first: it takes standing away whatever else holds. */
export function decideStanding(facts: StandingFacts): Standing {
  const passport = facts.passport?.ok ? facts.passport.status : null
  if (facts.fraudRejection) return { established: false, reason: 'fraud_rejection' }
  if (passport?.blacklisted) return { established: false, reason: 'passport_blacklisted' }
  if (passport && passport.signals > 0) return { established: false, reason: 'passport_signalled' }
  if (passport?.isPerson) return { established: true, reason: 'passport_person' }
  if (facts.approvedEReceipt) return { established: true, reason: 'verified_ereceipt' }
  if (facts.staffApproved) return { established: true, reason: 'staff_approved' }
  return { established: false, reason: 'new_wallet' }
}

/** For staff, on the review page: the standing and why, in one line. */
export const STANDING_LABELS: Record<StandingReason, string> = {
  passport_person: 'Established: VeBetter Passport counts this wallet as a person',
  verified_ereceipt: 'Established: a verified e-receipt of this wallet was approved',
  staff_approved: 'Established: staff approved one of its receipts',
  new_wallet: 'New wallet: no verified e-receipt, staff approval or Passport personhood yet',
  fraud_rejection: 'No standing: a receipt of this wallet was rejected as fraud',
  passport_blacklisted: 'No standing: VeBetter Passport lists this wallet as blacklisted',
  passport_signalled: 'No standing: VeBetter Passport has signals against this wallet',
}

/** The review reason a photo from a wallet without standing carries (the verdict alone would approve it). */
export const NEW_WALLET_REVIEW_REASON = 'New wallet: its photo receipts are checked by our team until one is approved.'

export function standingReviewReason(standing: Standing): string {
  if (standing.reason === 'fraud_rejection') return 'A receipt of this wallet was rejected as fraud: its receipts are checked by our team.'
  // Blacklisting and signals carry their own Passport reasons already; a new wallet gets this one.
  return NEW_WALLET_REVIEW_REASON
}

/**
 * What Scan tells a wallet without standing before its first photo (issue 31). It names no way of
 * sending the e-mail (issue 39): a server without forwarding offers none, and Scan shows the ways.
 */
export const NEW_WALLET_NOTICE = 'Your first photo receipt is checked by our team, usually within a day. A receipt e-mail from a supported service is paid at once.'

/** "VeBetter Passport" never appears without this line (issue 31). */
export const PASSPORT_EXPLAINED = "VeBetter Passport is VeChain's shared record of which wallets belong to real people."

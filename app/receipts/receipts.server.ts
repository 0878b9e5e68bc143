/**
 * The submission: the server's stored analysis and the user's values → approved (credited once),
 * waiting for staff review, or refused. One transaction takes the day's slot, inserts the receipt
 * and credits it, so double clicks, replays and concurrent submissions pay once.
 */
import type { Transaction } from 'kysely'
import { lockKey, type DB } from '#db/db.server'
import type { Database } from '#db/schema'
import { claimEReceipt } from '~/receipts/email-keys.server'
import { takeActionSlot, linkActionSlot } from '~/rewards/daily-limit.server'
import { lockLedger } from '~/rewards/ledger.server'
import { advanceStreak, creditReceipt } from '~/rewards/receipt-credit.server'
import { DAILY_LIMIT_TITLE } from '~/rewards/daily-limit'
import { secondsToUtcMidnight } from '~/utils/calendar'
import { type ReceiptReward } from '~/rewards/receipt-reward'
import { Refusal, refused, type Refused } from '~/utils/refusal'
import { getStoredAnalysis } from '~/analysis/analyses.server'
import { collectReviewSignals, findSameReceipts, sameImageSubmitted, sameTripMomentOfUser, type ReceiptContent } from './fraud.server'
import { passportReviewReasons, type PassportCheckView } from './passport-signals'
import { eReceiptFacts, type StoredAnalysis } from '~/analysis/stored-analysis'
import { decideSubmission, type SubmissionDecision, toCents, type UserValues } from './decision'
import { getStanding } from './standing.server'
import { standingReviewReason } from './standing'
import type { ReceiptOrigin } from './origin.server'
import { holdPhotoForEReceipt, sampleAudit } from './audits.server'
import { photoClaimableAt, type MaturingSettings } from '~/rewards/maturing'
import { maturingSettings } from '~/rewards/maturing.server'

export const DUPLICATE_MESSAGE = 'This receipt has already been submitted.'
/** The spec's words, which clients recognise (spec 2: the 'Daily Action Limit Reached' toast). */
export const DAILY_LIMIT_ERROR = 'Daily action limit reached'

export type SubmitResult =
  | {
      ok: true
      receiptId: number
      status: 'approved' | 'pending_review'
      reward: ReceiptReward | null
      firstReceiptBonusMilli: number
      reasons: string[]
      streak: { increased: boolean; current: number }
    }
  | Refused<400 | 404 | 409 | 429>

function isUniqueViolation(error: unknown) {
  const e = error as { code?: string; message?: string }
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505' || /UNIQUE constraint/i.test(e?.message ?? '')
}

/** The submission's refusals, each answered as `{ ok: false, status, error }` (utils/refusal.ts refused()). */
export const submissionRefusals = {
  demo: () => new Refusal('demo', 400, 'Demo receipts never earn tokens.'),
  notFound: () => new Refusal('not_found', 404, 'Receipt analysis not found. Please scan the receipt again.'),
  duplicate: () => new Refusal('duplicate', 409, DUPLICATE_MESSAGE, { title: 'Already submitted' }),
  /** Until the next UTC midnight: forwarded mail is deferred (SMTP 451), not bounced. */
  dailyLimit: (now = new Date()) => new Refusal('daily_limit', 429, DAILY_LIMIT_ERROR, { title: DAILY_LIMIT_TITLE, retryAfter: secondsToUtcMidnight(now) }),
  ineligible: (reason: string) => new Refusal('invalid', 400, reason, { title: 'Not eligible' }),
  mailbox: (message: string) => new Refusal('mailbox', 409, message, { title: 'Linked to another wallet' }),
}


/**
 * Submit a stored analysis. The server's analysis decides (decision 005); one database
 * transaction takes a daily slot (decision 003), inserts the receipt (unique image hash: 409 on a
 * duplicate) and credits the reward with unique ledger keys, so concurrent submissions pay once.
 */
export async function submitReceipt(
  db: DB,
  input: {
    userId: number
    analysisId: number
    values: UserValues
    maxAgeDays: number
    inviteeAutoApprovalsPerDay?: number
    now?: Date
    /** VeBetter Passport's view of the wallet (issue 22); null or absent: not asked. */
    passport?: ((wallet: string) => Promise<PassportCheckView>) | null
    /** Where the receipt came from, as keyed hashes (origin.server.ts), for staff grouping. */
    origin?: ReceiptOrigin
    /** The hold and audit rate of automatic photo approvals (issue 38); this server's settings when absent. */
    maturing?: MaturingSettings
  },
): Promise<SubmitResult> {
  const now = input.now ?? new Date()
  const stored = await getStoredAnalysis(db, input.userId, input.analysisId)
  if (stored?.analysis.testMode) return refused(submissionRefusals.demo())
  if (!stored || !stored.image) return refused(submissionRefusals.notFound())
  if (await sameImageSubmitted(db, stored.imageHash)) return refused(submissionRefusals.duplicate())

  const analysis = stored.analysis
  const content = receiptContent(analysis)
  const ereceipt = eReceiptFacts(analysis)
  const maturing = input.maturing ?? maturingSettings()
  const decide = (signals: { nearDuplicate: boolean; sameReceiptFromOtherAccount: boolean; inviteeCapReached: boolean }) =>
    decideSubmission({ analysis, user: input.values, now, maxAgeDays: input.maxAgeDays, ...signals })
  // Refusals that need no slot come first (nothing is written for them).
  const early = decide({ nearDuplicate: false, sameReceiptFromOtherAccount: false, inviteeCapReached: false })
  if (early.kind === 'reject') return refused(submissionRefusals.ineligible(early.reason))
  if ((await findSameReceipts(db, content)).some((r) => r.userId === input.userId)) return refused(submissionRefusals.duplicate())
  if (await sameTripMomentOfUser(db, input.userId, analysis.tripMoment)) return refused(submissionRefusals.duplicate())
  // Asked before the transaction (a node call never holds the database's write lock).
  const passport = input.passport ? await input.passport(await walletOf(db, input.userId)) : null
  const passportReasons = passportReviewReasons(passport)

  try {
    return await db.transaction().execute(async (trx) => {
      // Taking the slot writes first, which serialises concurrent submissions on SQLite's write
      // lock; the identity checks below then see every receipt accepted before this one.
      const slot = await takeActionSlot(trx, { userId: input.userId, kind: 'receipt', now })
      if (!slot) throw submissionRefusals.dailyLimit(now)
      // PostgreSQL: submissions of the same trip (or by one referrer's invitees) from several
      // accounts at once wait for each other, so each sees the receipts accepted before it.
      await lockReceiptIdentity(trx, input.userId, content, analysis.tripMoment)
      // An audit rejected as fraud meanwhile (issue 38) locks the wallet's ledger as this does: the
      // standing read below then sees it, or the reversal sees this receipt's maturing credit. Taken
      // after the trip's keys, as an e-receipt holding another wallet's photo takes them (no cycle).
      await lockLedger(trx as DB, input.userId, now)
      const same = await findSameReceipts(trx, content)
      if (same.some((r) => r.userId === input.userId)) throw submissionRefusals.duplicate()
      if (await sameTripMomentOfUser(trx, input.userId, analysis.tripMoment)) throw submissionRefusals.duplicate()
      const signals = await collectReviewSignals(trx, {
        userId: input.userId,
        now,
        fingerprint: stored.phash,
        amountCents: content.amountCents ?? input.values.amountCents,
        sameReceipts: same,
      })
      const cap = input.inviteeAutoApprovalsPerDay ?? DEFAULT_INVITEE_AUTO_APPROVALS_PER_DAY
      // A verified e-receipt of a trip other wallets sent only as photos is the rider's proof: it is
      // paid here, and those photos are held for staff (issue 38).
      const elsewhere = same.filter((r) => r.userId !== input.userId)
      const photosOnlyElsewhere = ereceipt !== null && elsewhere.length > 0 && elsewhere.every((r) => !r.verified)
      const decided = decide({
        nearDuplicate: signals.nearDuplicateOf !== null,
        sameReceiptFromOtherAccount: signals.sameReceiptFromOtherAccount !== null && !photosOnlyElsewhere,
        inviteeCapReached: signals.referredByUserId !== null && signals.inviteeAutoApprovalsToday >= cap,
      })
      // A photo the verdict would approve is paid at once only to a wallet with standing (issue 31);
      // a verified e-receipt is evidence itself and is paid at once as before.
      const standing = decided.kind === 'approve' && !ereceipt ? await getStanding(trx, input.userId, passport) : null
      const decision = withReviewReasons(decided, [...passportReasons, ...(standing && !standing.established ? [standingReviewReason(standing)] : [])])
      if (decision.kind === 'reject') throw submissionRefusals.ineligible(decision.reason)
      const approved = decision.kind === 'approve'
      // A photo approved automatically matures and may be sampled for a staff audit (decision 109).
      const photoApproved = approved && !ereceipt
      const auditReason = photoApproved ? await sampleAudit(trx, input.userId, maturing.auditRate) : null
      const receipt = await trx
        .insertInto('receipts')
        .values({
          user_id: input.userId,
          image_hash: stored.imageHash,
          image_phash: stored.phash,
          image: stored.image,
          image_mime: stored.imageMime,
          store_name: analysis.storeName,
          category: analysis.category,
          amount_cents: toCents(analysis.totalAmount),
          purchase_date: analysis.purchaseDate,
          reference_number: content.referenceNumber,
          trip_moment: analysis.tripMoment ?? null,
          review_signals_json: JSON.stringify({ ...signals, ...(passport ? { passport } : {}), ...(standing ? { standing } : {}) }),
          install_hash: input.origin?.installHash ?? null,
          address_hash: input.origin?.addressHash ?? null,
          user_store_id: input.values.serviceId ?? null,
          user_category: input.values.category,
          user_amount_cents: input.values.amountCents,
          user_purchase_date: input.values.purchaseDate,
          analysis_json: JSON.stringify(analysis),
          verified_sender: typeof analysis.verifiedSender === 'string' ? analysis.verifiedSender : null,
          status: approved ? 'approved' : 'pending_review',
          review_reasons_json: approved ? null : JSON.stringify(decision.kind === 'review' ? decision.reasons : []),
          reject_reason: null,
          reward_milli: null,
          reward_details_json: null,
          reviewed_by_user_id: null,
          reviewed_at: null,
          audit_status: auditReason ? 'pending' : null,
          audit_reason: auditReason,
          created_at: now.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      // A verified e-receipt pays once across all wallets, and only the wallet its mailbox is bound to.
      if (ereceipt) {
        const claim = await claimEReceipt(trx, { userId: input.userId, receiptId: receipt.id, facts: ereceipt, approved, now })
        if (!claim.ok) throw submissionRefusals.mailbox(claim.error)
      }
      await linkActionSlot(trx, input.userId, slot, receipt.id)
      await trx.deleteFrom('receipt_analyses').where('id', '=', stored.id).execute()

      if (!approved) {
        const user = await trx.selectFrom('users').select('current_streak').where('id', '=', input.userId).executeTakeFirstOrThrow()
        return {
          ok: true as const,
          receiptId: receipt.id,
          status: 'pending_review' as const,
          reward: null,
          firstReceiptBonusMilli: 0,
          reasons: decision.kind === 'review' ? decision.reasons : [],
          streak: { increased: false, current: user.current_streak },
        }
      }
      const streak = await advanceStreak(trx, input.userId, now)
      const credit = await creditReceipt(trx, {
        userId: input.userId,
        receiptId: receipt.id,
        category: analysis.category,
        storeName: analysis.storeName,
        streak: streak.current,
        now,
        claimableAt: photoApproved ? photoClaimableAt(now, maturing.holdHours) : null,
      })
      if (photosOnlyElsewhere) for (const photo of elsewhere) await holdPhotoForEReceipt(trx, { photo, eReceiptId: receipt.id, now })
      return { ok: true as const, receiptId: receipt.id, status: 'approved' as const, reasons: [], streak, ...credit }
    })
  } catch (error) {
    if (error instanceof Refusal) return refused(error)
    if (isUniqueViolation(error)) return refused(submissionRefusals.duplicate())
    throw error
  }
}

/**
 * The keys a submission decides on across accounts: the trip's content, its printed number and the
 * referrer whose invitees' automatic approvals are capped. Taken in sorted order (no deadlock).
 */
async function lockReceiptIdentity(trx: Transaction<Database>, userId: number, content: ReceiptContent, tripMoment: string | null | undefined) {
  const keys: string[] = []
  if (tripMoment) keys.push(`receipt-moment:${userId}:${tripMoment}`)
  if (content.storeName && content.amountCents !== null && content.purchaseDate) {
    keys.push(`receipt-trip:${content.storeName}:${content.amountCents}:${content.purchaseDate}`)
  }
  if (content.storeName && content.referenceNumber) keys.push(`receipt-ref:${content.storeName}:${content.referenceNumber}`)
  const user = await trx.selectFrom('users').select('referred_by_user_id').where('id', '=', userId).executeTakeFirst()
  if (user?.referred_by_user_id) keys.push(`invitees:${user.referred_by_user_id}`)
  for (const key of keys.sort()) await lockKey(trx, key)
}

/** How many receipts of one referrer's invitees may be approved automatically per UTC day. */
export const DEFAULT_INVITEE_AUTO_APPROVALS_PER_DAY = 5


async function walletOf(db: DB, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select('wallet_address').where('id', '=', userId).executeTakeFirstOrThrow()
  return row.wallet_address
}

/** Reasons from outside the receipt (VeBetter Passport) turn an approval into a review; never a refusal into one. */
function withReviewReasons(decision: SubmissionDecision, reasons: string[]): SubmissionDecision {
  if (reasons.length === 0 || decision.kind === 'reject') return decision
  return { kind: 'review', reasons: [...new Set([...(decision.kind === 'review' ? decision.reasons : []), ...reasons])] }
}

/** What identifies the trip: only what the server read, never what the user typed. */
export function receiptContent(analysis: StoredAnalysis): ReceiptContent {
  return {
    storeName: analysis.storeName,
    amountCents: toCents(analysis.totalAmount),
    purchaseDate: analysis.purchaseDate,
    referenceNumber: typeof analysis.referenceNumber === 'string' && analysis.referenceNumber ? analysis.referenceNumber : null,
  }
}


import { preparedQuery, sqlTrue, type DB } from '#db/db.server'
import { userFacingFailure } from '~/chain/payout'
import { formatB3tr } from '~/rewards/money'

/** A review or payout outcome the user has not seen yet (the Notifications setting, issue 24). */
export type Notice = {
  key: string
  tone: 'success' | 'error'
  title: string
  text: string
  href: string
  at: string
}

/** At most this many notices show at once, newest first. */
export const MAX_NOTICES = 5

const anyNoticeSince = preparedQuery((db: DB, userId: number, since: string) =>
  db.selectNoFrom((eb) => [
    eb
      .exists(
        eb.selectFrom('receipts').select('id').where('user_id', '=', userId).where('status', 'in', ['approved', 'rejected']).where('reviewed_at', '>', since),
      )
      .as('receipts'),
    eb
      .exists(
        eb
          .selectFrom('store_submissions')
          .select('id')
          .where('user_id', '=', userId)
          .where('status', 'in', ['approved', 'rejected'])
          .where('reviewed_at', '>', since),
      )
      .as('submissions'),
    eb
      .exists(
        eb
          .selectFrom('payouts')
          .select('id')
          .where('user_id', '=', userId)
          .where('status', 'in', ['confirmed', 'failed', 'reverted'])
          .where('updated_at', '>', since),
      )
      .as('payouts'),
    eb.exists(eb.selectFrom('forwarded_outcomes').select('id').where('user_id', '=', userId).where('created_at', '>', since)).as('forwards'),
  ]),
)

// Prepared once each: Home, the most visited page, asks them when anything is new. Ties in time (a
// group decided at once) fall to the newest row, so the same five show on every database.
const reviewedReceipts = preparedQuery((db: DB, userId: number, since: string) =>
  db
    .selectFrom('receipts')
    .select(['id', 'status', 'reward_milli', 'reject_reason', 'reviewed_at', 'store_name'])
    .where('user_id', '=', userId)
    .where('status', 'in', ['approved', 'rejected'])
    .where('reviewed_at', '>', since)
    .orderBy('reviewed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_NOTICES),
)

const reviewedSubmissions = preparedQuery((db: DB, userId: number, since: string) =>
  db
    .selectFrom('store_submissions')
    .select(['id', 'status', 'name', 'reject_reason', 'reviewed_at'])
    .where('user_id', '=', userId)
    .where('status', 'in', ['approved', 'rejected'])
    .where('reviewed_at', '>', since)
    .orderBy('reviewed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_NOTICES),
)

const settledPayouts = preparedQuery((db: DB, userId: number, since: string) =>
  db
    .selectFrom('payouts')
    .select(['transaction_id', 'status', 'amount_milli', 'error', 'updated_at'])
    .where('user_id', '=', userId)
    .where('status', 'in', ['confirmed', 'failed', 'reverted'])
    .where('updated_at', '>', since)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_NOTICES),
)

// Forwarded e-receipts (issue 32): credited, sent to review or refused while the user was away.
const forwardedOutcomes = preparedQuery((db: DB, userId: number, since: string) =>
  db
    .selectFrom('forwarded_outcomes')
    .leftJoin('receipts', 'receipts.id', 'forwarded_outcomes.receipt_id')
    .select(['forwarded_outcomes.id', 'forwarded_outcomes.outcome', 'forwarded_outcomes.message', 'forwarded_outcomes.created_at', 'forwarded_outcomes.receipt_id', 'receipts.store_name', 'receipts.reward_milli'])
    .where('forwarded_outcomes.user_id', '=', userId)
    .where('forwarded_outcomes.created_at', '>', since)
    .orderBy('forwarded_outcomes.created_at', 'desc')
    .orderBy('forwarded_outcomes.id', 'desc')
    .limit(MAX_NOTICES),
)

/**
 * Outcomes decided after `since` that the user did not watch happen: receipts and store
 * submissions staff approved or rejected, claims confirmed on chain or failed. Automatic approvals
 * are not among them: the user saw those on the spot.
 */
export async function listNotices(db: DB, userId: number, since: string): Promise<Notice[]> {
  // Most visits have nothing new: one look across the four sources first (each on its user index).
  const [any] = await anyNoticeSince(db, userId, since)
  if (!any || !(sqlTrue(any.receipts) || sqlTrue(any.submissions) || sqlTrue(any.payouts) || sqlTrue(any.forwards))) return []
  const [receipts, submissions, payouts, forwards] = await Promise.all([
    reviewedReceipts(db, userId, since),
    reviewedSubmissions(db, userId, since),
    settledPayouts(db, userId, since),
    forwardedOutcomes(db, userId, since),
  ])

  const notices: Notice[] = [
    ...receipts.map((r): Notice =>
      r.status === 'approved'
        ? {
            key: `receipt-${r.id}`,
            tone: 'success',
            title: 'Receipt approved',
            text: `${r.store_name ?? `Receipt #${r.id}`}: +${formatB3tr(Number(r.reward_milli ?? 0))} B3TR`,
            href: `/scan/receipts/${r.id}`,
            at: r.reviewed_at!,
          }
        : {
            key: `receipt-${r.id}`,
            tone: 'error',
            title: 'Receipt rejected',
            text: `${r.store_name ?? `Receipt #${r.id}`}: ${r.reject_reason ?? 'not eligible'}`,
            href: `/scan/receipts/${r.id}`,
            at: r.reviewed_at!,
          },
    ),
    ...submissions.map((s): Notice => ({
      key: `store-${s.id}`,
      tone: s.status === 'approved' ? 'success' : 'error',
      title: s.status === 'approved' ? 'Store approved' : 'Store not added',
      text: s.status === 'approved' ? `${s.name ?? 'Your store'} is on the map.` : `${s.name ?? 'Your store'}: ${s.reject_reason ?? 'not added'}`,
      href: '/add-store',
      at: s.reviewed_at!,
    })),
    ...payouts.map((p): Notice =>
      p.status === 'confirmed'
        ? {
            key: `claim-${p.transaction_id}`,
            tone: 'success',
            title: 'Claim confirmed',
            text: `${formatB3tr(Number(p.amount_milli))} B3TR paid to your wallet on VeChain.`,
            href: `/transactions/${p.transaction_id}`,
            at: p.updated_at,
          }
        : {
            key: `claim-${p.transaction_id}`,
            tone: 'error',
            title: 'Claim failed',
            text: userFacingFailure(p.error ?? ''),
            href: `/transactions/${p.transaction_id}`,
            at: p.updated_at,
          },
    ),
    ...forwards.map((f): Notice => {
      const service = f.store_name ?? 'Your'
      if (f.outcome === 'refused' || f.receipt_id === null) {
        return { key: `forward-${f.id}`, tone: 'error', title: 'E-mailed receipt not accepted', text: f.message ?? 'It could not be read as a receipt.', href: '/e-receipts', at: f.created_at }
      }
      return f.outcome === 'approved'
        ? {
            key: `forward-${f.id}`,
            tone: 'success',
            title: `${service} receipt received by e-mail, +${formatB3tr(Number(f.reward_milli ?? 0))} B3TR`,
            // An inline forward carries its note (issue 39): credited like a photo, not verified.
            text: f.message ?? 'Verified by its sender\'s signature and credited.',
            href: `/scan/receipts/${f.receipt_id}`,
            at: f.created_at,
          }
        : {
            key: `forward-${f.id}`,
            tone: 'success',
            title: `${service} receipt received by e-mail`,
            text: f.message ? `It is in review; the reward follows the approval. ${f.message}` : 'It is in review; the reward follows the approval.',
            href: `/scan/receipts/${f.receipt_id}`,
            at: f.created_at,
          }
    }),
  ]
  return notices.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, MAX_NOTICES)
}

/** Dismissing the notices: everything decided until now has been seen. */
export async function markNoticesSeen(db: DB, userId: number, now = new Date()) {
  await db.updateTable('users').set({ notices_seen_at: now.toISOString() }).where('id', '=', userId).execute()
}

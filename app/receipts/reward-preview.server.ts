import type { DB } from '#db/db.server'
import { approvalPromise, categoryPaidAs, firstReceiptBonusFor, inReviewTotalMilli } from '~/rewards/approval-promise'
import type { RewardPreview } from '~/rewards/receipt-reward'
import { firstBonusFacts } from '~/rewards/receipt-credit.server'
import { utcDay } from '~/utils/calendar'

/** The user's streak as stored and the days of their accepted receipts: what a promise is counted from. */
async function streakFacts(db: DB, userId: number) {
  const [user, accepted] = await Promise.all([
    db.selectFrom('users').select(['current_streak', 'best_streak', 'last_streak_day']).where('id', '=', userId).executeTakeFirstOrThrow(),
    db.selectFrom('receipts').select('created_at').where('user_id', '=', userId).where('status', '=', 'approved').execute(),
  ])
  return {
    streak: { lastActiveDay: user.last_streak_day, currentStreak: user.current_streak, bestStreak: user.best_streak },
    acceptedDays: accepted.map((r) => utcDay(new Date(r.created_at))),
  }
}

/**
 * What a receipt sent now earns when it is accepted, at once or by staff (the same sum, issue 40):
 * the reward at today's streak, plus the first-receipt bonus when no earlier receipt is owed it.
 */
export async function getRewardPreview(db: DB, user: { id: number }, category: string | null, now = new Date()): Promise<RewardPreview> {
  const [facts, bonus] = await Promise.all([streakFacts(db, user.id), firstBonusFacts(db, user.id)])
  const NEW = Number.MAX_SAFE_INTEGER
  const receipts = [...bonus.receipts, { id: NEW, createdAt: now.toISOString(), status: 'pending_review' as const }]
  return approvalPromise({
    category: categoryPaidAs(category),
    day: utcDay(now),
    ...facts,
    bonusMilli: firstReceiptBonusFor(NEW, { bonusPaid: bonus.bonusPaid, receipts }),
  })
}

/** What approving a receipt that waits for staff pays, as things stand now: approveReceipt's own sum. */
export async function getApprovalPromise(
  db: DB,
  userId: number,
  receipt: { id: number; createdAt: string; category: string | null },
): Promise<RewardPreview> {
  const [facts, bonus] = await Promise.all([streakFacts(db, userId), firstBonusFacts(db, userId)])
  return approvalPromise({
    category: receipt.category,
    day: utcDay(new Date(receipt.createdAt)),
    ...facts,
    bonusMilli: firstReceiptBonusFor(receipt.id, bonus),
  })
}

/** What the user's receipts waiting for staff credit if approved (issue 40), and how many wait. */
export async function getInReview(db: DB, userId: number): Promise<{ milli: number; count: number }> {
  const [facts, bonus, waiting] = await Promise.all([
    streakFacts(db, userId),
    firstBonusFacts(db, userId),
    db
      .selectFrom('receipts')
      .select(['id', 'created_at', 'user_category', 'category'])
      .where('user_id', '=', userId)
      .where('status', '=', 'pending_review')
      .execute(),
  ])
  if (waiting.length === 0) return { milli: 0, count: 0 }
  const receipts = waiting.map((r) => ({ id: r.id, createdAt: new Date(r.created_at).toISOString(), category: r.user_category ?? r.category }))
  return { milli: inReviewTotalMilli(receipts, { ...facts, ...bonus }), count: waiting.length }
}

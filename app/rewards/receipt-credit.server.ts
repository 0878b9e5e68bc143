/**
 * Crediting an accepted receipt: the streak (a compare-and-set, so concurrent receipts cannot skip
 * a day) and the reward, the first-receipt bonus and the referrer's reward, each once by its own
 * ledger key.
 */
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database } from '#db/schema'
import { achievementRewardDescription, achievementRewardKey } from '~/engagement/achievements'
import { rewardReferrerForFirstAcceptedReceipt } from '~/referrals/referrals.server'
import { creditReward } from './ledger.server'
import { computeReceiptReward, FIRST_RECEIPT_BONUS_MILLI, receiptRewardDescription } from '~/rewards/receipt-reward'
import { nextStreak } from '~/rewards/streaks'
import { utcDay } from '~/utils/calendar'

/** Streak (decision 007 §15) with a compare-and-set update, so concurrent receipts cannot skip a day. */
export async function advanceStreak(trx: Transaction<Database>, userId: number, now: Date) {
  const today = utcDay(now)
  for (;;) {
    const user = await trx
      .selectFrom('users')
      .select(['current_streak', 'best_streak', 'last_streak_day'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const next = nextStreak({ lastActiveDay: user.last_streak_day, currentStreak: user.current_streak, today })
    const update = await trx
      .updateTable('users')
      .set({
        current_streak: next.streak,
        best_streak: Math.max(user.best_streak, next.streak),
        last_streak_day: today,
        updated_at: now.toISOString(),
      })
      .where('id', '=', userId)
      .where('current_streak', '=', user.current_streak)
      .where((eb) =>
        user.last_streak_day === null ? eb('last_streak_day', 'is', null) : eb('last_streak_day', '=', user.last_streak_day),
      )
      .executeTakeFirst()
    if (Number(update.numUpdatedRows) === 1) return { increased: next.increased, current: next.streak }
  }
}

/**
 * Credit an accepted receipt once: reward, first-receipt bonus, the 30 % fund share. A photo
 * approved automatically matures (issue 38): `claimableAt` is when its credits, the first-receipt
 * bonus and the referrer's reward with them, can be claimed, and each names the receipt it waits on.
 */
export async function creditReceipt(
  trx: Kysely<Database>,
  input: { userId: number; receiptId: number; category: string | null; storeName?: string | null; streak: number; now: Date; claimableAt?: Date | null },
) {
  // The amount plays no part: every verified receipt has the same base (decision 100).
  const reward = computeReceiptReward({ category: input.category, streak: input.streak })
  const created_at = input.now.toISOString()
  const hold = input.claimableAt ? { claimable_at: input.claimableAt.toISOString(), hold_receipt_id: input.receiptId } : {}
  const base = { user_id: input.userId, receipt_id: input.receiptId, tx_hash: null, store_submission_id: null, referral_id: null, created_at, ...hold }
  const credited = await creditReward(
    trx as DB,
    {
      ...base,
      type: 'receipt_verification',
      amount_milli: reward.totalMilli,
      description: receiptRewardDescription(reward, input.storeName),
      idempotency_key: `receipt:${input.receiptId}`,
    },
    `receipt #${input.receiptId}`,
  )
  if (!credited) return { reward, firstReceiptBonusMilli: 0 }
  const bonusDescription = achievementRewardDescription('first_receipt')
  const bonus = await creditReward(
    trx as DB,
    {
      ...base,
      type: 'achievement_reward',
      amount_milli: FIRST_RECEIPT_BONUS_MILLI,
      description: bonusDescription,
      idempotency_key: achievementRewardKey(input.userId, 'first_receipt'),
    },
    bonusDescription,
  )
  if (bonus) {
    // A friend's first accepted receipt pays the referrer (once, by its own ledger key).
    await rewardReferrerForFirstAcceptedReceipt(trx as DB, input.userId, input.now, input.claimableAt ? { receiptId: input.receiptId, claimableAt: input.claimableAt } : null)
  }
  await trx
    .updateTable('receipts')
    .set({ reward_milli: reward.totalMilli + (bonus ? FIRST_RECEIPT_BONUS_MILLI : 0), reward_details_json: JSON.stringify(reward) })
    .where('id', '=', input.receiptId)
    .execute()
  return { reward, firstReceiptBonusMilli: bonus ? FIRST_RECEIPT_BONUS_MILLI : 0 }
}


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
import { firstBonusReceiptId, firstReceiptBonusFor, type BonusCandidate } from '~/rewards/approval-promise'
import { countStreakDay, nextStreak } from '~/rewards/streaks'
import { utcDay } from '~/utils/calendar'

type StoredStreak = { current_streak: number; best_streak: number; last_streak_day: string | null }
type NextStreak<R> = { record: { currentStreak: number; bestStreak: number; lastActiveDay: string | null }; result: R }

/**
 * The user's streak changed by `step` with a compare-and-set: written only if nobody changed it
 * since it was read, else read again and retried, so concurrent receipts cannot skip a day.
 */
async function updateStreak<R>(trx: Kysely<Database>, userId: number, now: Date, step: (user: StoredStreak) => NextStreak<R>): Promise<R> {
  for (;;) {
    const user = await trx
      .selectFrom('users')
      .select(['current_streak', 'best_streak', 'last_streak_day'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const next = step(user)
    const update = await trx
      .updateTable('users')
      .set({
        current_streak: next.record.currentStreak,
        best_streak: next.record.bestStreak,
        last_streak_day: next.record.lastActiveDay,
        updated_at: now.toISOString(),
      })
      .where('id', '=', userId)
      .where('current_streak', '=', user.current_streak)
      .where((eb) => (user.last_streak_day === null ? eb('last_streak_day', 'is', null) : eb('last_streak_day', '=', user.last_streak_day)))
      .executeTakeFirst()
    if (Number(update.numUpdatedRows) === 1) return next.result
  }
}

/** Streak (decision 007 §15) for a receipt accepted now. */
export async function advanceStreak(trx: Transaction<Database>, userId: number, now: Date) {
  const today = utcDay(now)
  return updateStreak(trx, userId, now, (user) => {
    const next = nextStreak({ lastActiveDay: user.last_streak_day, currentStreak: user.current_streak, today })
    return {
      record: { currentStreak: next.streak, bestStreak: Math.max(user.best_streak, next.streak), lastActiveDay: today },
      result: { increased: next.increased, current: next.streak },
    }
  })
}

/**
 * A staff approval counts the receipt for the UTC day it was submitted (issue 40). Call it after the
 * receipt's status is 'approved'; returns the streak of that day, which the receipt is paid at.
 */
export async function countApprovedDay(trx: Kysely<Database>, userId: number, day: string, now: Date) {
  const accepted = await trx.selectFrom('receipts').select('created_at').where('user_id', '=', userId).where('status', '=', 'approved').execute()
  const acceptedDays = accepted.map((r) => utcDay(new Date(r.created_at)))
  return updateStreak(trx, userId, now, (user) => {
    const counted = countStreakDay({ lastActiveDay: user.last_streak_day, currentStreak: user.current_streak, bestStreak: user.best_streak }, day, acceptedDays)
    return { record: counted.record, result: { streakOfDay: counted.streakOfDay, increased: counted.increased, current: counted.record.currentStreak } }
  })
}

/** What decides the first-receipt bonus (approval-promise.ts): whether it was paid, and the user's receipts. */
export async function firstBonusFacts(db: Kysely<Database>, userId: number) {
  const [paid, receipts] = await Promise.all([
    db.selectFrom('transactions').select('id').where('idempotency_key', '=', achievementRewardKey(userId, 'first_receipt')).executeTakeFirst(),
    db.selectFrom('receipts').select(['id', 'created_at', 'status']).where('user_id', '=', userId).execute(),
  ])
  return {
    bonusPaid: paid !== undefined,
    receipts: receipts.map((r): BonusCandidate => ({ id: r.id, createdAt: r.created_at, status: r.status })),
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
  await trx
    .updateTable('receipts')
    .set({ reward_milli: reward.totalMilli, reward_details_json: JSON.stringify(reward) })
    .where('id', '=', input.receiptId)
    .execute()
  // The bonus belongs to the earliest receipt not rejected (issue 40): not to this one while an
  // earlier one still waits for staff, whatever order staff approve them in.
  const due = firstReceiptBonusFor(input.receiptId, await firstBonusFacts(trx, input.userId))
  const bonus = due > 0 && (await creditFirstReceiptBonus(trx, input))
  return { reward, firstReceiptBonusMilli: bonus ? FIRST_RECEIPT_BONUS_MILLI : 0 }
}

/** The first-receipt bonus, once by its key, on the receipt it belongs to; a friend's first accepted receipt pays the referrer too. */
async function creditFirstReceiptBonus(trx: Kysely<Database>, input: { userId: number; receiptId: number; now: Date; claimableAt?: Date | null }) {
  const description = achievementRewardDescription('first_receipt')
  // It matures with the receipt it is paid on (issue 38).
  const hold = input.claimableAt ? { claimable_at: input.claimableAt.toISOString(), hold_receipt_id: input.receiptId } : {}
  const bonus = await creditReward(
    trx as DB,
    {
      user_id: input.userId,
      receipt_id: input.receiptId,
      tx_hash: null,
      store_submission_id: null,
      referral_id: null,
      created_at: input.now.toISOString(),
      ...hold,
      type: 'achievement_reward',
      amount_milli: FIRST_RECEIPT_BONUS_MILLI,
      description,
      idempotency_key: achievementRewardKey(input.userId, 'first_receipt'),
    },
    description,
  )
  if (!bonus) return false
  await rewardReferrerForFirstAcceptedReceipt(trx as DB, input.userId, input.now, input.claimableAt ? { receiptId: input.receiptId, claimableAt: input.claimableAt } : null)
  await trx
    .updateTable('receipts')
    .set((eb) => ({ reward_milli: eb('reward_milli', '+', FIRST_RECEIPT_BONUS_MILLI) }))
    .where('id', '=', input.receiptId)
    .execute()
  return true
}

/**
 * After a rejection: the bonus the rejected receipt was promised moves to the next receipt, and is
 * paid at once when that one is approved already (it was approved without it while this one waited).
 */
export async function payBonusMovedByRejection(trx: Kysely<Database>, userId: number, now: Date) {
  const facts = await firstBonusFacts(trx, userId)
  const next = firstBonusReceiptId(facts.receipts)
  const receipt = facts.receipts.find((r) => r.id === next)
  if (facts.bonusPaid || !receipt || receipt.status !== 'approved') return false
  // Paid on a photo still maturing, it matures with it (issue 38).
  const credit = await trx.selectFrom('transactions').select('claimable_at').where('idempotency_key', '=', `receipt:${receipt.id}`).executeTakeFirst()
  const claimableAt = credit?.claimable_at && Date.parse(credit.claimable_at) > now.getTime() ? new Date(credit.claimable_at) : null
  return creditFirstReceiptBonus(trx, { userId, receiptId: receipt.id, now, claimableAt })
}


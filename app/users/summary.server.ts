import { sql } from 'kysely'
import type { DB } from '#db/db.server'

export function utcDayString(now: Date) {
  return now.toISOString().slice(0, 10)
}

/** The home screen's numbers, all from the database (zeros until receipts exist). */
export async function getHomeSummary(db: DB, userId: number, now = new Date()) {
  const today = utcDayString(now)
  const [actions, earned, receipts, latestAchievement] = await Promise.all([
    db
      .selectFrom('action_slots')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('day', '=', today)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('transactions')
      .select(sql<number>`coalesce(sum(amount_milli), 0)`.as('milli'))
      .where('user_id', '=', userId)
      .where('type', 'in', ['receipt_verification', 'store_addition', 'achievement_reward', 'referral_reward'])
      .where('status', '!=', 'failed')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('receipts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'approved')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('transactions')
      .select(['description', 'amount_milli', 'created_at'])
      .where('user_id', '=', userId)
      .where('type', '=', 'achievement_reward')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ])
  return {
    dailyActions: Number(actions.n),
    totalEarnedMilli: Number(earned.milli),
    verifiedReceipts: Number(receipts.n),
    latestAchievement: latestAchievement
      ? {
          description: latestAchievement.description,
          amountMilli: latestAchievement.amount_milli,
          createdAt: latestAchievement.created_at,
        }
      : null,
  }
}

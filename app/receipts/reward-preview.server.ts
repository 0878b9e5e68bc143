import type { DB } from '#db/db.server'
import { achievementRewardKey } from '~/engagement/achievements'
import { previewReceiptReward, type RewardPreview } from '~/rewards/receipt-reward'
import { utcDay } from '~/utils/calendar'
import type { User } from '~/users/users.server'

/**
 * What creditReceipt would pay if this receipt were accepted now: the server's pure reward rule at
 * the streak this receipt makes, plus the first-receipt bonus while its ledger entry is missing.
 */
export async function getRewardPreview(db: DB, user: User, category: string | null, now = new Date()): Promise<RewardPreview> {
  const bonus = await db
    .selectFrom('transactions')
    .select('id')
    .where('idempotency_key', '=', achievementRewardKey(user.id, 'first_receipt'))
    .executeTakeFirst()
  return previewReceiptReward({
    lastActiveDay: user.lastStreakDay,
    currentStreak: user.currentStreak,
    today: utcDay(now),
    category,
    firstReceipt: !bonus,
  })
}

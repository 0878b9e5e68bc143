import { sql } from 'kysely'
import { preparedQuery, type DB } from '#db/db.server'
import { utcDay } from '~/utils/calendar'

/** The home screen's numbers, all from the database (zeros until receipts exist). */
export async function getHomeSummary(db: DB, userId: number, now = new Date()) {
  // The latest achievement is getLatestAchievement's (engagement.server.ts): most achievements
  // write no ledger entry, so the latest reward entry is not the latest achievement (issue 24).
  const [row] = await counts(db, userId, utcDay(now))
  return {
    dailyActions: Number(row.actions),
    totalEarnedMilli: Number(row.earned),
    verifiedReceipts: Number(row.receipts),
    /** Receipts waiting for staff (issue 32: shown on Home so none seems lost). */
    inReview: Number(row.in_review),
  }
}

// One query with four sub-selects: the page is the most visited one (issue 12).
const counts = preparedQuery((db: DB, userId: number, today: string) =>
  db.selectNoFrom((eb) => [
    eb
      .selectFrom('action_slots')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('day', '=', today)
      .as('actions'),
    eb
      .selectFrom('transactions')
      .select(sql<number>`coalesce(sum(amount_milli), 0)`.as('milli'))
      .where('user_id', '=', userId)
      .where('type', 'in', ['receipt_verification', 'store_addition', 'achievement_reward', 'referral_reward'])
      .where('status', '!=', 'failed')
      .as('earned'),
    eb
      .selectFrom('receipts')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'approved')
      .as('receipts'),
    eb
      .selectFrom('receipts')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'pending_review')
      .as('in_review'),
  ]),
)

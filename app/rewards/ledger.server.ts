import { sql } from 'kysely'
import { preparedQuery, type DB } from '#db/db.server'
import type { NewTransaction, TransactionType } from '#db/schema'
import { SUSTAINABILITY_SHARE_PERCENT, sustainabilityShareMilli } from '~/rewards/receipt-reward'

/** Entries that belong to the app's funds, not to the user's balance. */
export const FUND_TYPES: readonly TransactionType[] = ['sustainability_app', 'sustainability_creator']

/** The balance is the sum of the user's own ledger entries; failed entries do not count. */
export async function getBalanceMilli(db: DB, userId: number): Promise<number> {
  const [row] = await balanceOf(db, userId)
  return Number(row.balance)
}

const balanceOf = preparedQuery((db: DB, userId: number) =>
  db
    .selectFrom('transactions')
    .select(sql<number>`coalesce(sum(amount_milli), 0)`.as('balance'))
    .where('user_id', '=', userId)
    .where('type', 'not in', FUND_TYPES)
    .where('status', '!=', 'failed'),
)

/**
 * Write a ledger entry once. A second call with the same idempotency key writes nothing and
 * returns false, so replays and double clicks cannot pay twice.
 */
export async function recordEntry(db: DB, entry: Omit<NewTransaction, 'created_at'> & { created_at?: string }) {
  if (!Number.isSafeInteger(entry.amount_milli)) throw new Error('Ledger amounts must be integers (milli-B3TR)')
  const result = await db
    .insertInto('transactions')
    .values({ ...entry, created_at: entry.created_at ?? new Date().toISOString() })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}

/**
 * Credit a completed reward once together with the app fund's share of it (spec 1 §9), written
 * under the reward's key + ':sustainability_app' and described as 'Sustainability fund: 30% of
 * <shareOf>'. Returns false and writes nothing when the reward's key was already paid.
 */
export async function creditReward(
  db: DB,
  entry: Omit<NewTransaction, 'created_at' | 'status'> & { created_at?: string },
  shareOf: string,
): Promise<boolean> {
  if (!(await recordEntry(db, { ...entry, status: 'completed' }))) return false
  await recordEntry(db, {
    ...entry,
    type: 'sustainability_app',
    amount_milli: sustainabilityShareMilli(entry.amount_milli),
    description: `Sustainability fund: ${SUSTAINABILITY_SHARE_PERCENT}% of ${shareOf}`,
    status: 'completed',
    idempotency_key: `${entry.idempotency_key}:sustainability_app`,
  })
  return true
}

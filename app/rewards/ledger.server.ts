import { sql } from 'kysely'
import type { DB } from '#db/db.server'
import type { NewTransaction, TransactionType } from '#db/schema'

/** Entries that belong to the app's funds, not to the user's balance. */
export const FUND_TYPES: readonly TransactionType[] = ['sustainability_app', 'sustainability_creator']

/** The balance is the sum of the user's own ledger entries; failed entries do not count. */
export async function getBalanceMilli(db: DB, userId: number): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .select(sql<number>`coalesce(sum(amount_milli), 0)`.as('balance'))
    .where('user_id', '=', userId)
    .where('type', 'not in', FUND_TYPES)
    .where('status', '!=', 'failed')
    .executeTakeFirstOrThrow()
  return Number(row.balance)
}

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

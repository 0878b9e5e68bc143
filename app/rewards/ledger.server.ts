import { sql } from 'kysely'
import { preparedQuery, type DB } from '#db/db.server'
import type { NewTransaction, TransactionType } from '#db/schema'
import type { MaturingAmount } from '~/rewards/maturing'
import { SUSTAINABILITY_SHARE_PERCENT, sustainabilityShareMilli } from '~/rewards/receipt-reward'

/** Entries that belong to the app's funds, not to the user's balance. */
export const FUND_TYPES: readonly TransactionType[] = ['sustainability_app', 'sustainability_creator']

/**
 * The claimable balance: the sum of the user's own counted entries whose time has come (issue 38).
 * A maturing photo credit (claimable_at in the future) counts only from then on, and so does its
 * reversal, which carries the same time; claims and every credit without a time count at once.
 */
export async function getBalanceMilli(db: DB, userId: number, now = new Date()): Promise<number> {
  return (await getBalances(db, userId, now)).claimableMilli
}

export type Balances = {
  /** What a claim takes now. */
  claimableMilli: number
  /** Credited and still maturing: claimable later, unless an audit reverses it. */
  pendingMilli: number
  /** The pending amount by the time it becomes claimable, earliest first. */
  maturing: MaturingAmount[]
}

/**
 * One round trip: the ledger's sum (as before issue 38), and beside it the entries still maturing,
 * by their time, found from the (user_id, claimable_at) index so that a long ledger costs nothing
 * more (npm run bench:balances). A credit and its reversal share a time and cancel out.
 */
export async function getBalances(db: DB, userId: number, now = new Date()): Promise<Balances> {
  const rows = await balanceAndMaturing(db, userId, now.toISOString())
  let total = 0
  const maturing: MaturingAmount[] = []
  for (const row of rows) {
    const amount = Number(row.amount ?? 0)
    if (row.claimable_at === null) total += amount
    else if (amount !== 0) maturing.push({ claimableAt: row.claimable_at, amountMilli: amount })
  }
  maturing.sort((a, b) => a.claimableAt.localeCompare(b.claimableAt))
  const pendingMilli = maturing.reduce((sum, m) => sum + m.amountMilli, 0)
  return { claimableMilli: total - pendingMilli, pendingMilli, maturing }
}

const counted = (db: DB, userId: number) =>
  db.selectFrom('transactions').where('user_id', '=', userId).where('type', 'not in', FUND_TYPES).where('status', '!=', 'failed')

const balanceAndMaturing = preparedQuery((db: DB, userId: number, now: string) =>
  counted(db, userId)
    .select([sql<string | null>`null`.as('claimable_at'), sql<number>`coalesce(sum(amount_milli), 0)`.as('amount')])
    .unionAll(
      counted(db, userId)
        .where('claimable_at', '>', now)
        .select(['claimable_at', sql<number>`sum(amount_milli)`.as('amount')])
        .groupBy('claimable_at'),
    ),
)

/**
 * Serialise whatever reads and then changes one wallet's claimable balance (a claim, a reversal,
 * a payout retry): a write to the user's row takes SQLite's write lock and locks the row on
 * PostgreSQL until the transaction ends, so the next one re-reads the ledger after it.
 */
export async function lockLedger(db: DB, userId: number, now = new Date()): Promise<void> {
  await db.updateTable('users').set({ updated_at: now.toISOString() }).where('id', '=', userId).execute()
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

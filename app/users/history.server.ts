import { sql } from 'kysely'
import { preparedQuery, type DB } from '#db/db.server'
import type { PayoutStatus, TransactionType } from '#db/schema'
import { entryVerifiedSender, matchesTransactionSearch, paginate, TRANSACTIONS_PER_PAGE } from '~/engagement/history'
import { FUND_TYPES } from '~/rewards/ledger.server'
import { USER_EARNING_TYPES } from '~/rewards/ledger-types'

export type HistoryEntry = {
  id: number
  type: TransactionType
  amountMilli: number
  description: string
  status: string
  txHash: string | null
  receiptId: number | null
  createdAt: string
  verifiedSender: string | null
  /** A claim's payout, so the history names its status as /redeem does (one label per status). */
  payoutStatus: PayoutStatus | null
  /** From when a maturing photo credit (or its reversal) counts (issue 38); null: at once. */
  claimableAt: string | null
}

/** A ledger entry as the history shows it, with its receipt's verified e-mail sender (issue 21; receipt rows only, entryVerifiedSender). */
export const LEDGER_ENTRY_COLUMNS = [
  'transactions.id',
  'transactions.type',
  'transactions.amount_milli',
  'transactions.description',
  'transactions.status',
  'transactions.tx_hash',
  'transactions.receipt_id',
  'transactions.created_at',
  'transactions.claimable_at',
  'receipts.verified_sender',
] as const

/**
 * The user's own ledger entries (fund shares are the app's, not shown), newest first; `oldest`
 * for the engagement rules, which replay them in order.
 */
/** The user's ledger entries with their receipt's sender and their payout's status. */
function ledgerQuery(db: DB, userId: number, direction: 'asc' | 'desc') {
  return db
    .selectFrom('transactions')
    .leftJoin('receipts', 'receipts.id', 'transactions.receipt_id')
    .leftJoin('payouts', 'payouts.transaction_id', 'transactions.id')
    .select([...LEDGER_ENTRY_COLUMNS, 'payouts.status as payout_status'])
    .where('transactions.user_id', '=', userId)
    .where('transactions.type', 'not in', FUND_TYPES)
    .orderBy('transactions.created_at', direction)
    .orderBy('transactions.id', direction)
}

// The whole ledger oldest first, prepared once: Home's latest achievement reads it on every view.
const wholeLedgerOldestFirst = preparedQuery((db: DB, userId: number) => ledgerQuery(db, userId, 'asc'))

export async function listUserTransactions(
  db: DB,
  userId: number,
  opts: { limit?: number; offset?: number; order?: 'newest' | 'oldest' } = {},
): Promise<HistoryEntry[]> {
  const direction = opts.order === 'oldest' ? 'asc' : 'desc'
  const rows =
    opts.order === 'oldest' && opts.limit === undefined
      ? await wholeLedgerOldestFirst(db, userId)
      : await ledgerQuery(db, userId, direction)
          .$if(opts.limit !== undefined, (q) => q.limit(opts.limit!).offset(opts.offset ?? 0))
          .execute()
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    amountMilli: r.amount_milli,
    description: r.description,
    status: r.status,
    txHash: r.tx_hash,
    receiptId: r.receipt_id,
    createdAt: r.created_at,
    verifiedSender: entryVerifiedSender(r.type, r.verified_sender),
    payoutStatus: r.payout_status ?? null,
    claimableAt: r.claimable_at ?? null,
  }))
}

export async function countUserTransactions(db: DB, userId: number) {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('type', 'not in', FUND_TYPES)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * The Tokens page: the user's entries matching `query` (type, amount or description), one page of
 * TRANSACTIONS_PER_PAGE, newest first. A user's ledger is small (at most a few actions a day), so
 * the match runs on the rows the screen shows, with the same amount formats the user sees.
 */
export async function searchUserTransactions(db: DB, userId: number, opts: { query: string; page: number }) {
  const [all, total] = await Promise.all([
    listUserTransactions(db, userId, { limit: MAX_SEARCHED }),
    countUserTransactions(db, userId),
  ])
  const matching = all.filter((entry) => matchesTransactionSearch(entry, opts.query))
  return { ...paginate(matching, opts.page, TRANSACTIONS_PER_PAGE), hasAny: total > 0 }
}

const MAX_SEARCHED = 100_000

/**
 * The explorer stats of spec 2 §2: every entry, the B3TR earned (user-earning entries that did not
 * fail, as on every other screen) and the receipts verified.
 */
export async function getTransactionStats(db: DB, userId: number) {
  const row = await db
    .selectFrom('transactions')
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`coalesce(sum(case when type in (${sql.join(USER_EARNING_TYPES)}) and status != 'failed' then amount_milli else 0 end), 0)`.as('earned'),
      // A reversal (issue 38) takes its receipt back out of the count.
      sql<number>`coalesce(sum(case when type = 'receipt_verification' and status != 'failed' then (case when amount_milli < 0 then -1 else 1 end) else 0 end), 0)`.as('receipts'),
    ])
    .where('user_id', '=', userId)
    .where('type', 'not in', FUND_TYPES)
    .executeTakeFirstOrThrow()
  return { totalTransactions: Number(row.total), earnedMilli: Number(row.earned), receiptVerifications: Number(row.receipts) }
}

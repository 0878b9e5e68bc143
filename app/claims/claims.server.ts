import { sql } from 'kysely'
import type { DB } from '#db/db.server'
import type { PayoutStatus, TransactionStatus } from '#db/schema'
import type { PayoutImpact } from '~/chain/payout'
import { CO2_GRAMS_PER_RECEIPT, WATER_LITERS_PER_RECEIPT } from '~/engagement/impact'
import { getBalanceMilli, lockLedger } from '~/rewards/ledger.server'
import { formatB3tr } from '~/rewards/money'

export const NO_TOKENS_TITLE = 'No tokens available'
export const NO_TOKENS_MESSAGE = "You don't have any tokens to redeem."
export const AMOUNT_MISMATCH_MESSAGE = 'Your balance has changed. Please review the amount and claim again.'

export type ClaimResult =
  | { ok: true; claimId: number; payoutId: number; amountMilli: number }
  | { ok: false; code: 'no_tokens' | 'amount_mismatch'; error: string }

/**
 * "Claim All" (decision 040): one token_claim of minus the whole claimable balance, pending until
 * paid on-chain, with a payouts row for the payout worker. Credits still maturing (issue 38) are not
 * part of it. The transaction first locks the wallet's ledger (a write to the user's row: SQLite's
 * write lock, PostgreSQL's row lock), so concurrent claims and audit reversals run one after the
 * other and each re-reads the ledger; the idempotency key counts the user's earlier claims, so even
 * without that lock a second claim of the same balance cannot be written.
 */
export async function claimAllTokens(db: DB, input: { userId: number; amountMilli: number; now?: Date }): Promise<ClaimResult> {
  const now = input.now ?? new Date()
  const at = now.toISOString()
  return db.transaction().execute(async (trx) => {
    await lockLedger(trx as DB, input.userId, now)
    const balance = await getBalanceMilli(trx as DB, input.userId, now)
    if (balance <= 0) return { ok: false, code: 'no_tokens', error: NO_TOKENS_MESSAGE } as const
    if (input.amountMilli !== balance) return { ok: false, code: 'amount_mismatch', error: AMOUNT_MISMATCH_MESSAGE } as const
    const previous = await trx
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', input.userId)
      .where('type', '=', 'token_claim')
      .executeTakeFirstOrThrow()
    const inserted = await trx
      .insertInto('transactions')
      .values({
        user_id: input.userId,
        type: 'token_claim',
        amount_milli: -balance,
        description: `Claim All Tokens: ${formatB3tr(balance)} B3TR`,
        status: 'pending',
        tx_hash: null,
        idempotency_key: `claim:${input.userId}:${Number(previous.n) + 1}`,
        receipt_id: null,
        store_submission_id: null,
        referral_id: null,
        created_at: at,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) return { ok: false, code: 'amount_mismatch', error: AMOUNT_MISMATCH_MESSAGE } as const
    const impact = await claimImpact(trx as DB, input.userId, inserted.id, at)
    const payout = await trx
      .insertInto('payouts')
      .values({
        user_id: input.userId,
        transaction_id: inserted.id,
        amount_milli: balance,
        status: 'pending',
        receipt_count: impact.receiptCount,
        carbon_grams: impact.carbonGrams,
        water_liters: impact.waterLiters,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return { ok: true, claimId: inserted.id, payoutId: payout.id, amountMilli: balance } as const
  })
}

/**
 * The impact reported on-chain with a claim: the receipts credited since the user's previous claim
 * (ledger ids are increasing, so "after the previous claim's id" is exact even within one second),
 * and the maturing ones whose time came since then.
 */
async function claimImpact(db: DB, userId: number, claimId: number, now: string): Promise<PayoutImpact> {
  const previous = await db
    .selectFrom('transactions')
    .select(['id', 'created_at'])
    .where('user_id', '=', userId)
    .where('type', '=', 'token_claim')
    .where('id', '<', claimId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  const afterId = previous?.id ?? 0
  // Issue 38: a maturing credit is this claim's when its time came since the previous claim (which
  // took everything claimable at its own time); a reversed credit or a reversal is no receipt.
  const afterTime = previous?.created_at ?? ''
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('type', '=', 'receipt_verification')
    .where('status', '!=', 'failed')
    .where('amount_milli', '>', 0)
    .where('id', '<', claimId)
    .where((eb) =>
      eb.or([
        eb.and([eb('claimable_at', 'is', null), eb('id', '>', afterId)]),
        eb.and([eb('claimable_at', '>', afterTime), eb('claimable_at', '<=', now)]),
      ]),
    )
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('transactions as r').select('r.id').whereRef('r.reverses_id', '=', 'transactions.id'))))
    .executeTakeFirstOrThrow()
  const receiptCount = Number(row.n)
  return { receiptCount, carbonGrams: receiptCount * CO2_GRAMS_PER_RECEIPT, waterLiters: receiptCount * WATER_LITERS_PER_RECEIPT }
}

export type Claim = {
  id: number
  /** Positive: what the user claimed. */
  amountMilli: number
  status: TransactionStatus
  payoutStatus: PayoutStatus | null
  /** The payout's last error: why a failed claim failed. */
  payoutError: string | null
  /** A real transaction id only once the claim is confirmed (decision 041). */
  txHash: string | null
  createdAt: string
}

/** The user's claims, newest first (decision 007 §16: the redemption history is real). */
export async function listClaims(db: DB, userId: number, limit = 50): Promise<Claim[]> {
  const rows = await db
    .selectFrom('transactions')
    .leftJoin('payouts', 'payouts.transaction_id', 'transactions.id')
    .select([
      'transactions.id',
      'transactions.amount_milli',
      'transactions.status',
      'transactions.created_at',
      'payouts.status as payout_status',
      'payouts.error as payout_error',
      'transactions.tx_hash',
    ])
    .where('transactions.user_id', '=', userId)
    .where('transactions.type', '=', 'token_claim')
    .orderBy('transactions.created_at', 'desc')
    .orderBy('transactions.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => ({
    id: r.id,
    amountMilli: Math.abs(r.amount_milli),
    status: r.status,
    payoutStatus: r.payout_status,
    payoutError: r.payout_error,
    txHash: r.status === 'confirmed' ? r.tx_hash : null,
    createdAt: r.created_at,
  }))
}

/** Claims on their way to the wallet (issue 40): taken from the balance, not yet confirmed on chain. */
export async function claimsOnTheirWay(db: DB, userId: number): Promise<{ milli: number; count: number }> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => [eb.fn.countAll<number>().as('n'), sql<number>`coalesce(sum(-amount_milli), 0)`.as('milli')])
    .where('user_id', '=', userId)
    .where('type', '=', 'token_claim')
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  return { milli: Number(row.milli), count: Number(row.n) }
}

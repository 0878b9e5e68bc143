import type { DB } from '#db/db.server'
import type { PayoutStatus } from '#db/schema'
import { recordAudit } from '~/admin/audit.server'
import { getBalanceMilli, lockLedger } from '~/rewards/ledger.server'
import { PAYOUT_STATUSES } from './labels'
import { parseTxIds } from './worker.server'

export type AdminPayout = {
  id: number
  claimId: number
  userId: number
  walletAddress: string
  amountMilli: number
  status: PayoutStatus
  txHash: string | null
  previousTxIds: string[]
  error: string | null
  attempts: number
  signings: number
  nextAttemptAt: string | null
  createdAt: string
  updatedAt: string
}


/** The queue for the admin page, newest first, optionally one status only. */
export async function listPayouts(db: DB, opts: { status?: PayoutStatus; limit?: number } = {}): Promise<AdminPayout[]> {
  let query = db
    .selectFrom('payouts')
    .innerJoin('users', 'users.id', 'payouts.user_id')
    .select([
      'payouts.id',
      'payouts.transaction_id',
      'payouts.user_id',
      'users.wallet_address',
      'payouts.amount_milli',
      'payouts.status',
      'payouts.tx_hash',
      'payouts.previous_tx_ids',
      'payouts.error',
      'payouts.attempts',
      'payouts.signings',
      'payouts.next_attempt_at',
      'payouts.created_at',
      'payouts.updated_at',
    ])
    .orderBy('payouts.id', 'desc')
    .limit(opts.limit ?? 100)
  if (opts.status) query = query.where('payouts.status', '=', opts.status)
  const rows = await query.execute()
  return rows.map((r) => ({
    id: r.id,
    claimId: r.transaction_id,
    userId: r.user_id,
    walletAddress: r.wallet_address,
    amountMilli: r.amount_milli,
    status: r.status,
    txHash: r.tx_hash,
    previousTxIds: parseTxIds(r.previous_tx_ids),
    error: r.error,
    attempts: r.attempts,
    signings: r.signings,
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }))
}

export async function countPayoutsByStatus(db: DB): Promise<Record<PayoutStatus, { count: number; amountMilli: number }>> {
  const rows = await db
    .selectFrom('payouts')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_milli').as('total')])
    .groupBy('status')
    .execute()
  const counts = Object.fromEntries(PAYOUT_STATUSES.map((s) => [s, { count: 0, amountMilli: 0 }])) as Record<PayoutStatus, { count: number; amountMilli: number }>
  for (const r of rows) counts[r.status] = { count: Number(r.n), amountMilli: Number(r.total ?? 0) }
  return counts
}

export type RetryResult = { ok: true; message: string } | { ok: false; error: string }

/**
 * An admin's retry (audited). A failed or reverted payout had returned the claim to the balance, so
 * retrying takes it out again: only while the user's balance still covers it (they may have
 * claimed it again meanwhile). An expired one that used up its automatic signings, or one held by
 * an operator problem, is simply made due now. No transaction can still be on its way in any of
 * these states, so signing anew can never pay twice.
 */
export async function retryPayout(db: DB, input: { payoutId: number; adminUserId: number; now?: Date }): Promise<RetryResult> {
  const now = input.now ?? new Date()
  const at = now.toISOString()
  return db.transaction().execute(async (trx) => {
    const payout = await trx.selectFrom('payouts').selectAll().where('id', '=', input.payoutId).executeTakeFirst()
    if (!payout) return { ok: false, error: 'No such payout' } as const
    const reset = { status: 'pending' as const, error: null, attempts: 0, next_attempt_at: null, lease_owner: null, lease_until: null, updated_at: at }
    if (payout.status === 'failed' || payout.status === 'reverted') {
      // Lock the user's row (as a claim does), then check the balance the claim would take again.
      await lockLedger(trx as DB, payout.user_id, now)
      const balance = await getBalanceMilli(trx as DB, payout.user_id, now)
      if (balance < payout.amount_milli) {
        return { ok: false, error: "The user's balance no longer covers this claim (they may have claimed again); nothing was retried." } as const
      }
      const claim = await trx.updateTable('transactions').set({ status: 'pending' }).where('id', '=', payout.transaction_id).where('status', '=', 'failed').executeTakeFirst()
      const moved = await trx
        .updateTable('payouts')
        .set({ ...reset, previous_tx_ids: withPrevious(payout.previous_tx_ids, payout.tx_hash), tx_hash: null, raw_tx: null })
        .where('id', '=', payout.id)
        .where('status', '=', payout.status)
        .executeTakeFirst()
      if (Number(claim.numUpdatedRows) !== 1 || Number(moved.numUpdatedRows) !== 1) throw new RetryConflict()
    } else if (payout.status === 'pending' && !payout.error) {
      return { ok: false, error: 'The payout is already queued; nothing to retry' } as const
    } else if (payout.status === 'expired' || payout.status === 'pending') {
      const moved = await trx
        .updateTable('payouts')
        .set(payout.status === 'expired' ? { ...reset, previous_tx_ids: withPrevious(payout.previous_tx_ids, payout.tx_hash), tx_hash: null, raw_tx: null } : { attempts: 0, next_attempt_at: null, updated_at: at })
        .where('id', '=', payout.id)
        .where('status', '=', payout.status)
        .executeTakeFirst()
      if (Number(moved.numUpdatedRows) !== 1) throw new RetryConflict()
    } else {
      return { ok: false, error: `A ${payout.status} payout cannot be retried` } as const
    }
    await recordAudit(trx, { adminUserId: input.adminUserId, action: 'payout_retry', targetType: 'payout', targetId: payout.id, details: { from: payout.status, error: payout.error }, now })
    return { ok: true, message: `Payout ${payout.id} will be sent again.` } as const
  }).catch((error) => {
    if (error instanceof RetryConflict) return { ok: false, error: 'The payout changed meanwhile; reload and try again.' } as const
    throw error
  })
}

class RetryConflict extends Error {}

function withPrevious(previousJson: string | null, txHash: string | null): string | null {
  const earlier = parseTxIds(previousJson)
  const all = txHash && !earlier.includes(txHash) ? [...earlier, txHash] : earlier
  return all.length ? JSON.stringify(all) : null
}

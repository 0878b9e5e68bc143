import type { DB } from '#db/db.server'
import type { PayoutStatus, TransactionStatus } from '#db/schema'
import { legacyGasPrice } from '~/chain/payout'
import { describeThorError, ThorError, type ThorClient, type ThorTransaction, type TxReceipt } from '~/chain/thor.server'
import { formatUnits } from '~/chain/units'
import { entryVerifiedSender } from '~/engagement/history'
import type { ClaimState } from '~/payouts/labels'
import { FUND_TYPES } from '~/rewards/ledger.server'
import { LEDGER_ENTRY_COLUMNS, type HistoryEntry } from './history.server'
import { parseRowId } from '~/utils/ids'

// One entry of the user's own ledger (/transactions/{id}) and what the VeChain node knows about
// its transaction (decision 007 §16: the Blockchain Data tab reads the node, nothing is made up).

export type UserTransaction = HistoryEntry & { status: TransactionStatus; payoutStatus: PayoutStatus | null; payoutError: string | null }

/** An id from the URL: a positive integer written plainly ('12'), anything else is null. */
export function parseTransactionId(value: string | undefined): number | null {
  return parseRowId(value)
}

/** The user's own entry, or null for someone else's, a fund share or a missing id. */
export async function getUserTransaction(db: DB, userId: number, id: number): Promise<UserTransaction | null> {
  const row = await db
    .selectFrom('transactions')
    .leftJoin('payouts', 'payouts.transaction_id', 'transactions.id')
    .leftJoin('receipts', 'receipts.id', 'transactions.receipt_id')
    .select([
      ...LEDGER_ENTRY_COLUMNS,
      'payouts.status as payout_status',
      'payouts.error as payout_error',
    ])
    .where('transactions.id', '=', id)
    .where('transactions.user_id', '=', userId)
    .where('transactions.type', 'not in', FUND_TYPES)
    .executeTakeFirst()
  if (!row) return null
  return {
    id: row.id,
    type: row.type,
    amountMilli: row.amount_milli,
    description: row.description,
    status: row.status,
    // A claim's hash counts once it is confirmed, as on the redemption history (decision 041).
    txHash: row.type === 'token_claim' && row.status !== 'confirmed' ? null : row.tx_hash,
    receiptId: row.receipt_id,
    createdAt: row.created_at,
    payoutStatus: row.payout_status,
    payoutError: row.payout_error,
    verifiedSender: entryVerifiedSender(row.type, row.verified_sender),
    claimableAt: row.claimable_at,
  }
}

/** The spec's badge: confirmed green, pending yellow, failed red, otherwise Unknown. */
export function ledgerStatusBadge(status: string): { label: string; tone: 'ok' | 'warn' | 'bad' | 'unknown' } {
  switch (status) {
    case 'confirmed':
      return { label: 'Confirmed', tone: 'ok' }
    // This ledger's own word for a reward credited off-chain: a settled entry, not an unknown one.
    case 'completed':
      return { label: 'Completed', tone: 'ok' }
    case 'pending':
      return { label: 'Pending', tone: 'warn' }
    case 'failed':
      return { label: 'Failed', tone: 'bad' }
    default:
      return { label: 'Unknown', tone: 'unknown' }
  }
}

const CLAIM_TONES = { approved: 'ok', pending: 'warn', rejected: 'bad' } as const

/**
 * The one status the entry's page shows (issue 32). A claim's is its claim state (Awaiting payout,
 * Pending Claim, Confirmed, Failed), the words /redeem and the history use; its ledger status
 * ("Pending" until paid) would be a second, different answer to the same question.
 */
export function transactionStatusBadge(status: string, claim: ClaimState | null): ReturnType<typeof ledgerStatusBadge> {
  return claim ? { label: claim.label, tone: CLAIM_TONES[claim.tone] } : ledgerStatusBadge(status)
}

/** A 'streak bonus' description's note: the text in parentheses, or 'Streak bonus applied!'. */
export function streakBonusNote(description: string): string | null {
  if (!/streak bonus/i.test(description)) return null
  const inParentheses = /\(([^()]*\S[^()]*)\)/.exec(description)?.[1]?.trim()
  return inParentheses || 'Streak bonus applied!'
}

// ---------------------------------------------------------------------------------------------
// The node's view of a transaction (spec 2 §3 "Blockchain transaction details")

export type ChainTransactionDetails = {
  txId: string
  status: 'confirmed' | 'pending' | 'failed'
  blockNumber: number
  blockId: string
  /** ISO-8601, from the block. */
  timestamp: string
  from: string
  /** null for a contract deployment. */
  to: string | null
  valueWei: string
  gasUsed: number
  gasLimit: number
  /** VTHO per unit of gas. */
  gasPriceVtho: string
  feeVtho: string
  data: string
  clauseCount: number
}

export type ChainRead =
  | { state: 'ok'; details: ChainTransactionDetails }
  | { state: 'pending' }
  | { state: 'not_found' }
  | { state: 'unreachable'; error: string }

/** A wei amount with up to 8 decimals and no trailing zeros: '0.5', '0.00001', '12'. */
export function formatTokenAmount(wei: bigint): string {
  return formatUnits(wei, 8).replace(/\.?0+$/, '')
}

function toBigInt(value: unknown, what: string): bigint {
  try {
    if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) return BigInt(value)
  } catch {
    // handled below
  }
  throw new ThorError('bad_response', `The VeChain node answered an invalid ${what}`)
}

function toDetails(tx: ThorTransaction, receipt: TxReceipt): ChainTransactionDetails {
  const clause = tx.clauses[0]
  const paid = toBigInt(receipt.paid, 'fee')
  // A typed (dynamic fee) transaction has no coefficient: what it paid per gas is its price.
  const gasPrice =
    typeof tx.gasPriceCoef === 'number' ? legacyGasPrice(tx.gasPriceCoef) : receipt.gasUsed > 0 ? paid / BigInt(receipt.gasUsed) : 0n
  return {
    txId: tx.id,
    status: receipt.reverted ? 'failed' : 'confirmed',
    blockNumber: receipt.meta.blockNumber,
    blockId: receipt.meta.blockID,
    timestamp: new Date(receipt.meta.blockTimestamp * 1000).toISOString(),
    from: tx.origin,
    to: clause?.to ?? null,
    valueWei: clause ? toBigInt(clause.value, 'value').toString() : '0',
    gasUsed: receipt.gasUsed,
    gasLimit: tx.gas,
    gasPriceVtho: formatTokenAmount(gasPrice),
    feeVtho: formatTokenAmount(paid),
    data: clause?.data ?? '0x',
    clauseCount: tx.clauses.length,
  }
}

/**
 * Reads a transaction and its receipt together (one round trip under the page's timeout). Known
 * to the node without a receipt means waiting in the pool; every failure becomes 'unreachable'
 * with words an operator can act on, so the page still renders.
 */
export async function readChainTransaction(thor: ThorClient, txId: string): Promise<ChainRead> {
  try {
    const [tx, receipt] = await Promise.all([thor.getTransaction(txId, { pending: true }), thor.getReceipt(txId)])
    if (!tx) return { state: 'not_found' }
    if (!tx.meta || !receipt) return { state: 'pending' }
    if (receipt.meta.txID.toLowerCase() !== txId.toLowerCase()) {
      throw new ThorError('bad_response', `The VeChain node answered the receipt of ${receipt.meta.txID} for ${txId}`)
    }
    return { state: 'ok', details: toDetails(tx, receipt) }
  } catch (error) {
    return { state: 'unreachable', error: describeThorError(error) }
  }
}

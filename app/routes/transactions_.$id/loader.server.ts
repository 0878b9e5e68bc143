import type { SerializeFrom } from '@remix-run/node'
import { getThor } from '~/chain/chain.server'
import { isRealTxHash } from '~/chain/networks'
import { claimState } from '~/payouts/labels'
import type { User } from '~/users/users.server'
import {
  getUserTransaction,
  parseTransactionId,
  readChainTransaction,
  streakBonusNote,
  transactionStatusBadge,
  type ChainRead,
} from '~/users/transaction-detail.server'
import { getDb } from '~/utils/db.server'

export type Tab = 'details' | 'chain'

/** One ledger entry of the signed-in user, and (on the Blockchain Data tab) what the node says of it. */
export async function transactionPageData(request: Request, user: User, idParam: string | undefined) {
  const id = parseTransactionId(idParam)
  const entry = id === null ? null : await getUserTransaction(getDb(), user.id, id)
  if (!entry) throw new Response('Transaction not found', { status: 404 })
  const tab: Tab = new URL(request.url).searchParams.get('tab') === 'chain' ? 'chain' : 'details'
  // Only the Blockchain Data tab waits for the node, and only for a real transaction.
  const chain: ChainRead | null = tab === 'chain' && isRealTxHash(entry.txHash) ? await readChainTransaction(getThor(), entry.txHash) : null
  const claim = entry.type === 'token_claim' ? claimState({ status: entry.status, payoutStatus: entry.payoutStatus, error: entry.payoutError }) : null
  return {
    entry,
    tab,
    chain,
    // One status: a claim's own state, never "Pending" above "Claim: Awaiting payout" (issue 32).
    badge: transactionStatusBadge(entry.status, claim),
    streakNote: streakBonusNote(entry.description),
    claim,
  }
}

export type TransactionPageData = SerializeFrom<typeof transactionPageData>

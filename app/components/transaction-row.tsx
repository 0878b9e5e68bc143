import { Link } from '@remix-run/react'
import { explorerTxUrl, isRealTxHash } from '~/chain/networks'
import { displayAmountMilli, transactionTitle, transactionTypeLabel, type LedgerRowLike } from '~/engagement/history'
import { formatSigned } from '~/rewards/money'
import { claimState } from '~/payouts/labels'
import type { PayoutStatus } from '#db/schema'
import { verifiedSenderLabel } from './ereceipt'
import { Icon, type IconName } from './icons'

export type TransactionRowData = LedgerRowLike

const ICONS: Record<string, IconName> = {
  receipt_verification: 'receipt',
  store_addition: 'store',
  token_redemption: 'coins',
  token_claim: 'wallet',
  achievement_reward: 'trophy',
  referral_reward: 'users',
  admin_action: 'check',
}

export { transactionTypeLabel as transactionLabel }

// Built once: toLocaleDateString with options builds a new formatter on every call (a list of 20 rows).
const HISTORY_DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

export function formatHistoryDate(iso: string) {
  return HISTORY_DATE.format(new Date(iso))
}

/** 'View on VeChain' only for a real hash; otherwise what the entry is (decision 030). */
export function ChainStatus({ type, txHash, status, payoutStatus }: { type: string; txHash: string | null; status?: string; payoutStatus?: string | null }) {
  if (isRealTxHash(txHash)) {
    return (
      <a href={explorerTxUrl(txHash)} target="_blank" rel="noreferrer">
        View on VeChain
      </a>
    )
  }
  if (type !== 'token_claim') return <>Off-chain reward</>
  if (status === 'failed') return <>Claim failed, tokens returned</>
  // The same label as /redeem and the transaction page for the same claim (issue 24).
  return <>{claimState({ status: status === 'confirmed' ? 'confirmed' : 'pending', payoutStatus: (payoutStatus ?? null) as PayoutStatus | null, error: null }).label}</>
}

/** One history row: signed amount with two decimals, icon by type, claims negative; a maturing credit says until when (issue 38). */
export function TransactionRow({ tx }: { tx: TransactionRowData & { maturing?: string | null } }) {
  const amount = displayAmountMilli(tx)
  return (
    <li className="tx-row" data-testid="transaction-row">
      <span className="action-icon tx-icon">
        <Icon name={ICONS[tx.type] ?? 'coins'} title={transactionTypeLabel(tx.type)} />
      </span>
      <div className="tx-main">
        {/* The title opens the entry's page; the explorer link stays a separate link beside it. */}
        <Link to={`/transactions/${tx.id}`} className="tx-title tx-title-link">
          {transactionTitle(tx)}
        </Link>
        <div className="small muted">
          {formatHistoryDate(tx.createdAt)}
          {' · '}
          <ChainStatus type={tx.type} txHash={tx.txHash} status={tx.status} payoutStatus={tx.payoutStatus} />
          {tx.verifiedSender ? ` · ${verifiedSenderLabel(tx.verifiedSender)}` : null}
          {tx.maturing ? <span data-testid="transaction-maturing">{` · ${tx.maturing}`}</span> : null}
        </div>
      </div>
      <span className={`tx-amount ${amount < 0 ? 'negative' : 'positive'}`}>{formatSigned(amount)}</span>
    </li>
  )
}

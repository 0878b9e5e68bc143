import { explorerTxUrl, isRealTxHash } from '~/chain/networks'
import { formatSigned } from '~/rewards/money'
import { Icon, type IconName } from './icons'

export type TransactionRowData = {
  id: number
  type: string
  amountMilli: number
  description: string
  status: string
  txHash: string | null
  createdAt: string
}

const ICONS: Record<string, IconName> = {
  receipt_verification: 'receipt',
  store_addition: 'store',
  token_redemption: 'coins',
  token_claim: 'wallet',
  achievement_reward: 'trophy',
  referral_reward: 'users',
  admin_action: 'check',
}

const LABELS: Record<string, string> = {
  receipt_verification: 'Receipt verified',
  store_addition: 'Store added',
  token_redemption: 'Token redemption',
  token_claim: 'Token claim',
  achievement_reward: 'Achievement reward',
  referral_reward: 'Referral reward',
  admin_action: 'Adjustment',
}

export function transactionLabel(type: string) {
  return LABELS[type] ?? type
}

/** One history row: signed amount, icon by type, explorer link only for a real hash (DECISIONS 8). */
export function TransactionRow({ tx }: { tx: TransactionRowData }) {
  const amount = tx.type === 'token_claim' ? -Math.abs(tx.amountMilli) : tx.amountMilli
  return (
    <li className="row between" style={{ padding: '0.6rem 0', borderBottom: '1px solid var(--line)', alignItems: 'flex-start' }}>
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <span className="action-icon" style={{ width: 36, height: 36 }}>
          <Icon name={ICONS[tx.type] ?? 'coins'} />
        </span>
        <div>
          <div style={{ fontWeight: 600 }}>{tx.description || transactionLabel(tx.type)}</div>
          <div className="small muted">
            {new Date(tx.createdAt).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}
            {' · '}
            {isRealTxHash(tx.txHash) ? (
              <a href={explorerTxUrl(tx.txHash)} target="_blank" rel="noreferrer">
                View on VeChain
              </a>
            ) : tx.type === 'token_claim' ? (
              'Pending Claim'
            ) : tx.status === 'pending' ? (
              'Pending review'
            ) : (
              'Off-chain reward'
            )}
          </div>
        </div>
      </div>
      <span style={{ fontWeight: 800, color: amount < 0 ? 'var(--red-600)' : 'var(--green-700)', whiteSpace: 'nowrap' }}>
        {formatSigned(amount)}
      </span>
    </li>
  )
}

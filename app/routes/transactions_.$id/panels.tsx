import { Link } from '@remix-run/react'
import { explorerTxUrl, isRealTxHash } from '~/chain/networks'
import { formatUnits } from '~/chain/units'
import { displayAmountMilli, transactionTitle, transactionTypeLabel } from '~/engagement/history'
import { formatSigned } from '~/rewards/money'
import type { TransactionPageData } from './loader.server'
import { Icon } from '~/components/icons'
import { WithSupportLink } from '~/components/support-link'

// The two tabs of /transactions/{id}: the ledger entry, and what the VeChain node says about it.

type Data = TransactionPageData

const DATA_SHOWN = 200
const CHAIN_STATUS = {
  confirmed: { label: 'Confirmed', tone: 'ok' },
  pending: { label: 'Pending', tone: 'warn' },
  failed: { label: 'Failed', tone: 'bad' },
} as const

/** VET with every decimal it has and none it does not: '0', '1.5'. */
function formatVet(wei: string) {
  return formatUnits(BigInt(wei), 18).replace(/\.?0+$/, '')
}

export function formatUtc(iso: string) {
  return `${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`
}

function ExplorerLink({ hash }: { hash: string }) {
  return (
    <a href={explorerTxUrl(hash)} target="_blank" rel="noreferrer">
      View on VeChain <Icon name="external" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}

export function DetailsPanel({ data }: { data: Data }) {
  const { entry, badge, claim } = data
  const amount = displayAmountMilli(entry)
  return (
    <dl className="kv">
      <dt>Description</dt>
      <dd>{transactionTitle(entry)}</dd>
      <dt>Type</dt>
      <dd>{transactionTypeLabel(entry.type)}</dd>
      <dt>Amount</dt>
      <dd>{formatSigned(amount)} B3TR</dd>
      <dt>Status</dt>
      <dd>
        <span className={`status-badge ${badge.tone}`} data-testid="tx-status">
          {badge.label}
        </span>
        {claim?.detail ? (
          <div className="small muted">
            <WithSupportLink text={claim.detail} />
          </div>
        ) : null}
      </dd>
      <dt>Date</dt>
      <dd>
        <time dateTime={entry.createdAt}>{formatUtc(entry.createdAt)}</time>
      </dd>
      {data.streakNote ? (
        <>
          <dt>Streak bonus</dt>
          <dd>
            <span className="streak-note">{data.streakNote}</span>
          </dd>
        </>
      ) : null}
      <dt>Transaction hash</dt>
      <dd>
        {isRealTxHash(entry.txHash) ? (
          <>
            <div className="mono">{entry.txHash}</div>
            <ExplorerLink hash={entry.txHash} />
          </>
        ) : (
          <span className="muted">{entry.type === 'token_claim' ? 'Not paid on-chain yet' : 'None: off-chain reward'}</span>
        )}
      </dd>
    </dl>
  )
}

export function ChainPanel({ data, retryHref }: { data: Data; retryHref: string }) {
  const { entry, chain, claim } = data
  if (!isRealTxHash(entry.txHash) || !chain) {
    return claim ? (
      <p className="muted">
        This claim has not been paid on-chain yet. Status: <strong>{claim.label}</strong>
        {claim.detail ? (
          <span className="small">
            {' · '}
            <WithSupportLink text={claim.detail} />
          </span>
        ) : null}
      </p>
    ) : (
      <p className="muted">This entry has no on-chain transaction: it is an off-chain reward.</p>
    )
  }
  if (chain.state === 'pending') {
    return (
      <div className="stack" style={{ gap: '0.5rem' }}>
        <p style={{ margin: 0 }}>
          <span className="status-badge warn">Pending</span> Waiting to be included in a block.
        </p>
        <div className="mono">{entry.txHash}</div>
        <ExplorerLink hash={entry.txHash} />
      </div>
    )
  }
  if (chain.state !== 'ok') {
    return (
      <div className="empty" role="alert">
        <h3>No Blockchain Data</h3>
        <p className="muted">Failed to fetch blockchain details for this transaction</p>
        <p className="small muted chain-error">{chain.state === 'not_found' ? 'The VeChain node does not know this transaction.' : chain.error}</p>
        <Link to={retryHref} className="btn secondary" preventScrollReset>
          Retry
        </Link>
      </div>
    )
  }
  const d = chain.details
  const status = CHAIN_STATUS[d.status]
  const data0x = d.data.length > 2 ? d.data : null
  return (
    <dl className="kv" data-testid="chain-details">
      <dt>Status</dt>
      <dd>
        <span className={`status-badge ${status.tone}`}>{status.label}</span>
      </dd>
      <dt>Transaction</dt>
      <dd>
        <div className="mono">{d.txId}</div>
        <ExplorerLink hash={d.txId} />
      </dd>
      <dt>Block</dt>
      <dd>
        {d.blockNumber.toLocaleString('en-US')}
        <div className="mono small muted">{d.blockId}</div>
      </dd>
      <dt>Timestamp</dt>
      <dd>
        <time dateTime={d.timestamp}>{formatUtc(d.timestamp)}</time>
      </dd>
      <dt>From</dt>
      <dd className="mono">{d.from}</dd>
      <dt>To</dt>
      <dd className="mono">
        {d.to ?? 'Contract creation'}
        {d.clauseCount > 1 ? <div className="small muted">First of {d.clauseCount} clauses</div> : null}
      </dd>
      <dt>Value (VET)</dt>
      <dd>{formatVet(d.valueWei)}</dd>
      <dt>Gas used</dt>
      <dd>
        {d.gasUsed.toLocaleString('en-US')} of {d.gasLimit.toLocaleString('en-US')}
      </dd>
      <dt>Gas price (VTHO)</dt>
      <dd>{d.gasPriceVtho}</dd>
      <dt>Fee (VTHO)</dt>
      <dd>{d.feeVtho}</dd>
      <dt>Data</dt>
      <dd>
        {data0x ? (
          <>
            <code className="mono chain-data">{data0x.length > DATA_SHOWN ? `${data0x.slice(0, DATA_SHOWN)}…` : data0x}</code>
            {data0x.length > DATA_SHOWN ? (
              <div className="small muted">
                First {DATA_SHOWN} of {data0x.length.toLocaleString('en-US')} characters
              </div>
            ) : null}
          </>
        ) : (
          <span className="muted">None</span>
        )}
      </dd>
    </dl>
  )
}


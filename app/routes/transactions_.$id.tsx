import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, type SerializeFrom } from '@remix-run/node'
import { isRouteErrorResponse, Link, useLoaderData, useNavigation, useRouteError } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { getThor } from '~/chain/chain.server'
import { explorerTxUrl, isRealTxHash } from '~/chain/networks'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { displayAmountMilli, transactionTypeLabel } from '~/engagement/history'
import { claimState } from '~/payouts/labels'
import { formatSigned } from '~/rewards/money'
import chainStyles from '~/styles/chain.css'
import styles from '~/styles/engagement.css'
import { formatUnits } from '~/chain/units'
import {
  getUserTransaction,
  ledgerStatusBadge,
  parseTransactionId,
  readChainTransaction,
  streakBonusNote,
  type ChainRead,
} from '~/users/transaction-detail.server'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'stylesheet', href: chainStyles },
]

type Tab = 'details' | 'chain'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const id = parseTransactionId(params.id)
  const entry = id === null ? null : await getUserTransaction(getDb(), user.id, id)
  if (!entry) throw new Response('Transaction not found', { status: 404 })
  const tab: Tab = new URL(request.url).searchParams.get('tab') === 'chain' ? 'chain' : 'details'
  // Only the Blockchain Data tab waits for the node, and only for a real transaction.
  const chain: ChainRead | null = tab === 'chain' && isRealTxHash(entry.txHash) ? await readChainTransaction(getThor(), entry.txHash) : null
  return json({
    entry,
    tab,
    chain,
    badge: ledgerStatusBadge(entry.status),
    streakNote: streakBonusNote(entry.description),
    claim: entry.type === 'token_claim' ? claimState({ status: entry.status, payoutStatus: entry.payoutStatus, error: entry.payoutError }) : null,
  })
}

export const meta: MetaFunction = () => [{ title: 'Transaction · ReCircle' }]

type Data = SerializeFrom<typeof loader>

const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'details', label: 'Transaction Details' },
  { id: 'chain', label: 'Blockchain Data' },
]
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

function formatUtc(iso: string) {
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

function DetailsPanel({ data }: { data: Data }) {
  const { entry, badge, claim } = data
  const amount = displayAmountMilli(entry)
  return (
    <dl className="kv">
      <dt>Description</dt>
      <dd>{entry.description || transactionTypeLabel(entry.type)}</dd>
      <dt>Type</dt>
      <dd>{transactionTypeLabel(entry.type)}</dd>
      <dt>Amount</dt>
      <dd>{formatSigned(amount)} B3TR</dd>
      <dt>Status</dt>
      <dd>
        <span className={`status-badge ${badge.tone}`} data-testid="tx-status">
          {badge.label}
        </span>
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
      {claim ? (
        <>
          <dt>Claim</dt>
          <dd>
            {claim.label}
            {claim.detail ? <div className="small muted">{claim.detail}</div> : null}
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

function ChainPanel({ data, retryHref }: { data: Data; retryHref: string }) {
  const { entry, chain, claim } = data
  if (!isRealTxHash(entry.txHash) || !chain) {
    return claim ? (
      <p className="muted">
        This claim has not been paid on-chain yet. Status: <strong>{claim.label}</strong>
        {claim.detail ? <span className="small"> · {claim.detail}</span> : null}
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

export default function TransactionDetail() {
  const data = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const { entry, tab } = data
  const amount = displayAmountMilli(entry)
  const base = `/transactions/${entry.id}`
  const fetchingChain =
    navigation.state === 'loading' &&
    navigation.location.pathname === base &&
    new URLSearchParams(navigation.location.search).get('tab') === 'chain'
  return (
    <div className="stack tx-detail">
      <Link to="/transactions" className="back-link">
        <Icon name="arrowLeft" /> Back to transactions
      </Link>
      <section className="card tx-detail-head" aria-labelledby="tx-detail-title">
        <div className="small muted">{transactionTypeLabel(entry.type)}</div>
        <h1 id="tx-detail-title" className={`tx-amount ${amount < 0 ? 'negative' : 'positive'}`}>
          {formatSigned(amount)} B3TR
        </h1>
        <div className="small muted">
          <time dateTime={entry.createdAt}>{formatUtc(entry.createdAt)}</time>
        </div>
      </section>

      <div className="tabs tx-tabs" role="tablist" aria-label="Transaction views">
        {TABS.map((t) => (
          <Link
            key={t.id}
            id={`tx-tab-${t.id}`}
            to={`${base}?tab=${t.id}`}
            role="tab"
            aria-selected={tab === t.id}
            aria-controls="tx-panel"
            preventScrollReset
            replace
          >
            {t.label}
          </Link>
        ))}
      </div>

      <section className="card" role="tabpanel" id="tx-panel" aria-labelledby={`tx-tab-${tab}`} aria-busy={fetchingChain}>
        {fetchingChain ? (
          <p className="row fetching" role="status">
            <span className="spinner" aria-hidden="true" /> Fetching data from VeChain Thor blockchain...
          </p>
        ) : tab === 'chain' ? (
          <ChainPanel data={data} retryHref={`${base}?tab=chain`} />
        ) : (
          <DetailsPanel data={data} />
        )}
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="gate">
        <h1>Transaction not found</h1>
        <p className="muted">There is no transaction with this number in your history.</p>
        <Link to="/transactions" className="btn">
          Back to transactions
        </Link>
      </div>
    )
  }
  return <GeneralErrorBoundary />
}

import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse, Link, useLoaderData, useNavigation, useRouteError } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ChainPanel, DetailsPanel, formatUtc } from './panels'
import { transactionPageData, type Tab } from './loader.server'
import { Icon } from '~/components/icons'
import { displayAmountMilli, transactionTypeLabel } from '~/engagement/history'
import { formatSigned } from '~/rewards/money'
import chainStyles from '~/styles/chain.css'
import styles from '~/styles/engagement.css'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'stylesheet', href: chainStyles },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  return json(await transactionPageData(request, user, params.id))
}

export const meta: MetaFunction = () => [{ title: 'Transaction · ReCircle' }]

const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'details', label: 'Transaction Details' },
  { id: 'chain', label: 'Blockchain Data' },
]
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

import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { EngagementIcon } from '~/components/engagement-icons'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { MoneyInFlight } from '~/components/money-in-flight'
import { TransactionRow } from '~/components/transaction-row'
import { parsePage } from '~/engagement/history'
import { getBalances } from '~/rewards/ledger.server'
import { formatClaimableAt, maturingExplained, maturingLine } from '~/rewards/maturing'
import { getEnv } from '~/utils/env.server'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/engagement.css'
import { getTransactionStats, searchUserTransactions } from '~/users/history.server'
import { getMoneyOverview } from '~/users/money.server'
import { moneyLines } from '~/rewards/money-lines'
import { shortAddress } from '~/chain/networks'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Tokens · ReCircle' }]

const MAX_QUERY = 100

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const params = new URL(request.url).searchParams
  const query = (params.get('q') ?? '').trim().slice(0, MAX_QUERY)
  const db = getDb()
  const [result, balances, stats, money] = await Promise.all([
    searchUserTransactions(db, user.id, { query, page: parsePage(params.get('page')) }),
    getBalances(db, user.id),
    getTransactionStats(db, user.id),
    getMoneyOverview(db, user.id),
  ])
  // Issue 38: what is still maturing, in words a newcomer understands.
  const maturing = maturingLine(balances.pendingMilli, balances.maturing)
  const explained = maturing ? maturingExplained(getEnv().PHOTO_REWARD_HOLD_HOURS) : null
  // Each entry still maturing says so (the time is compared here, so the page reads the same without JavaScript).
  const now = new Date().toISOString()
  const items = result.items.map((tx) => ({ ...tx, maturing: tx.claimableAt && tx.claimableAt > now ? `maturing until ${formatClaimableAt(tx.claimableAt)}` : null }))
  // Spec 2 §2: the explorer shows the address as its first 8 and last 6 characters.
  return json({ query, balanceMilli: balances.claimableMilli, maturing, explained, money: moneyLines(money), stats, address: shortAddress(user.walletAddress, 8, 6), ...result, items })
}

function pageHref(query: string, page: number) {
  const params = new URLSearchParams()
  if (query) params.set('q', query)
  if (page > 1) params.set('page', String(page))
  const search = params.toString()
  return search ? `/transactions?${search}` : '/transactions'
}

export default function Transactions() {
  const data = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <section className="card hero">
        <h1 style={{ color: '#fff', marginBottom: 4 }}>Tokens</h1>
        <div className="small">
          Your B3TR transactions · <span data-testid="tokens-address" title="Wallet address">{data.address}</span>
        </div>
        <div style={{ fontSize: '1.8rem', fontWeight: 800 }} data-testid="tokens-balance">
          {formatB3tr(data.balanceMilli)} B3TR
        </div>
        {data.maturing ? (
          <div className="small" data-testid="tokens-maturing">
            {data.maturing}
          </div>
        ) : null}
      </section>
      {data.explained ? (
        <p className="small muted" style={{ margin: 0 }} data-testid="tokens-maturing-explained">
          {data.explained}
        </p>
      ) : null}
      <MoneyInFlight lines={data.money} />
      <Link to="/receipts" className="btn secondary block">
        My Receipts
      </Link>

      <dl className="stats-list" aria-label="Transaction stats">
        <div>
          <dt>Transactions</dt>
          <dd data-testid="stat-transactions">{data.stats.totalTransactions}</dd>
        </div>
        <div>
          <dt>B3TR earned (all time)</dt>
          <dd data-testid="stat-total-b3tr">{formatB3tr(data.stats.earnedMilli)}</dd>
        </div>
        <div>
          <dt>Receipts verified</dt>
          <dd data-testid="stat-receipts">{data.stats.receiptVerifications}</dd>
        </div>
      </dl>

      <Form method="get" action="/transactions" className="search-form" role="search">
        <label htmlFor="tx-search" className="sr-only">
          Search transactions
        </label>
        <input
          id="tx-search"
          className="input"
          type="search"
          name="q"
          defaultValue={data.query}
          key={data.query}
          placeholder="Type, amount or description"
          maxLength={MAX_QUERY}
        />
        <button type="submit" className="btn" aria-label="Search">
          <EngagementIcon name="search" />
        </button>
      </Form>

      <section className="card" aria-labelledby="tx-title">
        <div className="heading-row">
          <h2 id="tx-title" style={{ margin: 0 }}>
            Transaction History
          </h2>
          {data.total > 0 ? (
            <span className="small muted" data-testid="tx-count">
              {data.total} {data.total === 1 ? 'transaction' : 'transactions'}
            </span>
          ) : null}
        </div>
        {!data.hasAny ? (
          <div className="empty">
            <h3>No Transactions Yet</h3>
            <p className="muted">Start earning B3TR tokens by verifying receipts</p>
            <Link to="/scan" className="btn">
              Scan a Receipt
            </Link>
          </div>
        ) : data.total === 0 ? (
          <div className="empty">
            <h3>No Results Found</h3>
            <p className="muted">Try a different search term</p>
            <Link to="/transactions" className="btn secondary">
              Clear search
            </Link>
          </div>
        ) : (
          <ul className="tx-list">
            {data.items.map((tx) => (
              <TransactionRow key={tx.id} tx={tx} />
            ))}
          </ul>
        )}
        {data.pageCount > 1 ? (
          <nav className="pager" aria-label="Pages">
            {data.page > 1 ? (
              <Link to={pageHref(data.query, data.page - 1)} className="btn secondary" rel="prev">
                Previous
              </Link>
            ) : (
              <span />
            )}
            <span className="small muted" aria-current="page">
              Page {data.page} of {data.pageCount}
            </span>
            {data.page < data.pageCount ? (
              <Link to={pageHref(data.query, data.page + 1)} className="btn secondary" rel="next">
                Next
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireAdmin } from '~/auth/auth.server'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { formatAge, formatMs } from '~/ops/figures'
import { readAnalysisLatencyToday, readOperatorFigures } from '~/ops/figures.server'
import { PAYOUT_STATUSES, PAYOUT_STATUS_LABELS } from '~/payouts/labels'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/chain.css'
import { getDb } from '~/utils/db.server'

// The operator's figures in one page (issue 25): the same database figures /metrics reads at scrape
// time, for admins without Prometheus. Server-rendered; refresh to update.

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Operations · ReCircle Admin' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const db = getDb()
  const now = new Date()
  const [figures, latency] = await Promise.all([readOperatorFigures(db, now), readAnalysisLatencyToday(db, now)])
  return json({ figures, latency, at: now.toISOString() }, { headers: { 'Cache-Control': 'no-store' } })
}

function Stat({ value, label, testId }: { value: string | number; label: string; testId?: string }) {
  return (
    <div className="stat" data-testid={testId}>
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
    </div>
  )
}

export default function AdminOverview() {
  const { figures, latency, at } = useLoaderData<typeof loader>()
  const { review, payouts, ledger, analysisJobs } = figures
  const readers = Object.entries(latency.byReader)
  return (
    <div className="stack">
      <h1 style={{ margin: 0 }}>Operations</h1>
      <AdminNav />
      <p className="small muted" style={{ margin: 0 }}>
        As of {at.slice(11, 19)} UTC, from the database (every instance shows the same). Prometheus reads the same figures from <code>/metrics</code>.
      </p>

      <section className="card stack" aria-labelledby="review-title" style={{ gap: '0.6rem' }}>
        <div className="row between">
          <h2 id="review-title" style={{ margin: 0 }}>
            Review backlog
          </h2>
          <Link to="/admin/receipts" className="small">
            Review queue
          </Link>
        </div>
        <div className="count-grid">
          <Stat value={review.size} label="Receipts waiting" testId="review-size" />
          <Stat value={review.size ? formatAge(review.oldestAgeSeconds) : '—'} label="Oldest waiting" testId="review-oldest" />
          <Stat value={analysisJobs.queued} label="Photos queued for a worker" />
        </div>
      </section>

      <section className="card stack" aria-labelledby="payouts-title" style={{ gap: '0.6rem' }}>
        <div className="row between">
          <h2 id="payouts-title" style={{ margin: 0 }}>
            Payout queue
          </h2>
          <Link to="/admin/payouts" className="small">
            Payouts
          </Link>
        </div>
        <div className="count-grid">
          <Stat value={payouts.unconfirmed} label="Not yet confirmed" testId="payouts-unconfirmed" />
          <Stat value={payouts.unconfirmed ? formatAge(payouts.oldestUnconfirmedAgeSeconds) : '—'} label="Oldest unconfirmed" testId="payouts-oldest" />
        </div>
        <table className="simple">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col" style={{ textAlign: 'right' }}>
                Payouts
              </th>
              <th scope="col" style={{ textAlign: 'right' }}>
                B3TR
              </th>
            </tr>
          </thead>
          <tbody>
            {PAYOUT_STATUSES.map((status) => (
              <tr key={status}>
                <td>{PAYOUT_STATUS_LABELS[status]}</td>
                <td style={{ textAlign: 'right' }} data-testid={`payouts-${status}`}>
                  {payouts.byStatus[status].count}
                </td>
                <td style={{ textAlign: 'right' }}>{formatB3tr(payouts.byStatus[status].amountMilli)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="card stack" aria-labelledby="latency-title" style={{ gap: '0.6rem' }}>
        <h2 id="latency-title" style={{ margin: 0 }}>
          Analysis latency today
        </h2>
        <div className="count-grid">
          <Stat value={latency.count} label="Analyses (UTC day)" testId="analyses-today" />
          <Stat value={formatMs(latency.medianMs)} label="Median" testId="latency-median" />
          <Stat value={formatMs(latency.p90Ms)} label="90th percentile" testId="latency-p90" />
          <Stat value={formatMs(latency.maxMs)} label="Slowest" />
        </div>
        {readers.length > 0 ? (
          <p className="small muted" style={{ margin: 0 }}>
            Decided by {readers.map(([reader, n]) => `${reader === 'paddleocr' ? 'PaddleOCR' : reader} (${n})`).join(', ')}. Time from the photo to the
            verdict, waiting for a reader included.
          </p>
        ) : null}
      </section>

      <section className="card stack" aria-labelledby="ledger-title" style={{ gap: '0.6rem' }}>
        <h2 id="ledger-title" style={{ margin: 0 }}>
          Ledger totals
        </h2>
        <div className="count-grid">
          <Stat value={formatB3tr(ledger.creditedMilli)} label="B3TR credited" testId="ledger-credited" />
          <Stat value={formatB3tr(ledger.claimedMilli)} label="B3TR claimed" testId="ledger-claimed" />
          <Stat value={formatB3tr(ledger.paidMilli)} label="B3TR paid on chain" testId="ledger-paid" />
        </div>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

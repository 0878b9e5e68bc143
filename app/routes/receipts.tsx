import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { ReceiptStatusChip } from '~/components/receipt-status'
import { formatHistoryDate } from '~/components/transaction-row'
import { reviewExpectedBy } from '~/receipts/status'
import { listUserReceiptsPage } from '~/receipts/user-receipts.server'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/engagement.css'
import { getDb } from '~/utils/db.server'
import { parseRowId } from '~/utils/ids'
import { formatAmount } from '~/utils/money-format'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'My Receipts · ReCircle' }]

const PAGE_SIZE = 20

/** My receipts (issue 32): every receipt the user sent, newest first, with where it stands. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const url = new URL(request.url)
  const before = parseRowId(url.searchParams.get('before'))
  const page = await listUserReceiptsPage(getDb(), user.id, { before, limit: PAGE_SIZE })
  return json({ ...page, firstPage: before === null }, { headers: { 'Cache-Control': 'private, no-store' } })
}

export default function MyReceipts() {
  const { receipts, nextBefore, firstPage } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <h1>My Receipts</h1>
      {receipts.length === 0 ? (
        <div className="card center">
          <h2>{firstPage ? 'No receipts yet' : 'No older receipts'}</h2>
          <p className="muted">Scan a ride, transit, EV rental or e-scooter receipt, or send its receipt e-mail, and it shows here.</p>
          <Link to="/scan" className="btn">
            Scan a Receipt
          </Link>
        </div>
      ) : (
        <ul className="receipt-list" aria-label="Your receipts, newest first">
          {receipts.map((r) => (
            <li key={r.id}>
              <Link to={`/scan/receipts/${r.id}`} className="receipt-row card">
                {r.hasImage ? (
                  <img src={`/receipts/${r.id}/image`} alt="" width={56} height={56} loading="lazy" className="receipt-thumb" />
                ) : (
                  // An e-receipt shows its envelope; a photo kept past its retention shows a receipt.
                  <span className="receipt-thumb sender" aria-hidden="true">
                    <Icon name={r.verifiedSender ? 'mail' : 'receipt'} />
                  </span>
                )}
                <span className="receipt-main">
                  <span className="receipt-title">{r.storeName ?? `Receipt #${r.id}`}</span>
                  <span className="small muted">
                    {r.verifiedSender ? `E-mail from ${r.verifiedSender} · ` : ''}
                    {r.amount !== null ? formatAmount(r.amount, r.currency) : 'Amount not read'} ·{' '}
                    <span className="nowrap">{formatHistoryDate(r.purchaseDate ? `${r.purchaseDate}T12:00:00Z` : r.createdAt)}</span>
                  </span>
                  {r.status === 'pending_review' ? (
                    <span className="small">Decision expected by {reviewExpectedBy(r.createdAt)}</span>
                  ) : r.status === 'rejected' && r.rejectReason ? (
                    <span className="small">Reason: {r.rejectReason}</span>
                  ) : r.status === 'approved' && r.rewardMilli !== null ? (
                    <span className="small">+{formatB3tr(r.rewardMilli)} B3TR</span>
                  ) : null}
                </span>
                <ReceiptStatusChip status={r.status} />
              </Link>
            </li>
          ))}
        </ul>
      )}
      {nextBefore !== null ? (
        <Link to={`/receipts?before=${nextBefore}`} className="btn secondary block">
          Older receipts
        </Link>
      ) : null}
      {!firstPage ? (
        <Link to="/receipts" className="btn secondary block">
          Newest receipts
        </Link>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

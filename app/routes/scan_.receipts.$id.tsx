import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { useCallback, useEffect, useState } from 'react'
import { requireUser } from '~/auth/auth.server'
import { triggerAchievement } from '~/components/achievement-toast'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { VerifiedSender } from '~/components/ereceipt'
import { Icon } from '~/components/icons'
import { StreakCelebration } from '~/components/streak-celebration'
import { receiptClaimableAt } from '~/receipts/user-receipts.server'
import { formatClaimableAt } from '~/rewards/maturing'
import { getReceiptPage } from '~/receipts/receipt-page.server'
import { formatB3tr, wholeB3trText } from '~/rewards/money'
import { PASSPORT_EXPLAINED } from '~/receipts/standing'
import { CATEGORY_LABELS, isTransportCategory } from '~/analysis/categories'
import { CELEBRATION_STREAKS } from '~/rewards/streaks'
import { getDb } from '~/utils/db.server'
import styles from '~/styles/scan.css'
import { parseRowId } from '~/utils/ids'
import { formatAmount } from '~/utils/money-format'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Receipt Submitted · ReCircle' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const receipt = await getReceiptPage(getDb(), user.id, parseRowId(params.id) ?? 0)
  if (!receipt) throw new Response('Not Found', { status: 404 })
  // Issue 38: a photo approved automatically matures before its reward can be claimed.
  const claimableAt = receipt.status === 'approved' ? await receiptClaimableAt(getDb(), user.id, receipt.id) : null
  return json({ receipt, currentStreak: user.currentStreak, maturing: claimableAt ? `Claimable from ${formatClaimableAt(claimableAt)}` : null })
}

const SUCCESS_DELAY_MS = 7000

export default function ReceiptResult() {
  const { receipt, maturing } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  const fresh = params.get('new') === '1'
  const streak = Number(params.get('streak'))
  const celebrate = fresh && (CELEBRATION_STREAKS as readonly number[]).includes(streak)
  const [celebrating, setCelebrating] = useState(false)
  const [showSuccess, setShowSuccess] = useState(true)

  useEffect(() => {
    if (!celebrate) return
    setCelebrating(true)
    setShowSuccess(false)
    // The success step follows after 7 s (spec 1 §4), even if the overlay is dismissed early.
    const timer = setTimeout(() => setShowSuccess(true), SUCCESS_DELAY_MS)
    return () => clearTimeout(timer)
  }, [celebrate])

  // One toast at a time: the achievement toast ('Achievement Unlocked', with Share) takes its turn
  // after the flashed 'Receipt Submitted!' and after the streak overlay. Triggered 1 s later
  // (spec 1 §4), after the toast has closed itself for the page change.
  useEffect(() => {
    if (!fresh || params.get('first') !== '1') return
    const timer = setTimeout(() => triggerAchievement('first_receipt'), 1000)
    return () => clearTimeout(timer)
  }, [fresh, params])

  const endCelebration = useCallback(() => {
    setCelebrating(false)
    setShowSuccess(true)
  }, [])

  const details = receipt.rewardDetails
  const firstBonus = receipt.rewardMilli !== null && details ? receipt.rewardMilli - details.totalMilli : 0
  return (
    <div className="stack">
      {celebrating ? (
        <StreakCelebration streak={streak} streakMultiplier={details?.streakMultiplier} onComplete={endCelebration} />
      ) : null}
      {showSuccess ? (
        <section className="card stack" aria-labelledby="result-title">
          <div className="gate" style={{ padding: '0.5rem 0 0' }}>
            <div className="icon-circle" aria-hidden="true">
              <Icon name={receipt.status === 'rejected' ? 'x' : 'check'} width={36} height={36} />
            </div>
            <h1 id="result-title">
              {receipt.status === 'approved' ? 'Receipt Verified!' : receipt.status === 'pending_review' ? 'Submitted for Review' : 'Receipt Rejected'}
            </h1>
            <p className="muted">Receipt ID: #{receipt.id}</p>
            {receipt.verifiedSender ? <VerifiedSender domain={receipt.verifiedSender} /> : null}
          </div>
          <dl className="summary-grid">
            <div>
              <dt>Service</dt>
              <dd>{receipt.storeName ?? '—'}</dd>
            </div>
            <div>
              <dt>Category</dt>
              <dd>{isTransportCategory(receipt.category) ? CATEGORY_LABELS[receipt.category] : '—'}</dd>
            </div>
            <div>
              <dt>Amount</dt>
              <dd>{receipt.amount !== null ? formatAmount(receipt.amount, receipt.currency) : '—'}</dd>
            </div>
            <div>
              <dt>Date</dt>
              <dd>{receipt.purchaseDate ?? '—'}</dd>
            </div>
          </dl>
          {receipt.status === 'approved' && details ? (
            <table className="breakdown" aria-label="Reward breakdown">
              <tbody>
                <tr>
                  <td>Base reward</td>
                  <td>{wholeB3trText(details.baseReward)}</td>
                </tr>
                <tr>
                  <td>Streak bonus</td>
                  <td>×{details.streakMultiplier}</td>
                </tr>
                <tr>
                  <td>Transportation bonus</td>
                  <td>×{details.transportMultiplier}</td>
                </tr>
                {firstBonus > 0 ? (
                  <tr>
                    <td>First receipt bonus</td>
                    <td>+{formatB3tr(firstBonus)} B3TR</td>
                  </tr>
                ) : null}
                <tr className="total">
                  <td>Total</td>
                  <td data-testid="reward-total">{formatB3tr(receipt.rewardMilli ?? 0)} B3TR</td>
                </tr>
                {maturing ? (
                  <tr>
                    <td colSpan={2} className="small muted" data-testid="reward-maturing">
                      {maturing}: photo rewards mature before they can be claimed.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          ) : receipt.status === 'pending_review' ? (
            <div className="alert info" role="status">
              <strong>Manual review</strong>
              <p style={{ margin: '0.25rem 0 0' }}>
                Our team checks this receipt, usually within a day and at most within 48 hours. Your reward is credited as soon as it is approved.
              </p>
              {receipt.approvalPromise ? (
                <p style={{ margin: '0.25rem 0 0' }} data-testid="approval-promise">
                  Once approved it earns {formatB3tr(receipt.approvalPromise.totalMilli)} B3TR
                  {receipt.approvalPromise.firstReceiptBonusMilli > 0
                    ? ` (including the ${formatB3tr(receipt.approvalPromise.firstReceiptBonusMilli)} B3TR first-receipt bonus).`
                    : '.'}
                </p>
              ) : null}
              {receipt.reviewReasons.length ? (
                <ul className="review-list">
                  {receipt.reviewReasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              ) : null}
              {receipt.reviewReasons.some((r) => r.includes('VeBetter Passport')) ? <p className="small muted">{PASSPORT_EXPLAINED}</p> : null}
            </div>
          ) : (
            <div className="alert" role="status">
              {receipt.rejectReason ?? 'This receipt was not accepted.'}
            </div>
          )}
          <div className="btn-pair">
            <Link to="/scan" className="btn secondary" style={{ flex: 1 }}>
              Scan Another
            </Link>
            <Link to="/home" className="btn" style={{ flex: 1 }}>
              Return to Dashboard
            </Link>
          </div>
        </section>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

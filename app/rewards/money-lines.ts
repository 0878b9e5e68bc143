/**
 * Pure (issue 40): where a user's B3TR are, in lines a newcomer understands. Home and Tokens show
 * the same lines; GET /api/users/{id} gives the same figures.
 */
import { formatClaimableAt } from './maturing'
import { b3trText } from './money'

export type MoneyOverview = {
  claimableMilli: number
  /** Credited, still maturing (issue 38). */
  maturingMilli: number
  nextClaimableAt: string | null
  /** What receipts waiting for staff credit if approved. */
  inReviewMilli: number
  inReviewCount: number
  /** Claims taken from the balance and not yet confirmed on chain. */
  onItsWayMilli: number
  onItsWayCount: number
}

export type MoneyLine = { key: 'claimable' | 'maturing' | 'in-review' | 'on-its-way'; text: string; href: string }

export function moneyLines(o: MoneyOverview): MoneyLine[] {
  const lines: MoneyLine[] = [{ key: 'claimable', text: `${b3trText(o.claimableMilli)} you can claim now`, href: '/redeem' }]
  if (o.maturingMilli > 0) {
    const when = o.nextClaimableAt ? `: claimable from ${formatClaimableAt(o.nextClaimableAt)}` : ''
    lines.push({ key: 'maturing', text: `${b3trText(o.maturingMilli)} maturing${when}`, href: '/transactions' })
  }
  if (o.inReviewCount > 0) {
    const receipts = o.inReviewCount === 1 ? 'a receipt' : `${o.inReviewCount} receipts`
    lines.push({ key: 'in-review', text: `${b3trText(o.inReviewMilli)} in review: what approval of ${receipts} will credit`, href: '/receipts' })
  }
  if (o.onItsWayCount > 0) {
    const claims = o.onItsWayCount === 1 ? 'a claim' : `${o.onItsWayCount} claims`
    lines.push({ key: 'on-its-way', text: `${b3trText(o.onItsWayMilli)} on its way to your wallet (${claims} awaiting payout)`, href: '/redeem' })
  }
  return lines
}

/**
 * Where a user's B3TR are (issue 40), for Home, Tokens and GET /api/users/{id}: what can be claimed
 * now, what is maturing (issue 38), what receipts waiting for staff will credit if approved, and
 * what claims are on their way to the wallet. Every figure is read from the ledger and the receipts
 * as they stand; the pure wording is rewards/money-lines.ts.
 */
import type { DB } from '#db/db.server'
import { claimsOnTheirWay } from '~/claims/claims.server'
import { getInReview } from '~/receipts/reward-preview.server'
import { getBalances } from '~/rewards/ledger.server'
import type { MoneyOverview } from '~/rewards/money-lines'

export async function getMoneyOverview(db: DB, userId: number, now = new Date()): Promise<MoneyOverview> {
  const [balances, inReview, onItsWay] = await Promise.all([getBalances(db, userId, now), getInReview(db, userId), claimsOnTheirWay(db, userId)])
  return {
    claimableMilli: balances.claimableMilli,
    maturingMilli: balances.pendingMilli,
    nextClaimableAt: balances.maturing[0]?.claimableAt ?? null,
    inReviewMilli: inReview.milli,
    inReviewCount: inReview.count,
    onItsWayMilli: onItsWay.milli,
    onItsWayCount: onItsWay.count,
  }
}

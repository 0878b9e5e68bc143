import { describe, expect, it } from 'vitest'
import { readAnalysisLatencyToday, readOperatorFigures } from '../app/ops/figures.server'
import { createMetrics, scrape } from '../app/ops/metrics.server'
import { PAYOUT_STATUS_LABELS } from '../app/payouts/labels'
import { formatB3tr } from '../app/rewards/money'
import * as adminOverview from '../app/routes/admin._index'
import { getDb } from '../app/utils/db.server'
import { userWithClaim } from './utils/payouts'
import { renderRoute, textOf } from './utils/render'
import { getRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

// Issue 25: /admin shows an operator the figures /metrics serves: review backlog, payout queue,
// analysis latency today, ledger totals. Admins only; server-rendered.

const ctx = { context: {}, params: {} }

async function settle(promise: Promise<Response>): Promise<Response> {
  try {
    return await promise
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

let photo = 0
async function receiptWaitingForReview(userId: number, createdAt: Date, totalMs: number) {
  await getDb()
    .insertInto('receipts')
    .values({
      user_id: userId,
      image_hash: `overview-${Date.now()}-${photo++}`,
      image_phash: null,
      image: null,
      image_mime: null,
      store_name: 'Uber',
      category: 'ride_share',
      amount_cents: 1250,
      purchase_date: createdAt.toISOString().slice(0, 10),
      user_store_id: null,
      user_category: null,
      user_amount_cents: null,
      user_purchase_date: null,
      analysis_json: JSON.stringify({ reader: 'tesseract', timings: { totalMs } }),
      status: 'pending_review',
      reference_number: null,
      review_reasons_json: null,
      review_signals_json: null,
      reject_reason: null,
      reward_milli: null,
      reward_details_json: null,
      reviewed_by_user_id: null,
      reviewed_at: null,
      created_at: createdAt.toISOString(),
    })
    .execute()
}

describe('/admin', () => {
  it('redirects the signed-out, forbids non-admins, serves admins', async () => {
    const user = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    expect((await settle(adminOverview.loader({ ...ctx, request: getRequest('/admin') }))).status).toBe(302)
    expect((await settle(adminOverview.loader({ ...ctx, request: getRequest('/admin', user.cookie) }))).status).toBe(403)
    const res = await settle(adminOverview.loader({ ...ctx, request: getRequest('/admin', admin.cookie) }))
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
  })

  it('shows the backlog, the payout queue, today’s analysis latency and the ledger, as /metrics reads them', async () => {
    const { user } = await signInNewUser()
    const now = new Date()
    // The oldest waiting receipt: 3 hours old (before today's UTC midnight possibly, so not in latency).
    await receiptWaitingForReview(user.id, new Date(now.getTime() - 3 * 3600_000 - 5 * 60_000), 400)
    await receiptWaitingForReview(user.id, now, 300)
    await userWithClaim(7_250)

    const figures = await readOperatorFigures(getDb())
    const latency = await readAnalysisLatencyToday(getDb())
    expect(figures.review.size).toBeGreaterThanOrEqual(2)
    expect(figures.review.oldestAgeSeconds).toBeGreaterThanOrEqual(3 * 3600 + 5 * 60)
    expect(figures.payouts.byStatus.pending.count).toBeGreaterThanOrEqual(1)
    expect(latency.count).toBeGreaterThanOrEqual(1)
    expect(latency.byReader.tesseract).toBeGreaterThanOrEqual(1)

    const admin = await signInNewUser(ADMIN_WALLET)
    const text = textOf(await renderRoute('/admin', adminOverview, '/admin', admin.cookie))
    expect(text).toContain('Operations')
    expect(text).toContain(`Review backlog Review queue ${figures.review.size} Receipts waiting 3 h`)
    expect(text).toContain(`${figures.payouts.unconfirmed} Not yet confirmed`)
    expect(text).toContain(`${PAYOUT_STATUS_LABELS.pending} ${figures.payouts.byStatus.pending.count} ${formatB3tr(figures.payouts.byStatus.pending.amountMilli)}`)
    expect(text).toMatch(/Not yet confirmed \d+ s Oldest unconfirmed/)
    expect(text).toContain(`${latency.count} Analyses (UTC day)`)
    expect(text).toMatch(/\d+ ms Median/)
    expect(text).toContain(`${formatB3tr(figures.ledger.creditedMilli)} B3TR credited`)
    expect(text).toContain(`${formatB3tr(figures.ledger.claimedMilli)} B3TR claimed`)
    expect(text).toContain(`${formatB3tr(figures.ledger.paidMilli)} B3TR paid on chain`)

    // /metrics says the same.
    const metrics = await scrape(createMetrics({ defaultMetrics: false }), { db: getDb() })
    expect(metrics).toContain(`recircle_review_queue_size ${figures.review.size}`)
    expect(metrics).toContain(`recircle_payouts{status="pending"} ${figures.payouts.byStatus.pending.count}`)
    expect(metrics).toContain(`recircle_ledger_milli_b3tr{kind="credited"} ${figures.ledger.creditedMilli}`)
  })

  it('the admin menu leads to it, marked current there only', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const html = await renderRoute('/admin', adminOverview, '/admin', admin.cookie)
    expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*href="\/admin">Overview<\/a>/)
    expect(html).not.toMatch(/aria-current="page"[^>]*href="\/admin\/receipts"/)
  })
})

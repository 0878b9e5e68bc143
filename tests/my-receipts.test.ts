/**
 * Issue 32: a user always knows where a receipt stands. My receipts lists every receipt, newest
 * first, with one status label per status; Home shows a card while any waits for review.
 */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { rejectReceipt } from '../app/receipts/review.server'
import { submitReceipt } from '../app/receipts/receipts.server'
import type { StoredAnalysis } from '../app/analysis/stored-analysis'
import * as homePage from '../app/routes/home'
import * as receiptsPage from '../app/routes/receipts'
import { loader as thumbLoader } from '../app/routes/receipts_.$id.image'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { noiseImage } from './utils/images'
import { renderRoute, textOf } from './utils/render'
import { bodyOf, getRequest, signInNewUser } from './utils/requests'
import { asPerson } from './utils/standing'
import { ADMIN_WALLET } from './utils/wallet'
import { receiptRow } from './utils/receipt-rows'

const TODAY = new Date().toISOString().slice(0, 10)
let n = 0

async function send(userId: number, opts: { person?: boolean } = {}) {
  n += 1
  const a: StoredAnalysis = {
    isValid: true,
    storeName: 'Lyft',
    category: 'ride_share',
    totalAmount: 20 + n + (process.pid % 50) / 100,
    purchaseDate: TODAY,
    referenceNumber: `MINE${process.pid}X${n}`,
    confidence: 0.97,
    isAcceptable: true,
    needsManualReview: false,
    reasons: [],
  }
  const stored = await analyzeAndStore(getDb(), { userId, image: await noiseImage(), analyze: async () => a })
  const result = await submitReceipt(getDb(), {
    userId,
    analysisId: stored.id,
    values: { category: 'ride_share', amountCents: Math.round(a.totalAmount! * 100), purchaseDate: TODAY },
    maxAgeDays: 14,
    passport: opts.person ? asPerson : null,
  })
  if (!result.ok) throw new Error(result.error)
  return result
}

describe('My receipts', () => {
  it('lists every receipt newest first with Verified, In review and Rejected (with the reason), and never another user’s', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const { user, cookie } = await signInNewUser()
    const waiting = await send(user.id)
    const refused = await send(user.id)
    await rejectReceipt(getDb(), { adminUserId: admin.user.id, receiptId: refused.receiptId, reason: 'The date is not readable' })
    const paid = await send(user.id, { person: true })
    const other = await signInNewUser()
    await send(other.user.id)

    const data = await bodyOf(await receiptsPage.loader({ context: {}, params: {}, request: getRequest('/receipts', cookie) }))
    expect(data.receipts.map((r: { id: number }) => r.id)).toEqual([paid.receiptId, refused.receiptId, waiting.receiptId])
    const text = textOf(await renderRoute('/receipts', receiptsPage, '/receipts', cookie))
    expect(text).toContain('Verified')
    expect(text).toContain('In review')
    expect(text).toContain('Decision expected by')
    expect(text).toContain('Rejected')
    expect(text).toContain('Reason: The date is not readable')
    // Issue 40: the first-receipt bonus belongs to the earliest receipt not rejected, the one still
    // in review, so the receipt paid now is paid 9 (it was 9 + 10 to whichever was credited first).
    expect(text).toContain('+9.0 B3TR')
  })

  it('pages 20 at a time with plain links', async () => {
    const { user, cookie } = await signInNewUser()
    const ids: number[] = []
    // 23 receipts over the days' limit: inserted the way the ledger does not care about.
    for (let i = 0; i < 23; i++) {
      const row = await getDb()
        .insertInto('receipts')
        .values(
          receiptRow({
            user_id: user.id,
            image_hash: `page-${process.pid}-${user.id}-${i}`,
            store_name: 'Metro',
            category: 'public_transit',
            amount_cents: 290,
            purchase_date: TODAY,
            user_category: 'public_transit',
            user_amount_cents: 290,
            user_purchase_date: TODAY,
            analysis_json: '{}',
            status: 'pending_review',
            created_at: new Date().toISOString(),
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow()
      ids.push(row.id)
    }
    const first = await bodyOf(await receiptsPage.loader({ context: {}, params: {}, request: getRequest('/receipts', cookie) }))
    expect(first.receipts).toHaveLength(20)
    expect(first.nextBefore).toBe(ids[3])
    const second = await bodyOf(await receiptsPage.loader({ context: {}, params: {}, request: getRequest(`/receipts?before=${first.nextBefore}`, cookie) }))
    expect(second.receipts.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1], ids[0]])
    expect(second.nextBefore).toBeNull()
    expect(await renderRoute('/receipts', receiptsPage, '/receipts', cookie)).toContain(`href="/receipts?before=${ids[3]}"`)
  })

  it('serves a thumbnail of the user’s own photo only', async () => {
    const { user, cookie } = await signInNewUser()
    const mine = await send(user.id)
    const other = await signInNewUser()
    const res = await thumbLoader({ context: {}, params: { id: String(mine.receiptId) }, request: getRequest(`/receipts/${mine.receiptId}/image`, cookie) })
    expect(res.headers.get('Content-Type')).toBe('image/jpeg')
    const theirs = await thumbLoader({ context: {}, params: { id: String(mine.receiptId) }, request: getRequest(`/receipts/${mine.receiptId}/image`, other.cookie) }).catch((r) => r)
    expect((theirs as Response).status).toBe(404)
  })

  it('makes a thumbnail of a 49-megapixel photo (uploads allow 50) once, and keeps it (issue 38)', async () => {
    const { user, cookie } = await signInNewUser()
    const image = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#f4f1ea' } }).png().toBuffer()
    const row = await getDb()
      .insertInto('receipts')
      .values(receiptRow({ user_id: user.id, status: 'approved', analysis_json: '{}', image, image_mime: 'image/png' }))
      .returning('id')
      .executeTakeFirstOrThrow()
    const res = await thumbLoader({ context: {}, params: { id: String(row.id) }, request: getRequest(`/receipts/${row.id}/image`, cookie) })
    expect(res.status).toBe(200)
    const thumb = Buffer.from(await res.arrayBuffer())
    expect(await sharp(thumb).metadata()).toMatchObject({ format: 'jpeg', width: 128, height: 128 })
    const kept = await getDb().selectFrom('receipts').select('thumbnail').where('id', '=', row.id).executeTakeFirstOrThrow()
    expect(Buffer.compare(kept.thumbnail!, thumb)).toBe(0)
  }, 30_000)

  it('limits thumbnails per user (issue 38)', async () => {
    const before = process.env.RATE_LIMIT_THUMBNAIL_PER_USER_PER_MINUTE
    process.env.RATE_LIMIT_THUMBNAIL_PER_USER_PER_MINUTE = '3'
    resetEnvCache()
    try {
      const { user, cookie } = await signInNewUser()
      const mine = await send(user.id)
      const ask = () => thumbLoader({ context: {}, params: { id: String(mine.receiptId) }, request: getRequest(`/receipts/${mine.receiptId}/image`, cookie) }).catch((r: Response) => r)
      const answers = [await ask(), await ask(), await ask(), await ask()]
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429])
      expect(answers[3]!.headers.get('Retry-After')).toMatch(/^\d+$/)
    } finally {
      if (before === undefined) delete process.env.RATE_LIMIT_THUMBNAIL_PER_USER_PER_MINUTE
      else process.env.RATE_LIMIT_THUMBNAIL_PER_USER_PER_MINUTE = before
      resetEnvCache()
    }
  })

  it('shows an empty state that leads to Scan', async () => {
    const { cookie } = await signInNewUser()
    const text = textOf(await renderRoute('/receipts', receiptsPage, '/receipts', cookie))
    expect(text).toContain('No receipts yet')
    expect(text).toContain('Scan a Receipt')
  })
})

describe('Home while a receipt waits', () => {
  it('shows "1 receipt in review" linking to My receipts, and nothing once it is decided', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const { user, cookie } = await signInNewUser()
    const waiting = await send(user.id)
    const html = await renderRoute('/home', homePage, '/home', cookie)
    expect(textOf(html)).toContain('1 receipt in review')
    expect(html.match(/<a[^>]*data-testid="in-review-card"[^>]*>/)?.[0]).toContain('href="/receipts"')
    await rejectReceipt(getDb(), { adminUserId: admin.user.id, receiptId: waiting.receiptId, reason: 'Not a trip' })
    expect(textOf(await renderRoute('/home', homePage, '/home', cookie))).not.toContain('in review')
  })
})

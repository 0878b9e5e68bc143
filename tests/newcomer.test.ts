/**
 * Issue 40, "a newcomer can follow the money": what a receipt waiting for staff promises is what
 * approval credits, whatever order staff approve in, and a staff approval counts for the streak of
 * the day the receipt was submitted. Through the routes a rider and staff use; SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import type { StoredAnalysis } from '../app/analysis/stored-analysis'
import { NEW_WALLET_REVIEW_REASON } from '../app/receipts/standing'
import { SENT_BEFORE_STANDING_REASON } from '../app/receipts/wait-reasons'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { addUtcDays, utcDay } from '../app/utils/calendar'
import { action as reviewAction } from '../app/routes/admin.receipts/route'
import { action as submitAction } from '../app/routes/api.receipts'
import { loader as userLoader } from '../app/routes/api.users.$id'
import { loader as receiptLoader } from '../app/routes/scan_.receipts.$id'
import { loader as impactLoader } from '../app/routes/impact-explorer'
import { getDb } from '../app/utils/db.server'
import { noiseImage } from './utils/images'
import { bodyOf, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

type Who = Awaited<ReturnType<typeof signInNewUser>>
const TODAY = utcDay(new Date())
let trips = 0

/** A ride receipt the reader approves; a new wallet's photo of it waits for staff (standing, issue 31). */
async function sendPhoto(who: Who): Promise<number> {
  trips += 1
  const analysis: StoredAnalysis = {
    isValid: true,
    storeName: 'Lyft',
    category: 'ride_share',
    totalAmount: 12 + ((process.pid + trips) % 300) / 10,
    purchaseDate: TODAY,
    referenceNumber: `NEWCOMER${process.pid}N${trips}`,
    confidence: 0.98,
    isAcceptable: true,
    needsManualReview: false,
    reasons: [],
  }
  const stored = await analyzeAndStore(getDb(), { userId: who.user.id, image: await noiseImage(), analyze: async () => analysis })
  const res = await submitAction({
    context: { clientIp: `198.18.${trips % 250}.${(process.pid % 200) + 1}` },
    params: {},
    request: jsonRequest(
      '/api/receipts',
      { analysisId: stored.id, storeId: '1', category: 'ride_share', amount: analysis.totalAmount, purchaseDate: TODAY },
      { headers: { Cookie: who.cookie } },
    ),
  })
  const body = await bodyOf(res)
  expect(body.status).toBe('pending_review')
  return body.id as number
}

/** The receipt's page as its owner sees it. */
async function receiptPage(who: Who, id: number) {
  const res = await receiptLoader({ context: {}, params: { id: String(id) }, request: getRequest(`/scan/receipts/${id}`, who.cookie) })
  return (await bodyOf(res)).receipt
}

async function decide(admin: Who, fields: Record<string, string>) {
  const res = await reviewAction({ context: {}, params: {}, request: formRequest('/admin/receipts', fields, admin.cookie) })
  expect(res.status).toBe(302)
}

/** What the ledger credited for one receipt: its reward and any bonus written for it. */
async function creditedFor(receiptId: number): Promise<number> {
  const rows = await getDb()
    .selectFrom('transactions')
    .select('amount_milli')
    .where('receipt_id', '=', receiptId)
    .where('type', 'in', ['receipt_verification', 'achievement_reward'])
    .execute()
  return rows.reduce((sum, r) => sum + Number(r.amount_milli), 0)
}

async function shownStreak(who: Who): Promise<number> {
  const res = await userLoader({ context: {}, params: { id: String(who.user.id) }, request: getRequest(`/api/users/${who.user.id}`, who.cookie) })
  return (await bodyOf(res)).currentStreak as number
}

describe('two photos from a new wallet wait for staff', () => {
  it.each([
    ['in the order they were sent', false],
    ['the later one first', true],
  ])('approved %s: each is credited what its page promised, and the first-receipt bonus once', async (_order, reversed) => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const first = await sendPhoto(rider)
    const second = await sendPhoto(rider)

    const promised = new Map<number, number>()
    for (const id of [first, second]) {
      const page = await receiptPage(rider, id)
      expect(page.status).toBe('pending_review')
      promised.set(id, page.approvalPromise.totalMilli)
    }
    // floor(8 × 1.2) = 9 each; the 10 B3TR first-receipt bonus on the earlier one only.
    expect(promised.get(first)).toBe(19_000)
    expect(promised.get(second)).toBe(9000)

    for (const id of reversed ? [second, first] : [first, second]) {
      // Promised again right before approval: what staff's click will credit.
      expect((await receiptPage(rider, id)).approvalPromise.totalMilli).toBe(promised.get(id))
      await decide(admin, { intent: 'approve', receiptId: String(id) })
      expect(await creditedFor(id)).toBe(promised.get(id))
      expect((await receiptPage(rider, id)).rewardMilli).toBe(promised.get(id))
    }
    expect(await getBalanceMilli(getDb(), rider.user.id)).toBe(28_000)
  })

  it('the earlier one rejected after the later was approved: the bonus moves to the later one, once', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const first = await sendPhoto(rider)
    const second = await sendPhoto(rider)
    await decide(admin, { intent: 'approve', receiptId: String(second) })
    expect(await creditedFor(second)).toBe(9000)
    await decide(admin, { intent: 'reject', receiptId: String(first), reason: 'Not a receipt' })
    expect(await creditedFor(second)).toBe(19_000)
    expect(await getBalanceMilli(getDb(), rider.user.id)).toBe(19_000)
  })

  it("a waiting receipt's reasons are worked out when shown: not 'New wallet' once the wallet is established", async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const first = await sendPhoto(rider)
    const second = await sendPhoto(rider)
    expect((await receiptPage(rider, second)).reviewReasons).toEqual([NEW_WALLET_REVIEW_REASON])
    await decide(admin, { intent: 'approve', receiptId: String(first) })
    expect((await receiptPage(rider, second)).reviewReasons).toEqual([SENT_BEFORE_STANDING_REASON])
  })
})

describe('streaks count a staff approval', () => {
  it('for the day the receipt was submitted, not the day it was approved', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const yesterday = await sendPhoto(rider)
    const today = await sendPhoto(rider)
    // The first was sent yesterday (UTC); staff approve both today, the later one first.
    const sentAt = `${addUtcDays(TODAY, -1)}T12:00:00.000Z`
    await getDb().updateTable('receipts').set({ created_at: sentAt }).where('id', '=', yesterday).execute()
    expect(await shownStreak(rider)).toBe(0)

    await decide(admin, { intent: 'approve', receiptId: String(today) })
    expect(await shownStreak(rider)).toBe(1)
    await decide(admin, { intent: 'approve', receiptId: String(yesterday) })
    expect(await shownStreak(rider)).toBe(2)
    const user = await getDb().selectFrom('users').select(['current_streak', 'best_streak', 'last_streak_day']).where('id', '=', rider.user.id).executeTakeFirstOrThrow()
    expect(user).toEqual({ current_streak: 2, best_streak: 2, last_streak_day: TODAY })
  })

  it('one approved later, alone: the streak of its own day (0 shown once that day is past yesterday)', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const id = await sendPhoto(rider)
    await getDb().updateTable('receipts').set({ created_at: `${addUtcDays(TODAY, -3)}T08:00:00.000Z` }).where('id', '=', id).execute()
    await decide(admin, { intent: 'approve', receiptId: String(id) })
    const user = await getDb().selectFrom('users').select(['current_streak', 'last_streak_day']).where('id', '=', rider.user.id).executeTakeFirstOrThrow()
    expect(user).toEqual({ current_streak: 1, last_streak_day: addUtcDays(TODAY, -3) })
    expect(await shownStreak(rider)).toBe(0)
  })
})

describe('"Receipts Scanned" counts what it says', () => {
  it('every receipt sent, whatever its status', async () => {
    const rider = await signInNewUser()
    await sendPhoto(rider)
    await sendPhoto(rider)
    const res = await impactLoader({ context: {}, params: {}, request: getRequest('/impact-explorer', rider.cookie) })
    expect((await bodyOf(res)).summary).toMatchObject({ receiptsScanned: 2, receiptsVerified: 0 })
  })
})

describe('where the B3TR are (issue 40): claimable, in review, on their way', () => {
  async function publicUser(who: Who) {
    const res = await userLoader({ context: {}, params: { id: String(who.user.id) }, request: getRequest(`/api/users/${who.user.id}`, who.cookie) })
    return bodyOf(res)
  }
  async function homeLines(who: Who) {
    const { loader: homeLoader } = await import('../app/routes/home')
    const res = await homeLoader({ context: {}, params: {}, request: getRequest('/home', who.cookie) })
    return ((await bodyOf(res)).money as Array<{ key: string; text: string }>).map((l) => `${l.key}: ${l.text}`)
  }

  it('two receipts in review show what approval will credit, and the same numbers once approved', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const first = await sendPhoto(rider)
    const second = await sendPhoto(rider)
    expect(await publicUser(rider)).toMatchObject({ tokenBalance: 0, pendingBalance: 0, inReviewBalance: 28 })
    expect(await homeLines(rider)).toEqual(['claimable: 0.0 B3TR you can claim now', 'in-review: 28.0 B3TR in review: what approval of 2 receipts will credit'])
    await decide(admin, { intent: 'approve', receiptId: String(second) })
    expect(await publicUser(rider)).toMatchObject({ tokenBalance: 9, inReviewBalance: 19 })
    await decide(admin, { intent: 'approve', receiptId: String(first) })
    expect(await publicUser(rider)).toMatchObject({ tokenBalance: 28, pendingBalance: 0, inReviewBalance: 0 })
    expect(await homeLines(rider)).toEqual(['claimable: 28.0 B3TR you can claim now'])
  })

  it('a claim awaiting payout is on its way, not lost', async () => {
    const { claimAllTokens } = await import('../app/claims/claims.server')
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const id = await sendPhoto(rider)
    await decide(admin, { intent: 'approve', receiptId: String(id) })
    expect(await claimAllTokens(getDb(), { userId: rider.user.id, amountMilli: 19_000 })).toMatchObject({ ok: true })
    expect(await publicUser(rider)).toMatchObject({ tokenBalance: 0, inReviewBalance: 0 })
    expect(await homeLines(rider)).toEqual(['claimable: 0.0 B3TR you can claim now', 'on-its-way: 19.0 B3TR on its way to your wallet (a claim awaiting payout)'])
  })
})

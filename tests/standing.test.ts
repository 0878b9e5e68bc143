/**
 * Issue 31: standing decides instant photo rewards (docs/decisions/103-standing.md). Through the
 * routes a user and a script use: POST /api/receipts/validate and /api/receipts, the staff review
 * page, GET /api/users/{id} and the claim. Runs on SQLite and, with `npm test`, on PostgreSQL.
 *
 * The farm's receipts are drawn well enough that the reader approves them: what a perfect drawing
 * reads as is given to the stored analysis directly (no photo check can tell it from a real one,
 * which is the point), then everything goes through the routes.
 */
import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { attachReferral } from '../app/referrals/referrals.server'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { NEW_WALLET_REVIEW_REASON } from '../app/receipts/standing'
import { getStanding } from '../app/receipts/standing.server'
import type { StoredAnalysis } from '../app/analysis/stored-analysis'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { action as reviewAction, loader as reviewLoader } from '../app/routes/admin.receipts/route'
import { action as submitAction } from '../app/routes/api.receipts'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { action as claimAction } from '../app/routes/api.token-redemption'
import { loader as userLoader } from '../app/routes/api.users.$id'
import { getDb } from '../app/utils/db.server'
import { useDkimDns } from './utils/dkim-env'
import { makeTrip, signedReceipt } from './utils/ereceipts'
import { noiseImage } from './utils/images'
import { bodyOf, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { asPassportPeople } from './utils/standing'
import { ADMIN_WALLET } from './utils/wallet'

const TODAY = new Date().toISOString().slice(0, 10)
let trips = 0

/** What a well-drawn ride receipt reads as: acceptable, confident, dated today, its own trip number. */
function drawn(over: Partial<StoredAnalysis> = {}): StoredAnalysis {
  trips += 1
  return {
    isValid: true,
    storeName: 'Uber',
    category: 'ride_share',
    totalAmount: 11 + ((process.pid + trips) % 500) / 10,
    purchaseDate: TODAY,
    referenceNumber: `FARM${process.pid}N${trips}`,
    confidence: 0.98,
    isAcceptable: true,
    needsManualReview: false,
    reasons: [],
    ...over,
  }
}

const fromAddress = (ip: string) => ({ clientIp: ip })

/** Analyse (as a perfect drawing) and submit through POST /api/receipts, from one address and install. */
async function submitPhoto(who: { user: { id: number }; cookie: string }, opts: { analysis?: StoredAnalysis; ip?: string; install?: string } = {}) {
  const a = opts.analysis ?? drawn()
  const stored = await analyzeAndStore(getDb(), { userId: who.user.id, image: await noiseImage(), analyze: async () => a })
  const cookie = opts.install ? `${who.cookie}; rc_install=${opts.install}` : who.cookie
  const res = await submitAction({
    context: fromAddress(opts.ip ?? '203.0.113.9'),
    params: {},
    request: jsonRequest(
      '/api/receipts',
      { analysisId: stored.id, storeId: '1', category: a.category, amount: a.totalAmount, purchaseDate: a.purchaseDate },
      { headers: { Cookie: cookie } },
    ),
  })
  return { status: res.status, body: await bodyOf(res), analysis: a }
}

async function tokenBalance(who: { user: { id: number }; cookie: string }) {
  const res = await userLoader({ context: {}, params: { id: String(who.user.id) }, request: getRequest(`/api/users/${who.user.id}`, who.cookie) })
  return (await bodyOf(res)).tokenBalance as number
}

async function claimAll(who: { user: { id: number }; cookie: string }) {
  const amount = await tokenBalance(who)
  const res = await claimAction({
    context: {},
    params: {},
    request: jsonRequest('/api/token-redemption', { userId: who.user.id, amount, type: 'claim_all_tokens' }, { headers: { Cookie: who.cookie } }),
  })
  const body = await bodyOf(res)
  return res.status === 200 ? (body.claim.amount as number) : 0
}

async function review(admin: { cookie: string }, fields: Record<string, string>) {
  const res = await reviewAction({ context: {}, params: {}, request: formRequest('/admin/receipts', fields, admin.cookie) })
  return { status: res.status, body: res.status >= 400 ? await bodyOf(res) : null }
}

async function queue(admin: { cookie: string }) {
  return bodyOf(await reviewLoader({ context: {}, params: {}, request: getRequest('/admin/receipts', admin.cookie) }))
}

describe('a farm of fresh wallets', () => {
  it('20 wallets, each invited by the one before, each from its own address, 3 drawn receipts each: 0 B3TR to claim, 0 referral bonuses', async () => {
    const farm: Array<Awaited<ReturnType<typeof signInNewUser>>> = []
    for (let i = 0; i < 20; i++) {
      const wallet = await signInNewUser()
      if (i > 0) expect(await attachReferral(getDb(), { userId: wallet.user.id, code: farm[i - 1]!.user.referralCode })).toMatchObject({ ok: true })
      farm.push(wallet)
    }
    let claimed = 0
    for (const [i, wallet] of farm.entries()) {
      for (let n = 0; n < 3; n++) {
        const sent = await submitPhoto(wallet, { ip: `198.51.100.${i + 1}`, install: crypto.randomBytes(16).toString('base64url') })
        expect(sent.status).toBe(201)
        expect(sent.body).toMatchObject({ status: 'pending_review', tokenReward: 0, needsManualReview: true, rewardDetails: { firstReceiptBonus: 0, total: 0 } })
        expect(sent.body.reasons).toContain(NEW_WALLET_REVIEW_REASON)
      }
      // A redraw of the same trip with a new trip number waits as well.
      const redraw = await submitPhoto(wallet, { analysis: drawn({ referenceNumber: `REDRAW${i}X${process.pid}` }), ip: `198.51.100.${i + 1}` })
      expect(redraw.status === 429 || redraw.body.status === 'pending_review').toBe(true)
    }
    for (const wallet of farm) {
      expect(await tokenBalance(wallet)).toBe(0)
      claimed += await claimAll(wallet)
    }
    expect(claimed).toBe(0)
    const referralRewards = await getDb()
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', 'in', ['referral_reward', 'achievement_reward', 'receipt_verification'])
      .where('user_id', 'in', farm.map((w) => w.user.id))
      .executeTakeFirstOrThrow()
    expect(Number(referralRewards.n)).toBe(0)
  }, 120_000)
})

describe('what is paid at once', () => {
  it("pays a Passport person's photo at once", async () => {
    const person = await signInNewUser()
    await asPassportPeople([person.user.walletAddress], async () => {
      const sent = await submitPhoto(person)
      expect(sent.status).toBe(201)
      expect(sent.body).toMatchObject({ status: 'approved', tokenReward: 9, rewardDetails: { firstReceiptBonus: 10 } })
    })
    expect(await tokenBalance(person)).toBe(19)
  })

  it("a Passport blacklisting or signal, or a fraud rejection, takes standing away", async () => {
    const wallet = await signInNewUser()
    expect(await getStanding(getDb(), wallet.user.id, null)).toEqual({ established: false, reason: 'new_wallet' })
    const person = { ok: true as const, status: { blacklisted: false, signals: 0, isPerson: true, personReason: '' } }
    expect(await getStanding(getDb(), wallet.user.id, person)).toEqual({ established: true, reason: 'passport_person' })
    expect(await getStanding(getDb(), wallet.user.id, { ...person, status: { ...person.status, signals: 1 } })).toEqual({ established: false, reason: 'passport_signalled' })
    expect(await getStanding(getDb(), wallet.user.id, { ...person, status: { ...person.status, blacklisted: true } })).toEqual({ established: false, reason: 'passport_blacklisted' })
  })
})

describe("a new wallet's verified e-receipt", () => {
  const dns = useDkimDns()

  it('is paid at once and makes the wallet established: its next photo is paid at once', async () => {
    const wallet = await signInNewUser()
    const trip = makeTrip(process.pid + 7, new Date(Date.now() - 86_400_000), `rider-${crypto.randomUUID()}@example.org`)
    const raw = await signedReceipt(dns.current, 'Uber', trip)
    const validated = await validateAction({
      context: {},
      params: {},
      request: jsonRequest('/api/receipts/validate', { image: `data:message/rfc822;base64,${raw.toString('base64')}` }, { headers: { Cookie: wallet.cookie } }),
    })
    const analysis = await bodyOf(validated)
    expect(analysis).toMatchObject({ isAcceptable: true, reader: 'email' })
    const res = await submitAction({
      context: {},
      params: {},
      request: jsonRequest(
        '/api/receipts',
        { analysisId: analysis.analysisId, amount: analysis.totalAmount, purchaseDate: analysis.purchaseDate, category: analysis.category },
        { headers: { Cookie: wallet.cookie } },
      ),
    })
    expect(res.status).toBe(201)
    expect(await bodyOf(res)).toMatchObject({ status: 'approved', rewardDetails: { firstReceiptBonus: 10 } })
    expect(await getStanding(getDb(), wallet.user.id, null)).toEqual({ established: true, reason: 'verified_ereceipt' })
    expect((await submitPhoto(wallet)).body).toMatchObject({ status: 'approved', tokenReward: 9, rewardDetails: { firstReceiptBonus: 0 } })
  })
})

describe("a new wallet's first photo", () => {
  it('waits; staff approve it and it is credited once with the first-receipt bonus; the next photo is paid at once', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const referrer = await signInNewUser()
    const wallet = await signInNewUser()
    await attachReferral(getDb(), { userId: wallet.user.id, code: referrer.user.referralCode })
    const first = await submitPhoto(wallet)
    expect(first.body).toMatchObject({ status: 'pending_review', tokenReward: 0 })
    expect(await tokenBalance(wallet)).toBe(0)
    expect(await getBalanceMilli(getDb(), referrer.user.id)).toBe(0)

    // Staff see the wallet's standing and why, with the new wallets apart from the rest.
    const page = await queue(admin)
    const entry = page.queue.find((r: { id: number }) => r.id === first.body.id)
    expect(entry).toMatchObject({ standing: { established: false, reason: 'new_wallet' } })
    expect(entry.standingLabel).toMatch(/New wallet/)
    expect(page.newWallets.some((g: { receiptIds: number[] }) => g.receiptIds.includes(first.body.id))).toBe(true)

    expect((await review(admin, { intent: 'approve', receiptId: String(first.body.id) })).status).toBe(302)
    // Approving twice (a double click) credits once.
    expect((await review(admin, { intent: 'approve', receiptId: String(first.body.id) })).status).toBe(409)
    // floor(8 × 1.2) = 9, + 10 first-receipt bonus; the referrer's 15 now.
    expect(await tokenBalance(wallet)).toBe(19)
    expect(await getBalanceMilli(getDb(), referrer.user.id)).toBe(15_000)
    expect(await getStanding(getDb(), wallet.user.id, null)).toEqual({ established: true, reason: 'staff_approved' })

    const next = await submitPhoto(wallet)
    expect(next.body).toMatchObject({ status: 'approved', tokenReward: 9, rewardDetails: { firstReceiptBonus: 0 } })
    expect(await tokenBalance(wallet)).toBe(28)
  })

  it('a receipt rejected as fraud takes the standing away: the next photo waits again', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = await signInNewUser()
    const first = await submitPhoto(wallet)
    await review(admin, { intent: 'approve', receiptId: String(first.body.id) })
    // Sent to review by its content (an edited amount), then rejected as fraud.
    const doubtful = await submitPhoto(wallet, { analysis: drawn({ needsManualReview: true, reasons: ['The total is hard to read.'] }) })
    expect(doubtful.body.status).toBe('pending_review')
    expect((await review(admin, { intent: 'reject', receiptId: String(doubtful.body.id), reason: 'Edited total', fraud: 'on' })).status).toBe(302)
    expect(await getStanding(getDb(), wallet.user.id, null)).toEqual({ established: false, reason: 'fraud_rejection' })
    const next = await submitPhoto(wallet)
    expect(next.body.status).toBe('pending_review')
  })

  it('a shared address never holds back an established wallet', async () => {
    const established = await signInNewUser()
    await asPassportPeople([established.user.walletAddress], async () => {
      const fresh = await signInNewUser()
      const campus = '192.0.2.44'
      expect((await submitPhoto(fresh, { ip: campus })).body.status).toBe('pending_review')
      expect((await submitPhoto(established, { ip: campus })).body.status).toBe('approved')
    })
  })
})

describe('staff and wallets that travel together', () => {
  it('groups new wallets that share an install, an address or invitations, and decides a group in one audited action', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const install = crypto.randomBytes(16).toString('base64url')
    const [a, b, c] = [await signInNewUser(), await signInNewUser(), await signInNewUser()]
    await attachReferral(getDb(), { userId: c.user.id, code: b.user.referralCode })
    const ra = await submitPhoto(a, { install, ip: '203.0.113.71' })
    const rb = await submitPhoto(b, { install, ip: '203.0.113.72' })
    const rc = await submitPhoto(c, { ip: '203.0.113.73' })
    const page = await queue(admin)
    const group = page.newWallets.find((g: { receiptIds: number[] }) => g.receiptIds.includes(ra.body.id))
    expect(group.receiptIds).toEqual([ra.body.id, rb.body.id, rc.body.id].sort((x, y) => x - y))
    expect(group.links).toEqual(expect.arrayContaining(['Same browser install', 'Invited one another']))
    expect(group.wallets).toHaveLength(3)

    const ids = group.receiptIds.join(',')
    expect((await review(admin, { intent: 'reject-group', receiptIds: ids, reason: 'Drawn receipts from one phone', fraud: 'on' })).status).toBe(302)
    for (const w of [a, b, c]) expect(await getStanding(getDb(), w.user.id, null)).toEqual({ established: false, reason: 'fraud_rejection' })
    // Decided already: nothing left to decide.
    expect((await review(admin, { intent: 'reject-group', receiptIds: ids, reason: 'again' })).status).toBe(409)
    const audit = await getDb().selectFrom('audit_log').select(['action', 'target_id']).where('admin_user_id', '=', admin.user.id).execute()
    expect(audit.filter((e) => e.action === 'receipt.reject').map((e) => e.target_id).sort()).toEqual(expect.arrayContaining(group.receiptIds))
    expect(audit.filter((e) => e.action === 'receipt.group_reject')).toHaveLength(2)
  })

  it('approves a group once: each receipt credited once with its first-receipt bonus, however often the form is sent', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const install = crypto.randomBytes(16).toString('base64url')
    const pair = [await signInNewUser(), await signInNewUser()]
    const sent = [await submitPhoto(pair[0]!, { install }), await submitPhoto(pair[1]!, { install })]
    const ids = sent.map((s) => s.body.id).join(',')
    const results = await Promise.all([1, 2, 3].map(() => review(admin, { intent: 'approve-group', receiptIds: ids })))
    expect(results.filter((r) => r.status === 302).length).toBeGreaterThanOrEqual(1)
    for (const w of pair) expect(await tokenBalance(w)).toBe(19)
  })

  it('refuses a malformed group with a 400 and a message', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    expect(await review(admin, { intent: 'approve-group', receiptIds: '1,,x' })).toMatchObject({ status: 400, body: { error: 'No receipts in this group' } })
  })
})

describe('the review page and a stored analysis no version wrote', () => {
  it('lists the receipt as unreadable instead of answering 500, and staff can still decide it', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = await signInNewUser()
    const sent = await submitPhoto(wallet)
    await getDb().updateTable('receipts').set({ analysis_json: '{"storeName": 7}' }).where('id', '=', sent.body.id).execute()
    const page = await queue(admin)
    expect(page.queue.find((r: { id: number }) => r.id === sent.body.id)?.reasons).toEqual(expect.any(Array))
    expect((await review(admin, { intent: 'approve', receiptId: String(sent.body.id) })).status).toBe(302)
    expect(await tokenBalance(wallet)).toBe(19)
  })
})

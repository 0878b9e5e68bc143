/**
 * Issue 38: photo rewards mature, audits reverse them, and staff see a farm as one
 * (docs/decisions/109-maturing-and-audits.md). Through the routes a rider, a script and staff use:
 * POST /api/receipts(/validate), GET /api/users/{id}, POST /api/token-redemption and the review
 * page. Runs on SQLite and, with TEST_DB=postgres, on PostgreSQL.
 *
 * The clock moves with vi.setSystemTime (Date only): whether an amount can be claimed follows from
 * the clock and the ledger, and nothing runs when a hold ends.
 */
import crypto from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import type { StoredAnalysis } from '../app/analysis/stored-analysis'
import { attachReferral } from '../app/referrals/referrals.server'
import { HELD_FOR_EMAIL_MESSAGE, WITHHELD_MESSAGE } from '../app/receipts/audits.server'
import { REVIEW_PAGE_SIZE } from '../app/receipts/review.server'
import { getStanding } from '../app/receipts/standing.server'
import { action as reviewAction, loader as reviewLoader } from '../app/routes/admin.receipts/route'
import { action as submitAction } from '../app/routes/api.receipts'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { action as claimAction } from '../app/routes/api.token-redemption'
import { loader as userLoader } from '../app/routes/api.users.$id'
import { findOrCreateUser } from '../app/users/users.server'
import { getDb } from '../app/utils/db.server'
import { useDkimDns } from './utils/dkim-env'
import { makeTrip, signedReceipt } from './utils/ereceipts'
import { useTestEnv } from './utils/env'
import { noiseImage } from './utils/images'
import { receiptRow } from './utils/receipt-rows'
import { bodyOf, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { asPassportPeople } from './utils/standing'
import { ADMIN_WALLET } from './utils/wallet'

// The production defaults, explicitly: a 72-hour hold; sampling is set per test.
useTestEnv({ PHOTO_REWARD_HOLD_HOURS: '72', PHOTO_AUDIT_RATE: '0' })

const HOUR = 3_600_000
const TODAY = () => new Date().toISOString().slice(0, 10)
let trips = 0

afterEach(() => {
  vi.useRealTimers()
  process.env.PHOTO_AUDIT_RATE = '0'
  process.env.PHOTO_REWARD_HOLD_HOURS = '72'
})

function setEnv(name: string, value: string) {
  process.env[name] = value
}

/** What a well-drawn ride receipt reads as (no photo check can tell it from a real one). */
function drawn(over: Partial<StoredAnalysis> = {}): StoredAnalysis {
  trips += 1
  return {
    isValid: true,
    storeName: 'Uber',
    category: 'ride_share',
    totalAmount: 11 + ((process.pid + trips * 7) % 900) / 10,
    purchaseDate: TODAY(),
    referenceNumber: `MAT${process.pid}N${trips}`,
    confidence: 0.98,
    isAcceptable: true,
    needsManualReview: false,
    reasons: [],
    ...over,
  }
}

type Who = { user: { id: number; referralCode: string; walletAddress: string }; cookie: string }

async function submitPhoto(who: Who, opts: { analysis?: StoredAnalysis; ip?: string; install?: string } = {}) {
  const a = opts.analysis ?? drawn()
  const stored = await analyzeAndStore(getDb(), { userId: who.user.id, image: await noiseImage(), analyze: async () => a })
  const cookie = opts.install ? `${who.cookie}; rc_install=${opts.install}` : who.cookie
  const res = await submitAction({
    context: { clientIp: opts.ip ?? `203.0.113.${(trips % 200) + 1}` },
    params: {},
    request: jsonRequest(
      '/api/receipts',
      { analysisId: stored.id, storeId: '1', category: a.category, amount: a.totalAmount, purchaseDate: a.purchaseDate },
      { headers: { Cookie: cookie } },
    ),
  })
  const body = await bodyOf(res)
  expect(res.status, JSON.stringify(body)).toBe(201)
  return body as { id: number; status: string }
}

async function balances(who: Who): Promise<{ tokenBalance: number; pendingBalance: number }> {
  const res = await userLoader({ context: {}, params: { id: String(who.user.id) }, request: getRequest(`/api/users/${who.user.id}`, who.cookie) })
  const body = await bodyOf(res)
  return { tokenBalance: body.tokenBalance, pendingBalance: body.pendingBalance }
}

async function claim(who: Who, amount: number) {
  const res = await claimAction({
    context: {},
    params: {},
    request: jsonRequest('/api/token-redemption', { userId: who.user.id, amount, type: 'claim_all_tokens' }, { headers: { Cookie: who.cookie } }),
  })
  return { status: res.status, body: await bodyOf(res) }
}

async function review(admin: Who, fields: Record<string, string>, search = '') {
  const res = await reviewAction({ context: {}, params: {}, request: formRequest(`/admin/receipts${search}`, fields, admin.cookie) })
  return { status: res.status, body: res.status >= 400 ? await bodyOf(res) : null, location: res.headers.get('Location') }
}

async function page(admin: Who, search = '') {
  return bodyOf(await reviewLoader({ context: {}, params: {}, request: getRequest(`/admin/receipts${search}`, admin.cookie) }))
}

type GroupView = { receiptIds: number[]; wallets: string[]; links: string[]; referrers: Array<{ userId: number }>; addressTies: Array<{ userId: number }> }

/** The group a receipt is in, wherever the page shows it. */
async function groupOf(admin: Who, receiptId: number): Promise<GroupView | undefined> {
  const first = await page(admin)
  for (let n = 1; n <= first.pageCount; n++) {
    const p = n === 1 ? first : await page(admin, `?page=${n}`)
    const group = p.newWallets.find((g: GroupView) => g.receiptIds.includes(receiptId))
    if (group) return group
  }
  return undefined
}

/** A wallet established by one staff approval: its first photo (19 B3TR, claimable at once). */
async function establishedByStaff(admin: Who) {
  const wallet = await signInNewUser()
  const first = await submitPhoto(wallet)
  expect(first.status).toBe('pending_review')
  expect((await review(admin, { intent: 'approve', receiptId: String(first.id) })).status).toBe(302)
  return wallet
}

async function ledgerOf(userId: number) {
  return getDb().selectFrom('transactions').selectAll().where('user_id', '=', userId).orderBy('id').execute()
}

describe('maturing', () => {
  it('a staff approval is claimable at once; an automatic photo approval only after the hold, and a claim takes exactly what matured', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = await establishedByStaff(admin)
    expect(await balances(wallet)).toEqual({ tokenBalance: 19, pendingBalance: 0 })

    const approvedAt = Date.now()
    const photo = await submitPhoto(wallet)
    expect(photo.status).toBe('approved')
    expect(await balances(wallet)).toEqual({ tokenBalance: 19, pendingBalance: 9 })

    // Before the hold: a claim of everything credited is refused; the matured amount is claimed exactly.
    expect((await claim(wallet, 28)).status).toBe(409)
    const first = await claim(wallet, 19)
    expect(first).toMatchObject({ status: 200, body: { claim: { amount: 19 } } })
    expect(await balances(wallet)).toEqual({ tokenBalance: 0, pendingBalance: 9 })
    expect((await claim(wallet, 9)).status).toBe(400) // nothing claimable yet

    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(approvedAt + 72 * HOUR - 60_000)
    expect(await balances(wallet)).toEqual({ tokenBalance: 0, pendingBalance: 9 })
    vi.setSystemTime(approvedAt + 72 * HOUR + 60_000)
    expect(await balances(wallet)).toEqual({ tokenBalance: 9, pendingBalance: 0 })
    expect(await claim(wallet, 9)).toMatchObject({ status: 200, body: { claim: { amount: 9 } } })
    const claims = (await ledgerOf(wallet.user.id)).filter((e) => e.type === 'token_claim').map((e) => e.amount_milli)
    expect(claims).toEqual([-19_000, -9_000])
    expect(await balances(wallet)).toEqual({ tokenBalance: 0, pendingBalance: 0 })
    // The impact each claim reports on-chain counts the receipts it pays: the approved one, then the matured one.
    const payouts = await getDb().selectFrom('payouts').select('receipt_count').where('user_id', '=', wallet.user.id).orderBy('id').execute()
    expect(payouts.map((p) => p.receipt_count)).toEqual([1, 1])
  })

  it('the first-receipt bonus and the referrer’s reward mature with the photo that earns them', async () => {
    const referrer = await signInNewUser()
    const person = await signInNewUser()
    await attachReferral(getDb(), { userId: person.user.id, code: referrer.user.referralCode })
    await asPassportPeople([person.user.walletAddress], async () => {
      expect((await submitPhoto(person)).status).toBe('approved')
    })
    expect(await balances(person)).toEqual({ tokenBalance: 0, pendingBalance: 19 })
    expect(await balances(referrer)).toEqual({ tokenBalance: 0, pendingBalance: 15 })
  })

  it('allows decimal hours, and 0 turns maturing off', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = await establishedByStaff(admin)
    setEnv('PHOTO_REWARD_HOLD_HOURS', '0.5')
    const { resetEnvCache } = await import('../app/utils/env.server')
    resetEnvCache()
    const at = Date.now()
    await submitPhoto(wallet)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(at + 29 * 60_000)
    expect(await balances(wallet)).toEqual({ tokenBalance: 19, pendingBalance: 9 })
    vi.setSystemTime(at + 31 * 60_000)
    expect(await balances(wallet)).toEqual({ tokenBalance: 28, pendingBalance: 0 })
    vi.useRealTimers()
    setEnv('PHOTO_REWARD_HOLD_HOURS', '0')
    resetEnvCache()
    await submitPhoto(wallet)
    // Back on the real clock the half-hour photo still matures; this one is claimable at once.
    expect(await balances(wallet)).toEqual({ tokenBalance: 28, pendingBalance: 9 })
    setEnv('PHOTO_REWARD_HOLD_HOURS', '72')
    resetEnvCache()
  })
})

describe('a verified e-receipt', () => {
  const dns = useDkimDns()

  async function validateEmail(who: Who, raw: Buffer) {
    const res = await validateAction({
      context: {},
      params: {},
      request: jsonRequest('/api/receipts/validate', { image: `data:message/rfc822;base64,${raw.toString('base64')}` }, { headers: { Cookie: who.cookie } }),
    })
    const analysis = await bodyOf(res)
    expect(analysis).toMatchObject({ isAcceptable: true, reader: 'email' })
    return analysis as { analysisId: number; storeName: string; totalAmount: number; purchaseDate: string; category: string }
  }

  async function submitEmail(who: Who, analysis: { analysisId: number; totalAmount: number; purchaseDate: string; category: string }) {
    const res = await submitAction({
      context: {},
      params: {},
      request: jsonRequest(
        '/api/receipts',
        { analysisId: analysis.analysisId, amount: analysis.totalAmount, purchaseDate: analysis.purchaseDate, category: analysis.category },
        { headers: { Cookie: who.cookie } },
      ),
    })
    return { status: res.status, body: await bodyOf(res) }
  }

  it('is claimable at once, first-receipt bonus included', async () => {
    const wallet = await signInNewUser()
    const raw = await signedReceipt(dns.current, 'Uber', makeTrip(process.pid + 101, new Date(Date.now() - 86_400_000), `r-${crypto.randomUUID()}@example.org`))
    const sent = await submitEmail(wallet, await validateEmail(wallet, raw))
    expect(sent).toMatchObject({ status: 201, body: { status: 'approved' } })
    expect(await balances(wallet)).toEqual({ tokenBalance: 19, pendingBalance: 0 })
  })

  it('of a trip another wallet sent as a photo is paid to the e-mail’s wallet; the photo’s maturing credit is held and staff see it as likely fraud', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const rider = await signInNewUser()
    const raw = await signedReceipt(dns.current, 'Uber', makeTrip(process.pid + 202, new Date(Date.now() - 86_400_000), `r-${crypto.randomUUID()}@example.org`))
    const email = await validateEmail(rider, raw)

    // Another wallet draws the same trip first (no trip number printed) and is paid, maturing.
    const drawer = await establishedByStaff(admin)
    const photo = await submitPhoto(drawer, { analysis: drawn({ storeName: email.storeName, totalAmount: email.totalAmount, purchaseDate: email.purchaseDate, referenceNumber: null }) })
    expect(photo.status).toBe('approved')
    expect(await balances(drawer)).toEqual({ tokenBalance: 19, pendingBalance: 9 })

    const sent = await submitEmail(rider, email)
    expect(sent).toMatchObject({ status: 201, body: { status: 'approved' } })
    expect(await balances(rider)).toEqual({ tokenBalance: 19, pendingBalance: 0 })
    expect(await getStanding(getDb(), rider.user.id, null)).toEqual({ established: true, reason: 'verified_ereceipt' })

    // The photo's credit is reversed while it matures; it is held, and audited as likely fraud.
    expect(await balances(drawer)).toEqual({ tokenBalance: 19, pendingBalance: 0 })
    const held = await getDb().selectFrom('receipts').select(['status', 'reject_reason', 'audit_status', 'audit_reason']).where('id', '=', photo.id).executeTakeFirstOrThrow()
    expect(held).toMatchObject({ status: 'rejected', reject_reason: HELD_FOR_EMAIL_MESSAGE, audit_status: 'pending' })
    expect(held.audit_reason).toMatch(/Likely fraud/)
    const audits = (await page(admin)).audits
    expect(audits.items.find((a: { id: number }) => a.id === photo.id)).toMatchObject({ held: true })
  })
})

describe('audits', () => {
  it('samples automatic photo approvals at PHOTO_AUDIT_RATE and lists them for staff', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = await establishedByStaff(admin)
    setEnv('PHOTO_AUDIT_RATE', '1')
    const { resetEnvCache } = await import('../app/utils/env.server')
    resetEnvCache()
    const sampled = await submitPhoto(wallet)
    setEnv('PHOTO_AUDIT_RATE', '0')
    resetEnvCache()
    const unsampled = await submitPhoto(wallet)
    const audits = (await page(admin)).audits
    const ids = audits.items.map((a: { id: number }) => a.id)
    expect(ids).toContain(sampled.id)
    expect(ids).not.toContain(unsampled.id)
    const item = audits.items.find((a: { id: number }) => a.id === sampled.id)
    // One staff approval is thin evidence: sampled at the higher rate.
    expect(item.auditReason).toMatch(/Sampled more often/)
    expect(item.maturing).toMatch(/^Maturing: claimable from/)

    expect((await review(admin, { intent: 'audit-clear', receiptId: String(sampled.id) })).status).toBe(302)
    expect((await review(admin, { intent: 'audit-clear', receiptId: String(sampled.id) })).status).toBe(409)
    expect(await balances(wallet)).toEqual({ tokenBalance: 19, pendingBalance: 18 })
  })

  it('rejected as fraud by 10 staff at once while the wallet claims: reversed exactly once, the claim takes what matured, the standing is gone', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const referrer = await signInNewUser()
    const wallet = await signInNewUser()
    await attachReferral(getDb(), { userId: wallet.user.id, code: referrer.user.referralCode })
    // Passport alone: the first photo pays 9 + 10 bonus, maturing, and the referrer 15, maturing.
    setEnv('PHOTO_AUDIT_RATE', '1')
    const { resetEnvCache } = await import('../app/utils/env.server')
    resetEnvCache()
    let audited = 0
    let other = 0
    await asPassportPeople([wallet.user.walletAddress], async () => {
      audited = (await submitPhoto(wallet)).id
      other = (await submitPhoto(wallet)).id
    })
    // A receipt staff approve from review is claimable at once.
    const waiting = await submitPhoto(wallet, { analysis: drawn({ needsManualReview: true, reasons: ['The total is hard to read.'] }) })
    expect((await review(admin, { intent: 'approve', receiptId: String(waiting.id) })).status).toBe(302)
    expect(await balances(wallet)).toEqual({ tokenBalance: 9, pendingBalance: 28 })
    expect(await balances(referrer)).toEqual({ tokenBalance: 0, pendingBalance: 15 })

    const decisions = Array.from({ length: 10 }, () => review(admin, { intent: 'audit-reject', receiptId: String(audited), reason: 'Drawn by a script' }))
    const [claimed, ...results] = await Promise.all([claim(wallet, 9), ...decisions])
    expect(results.filter((r) => r.status === 302)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(9)
    expect(claimed).toMatchObject({ status: 200, body: { claim: { amount: 9 } } })

    // Each maturing credit reversed once: both photos' rewards, the bonus, the referrer's reward, and their fund shares.
    const ledger = await ledgerOf(wallet.user.id)
    const reversals = ledger.filter((e) => e.reverses_id !== null)
    expect(new Set(reversals.map((e) => e.reverses_id)).size).toBe(reversals.length)
    expect(reversals.filter((e) => e.type !== 'sustainability_app').map((e) => e.amount_milli).sort()).toEqual([-10_000, -9_000, -9_000])
    expect(await balances(wallet)).toEqual({ tokenBalance: 0, pendingBalance: 0 })
    expect(await balances(referrer)).toEqual({ tokenBalance: 0, pendingBalance: 0 })
    const sum = ledger.filter((e) => !['sustainability_app', 'sustainability_creator'].includes(e.type) && e.status !== 'failed').reduce((n, e) => n + e.amount_milli, 0)
    expect(sum).toBe(0)

    expect(await getStanding(getDb(), wallet.user.id, null)).toEqual({ established: false, reason: 'fraud_rejection' })
    const rows = await getDb().selectFrom('receipts').select(['id', 'status', 'reject_reason', 'rejected_as_fraud']).where('id', 'in', [audited, other, waiting.id]).execute()
    const byId = new Map(rows.map((r) => [r.id, r]))
    expect(byId.get(audited)).toMatchObject({ status: 'rejected', rejected_as_fraud: 1 })
    expect(byId.get(other)).toMatchObject({ status: 'rejected', reject_reason: WITHHELD_MESSAGE })
    expect(byId.get(waiting.id)).toMatchObject({ status: 'approved' }) // staff-approved, claimed: never reversed
    const audit = await getDb().selectFrom('audit_log').select('action').where('target_id', '=', audited).where('action', '=', 'receipt.audit_reject').execute()
    expect(audit).toHaveLength(1)
  })

  it('after the hold, takes back only what the wallet has not claimed, never what a claim took', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const claimer = await establishedByStaff(admin)
    const saver = await establishedByStaff(admin)
    setEnv('PHOTO_AUDIT_RATE', '1')
    const { resetEnvCache } = await import('../app/utils/env.server')
    resetEnvCache()
    const at = Date.now()
    const claimed = await submitPhoto(claimer)
    const kept = await submitPhoto(saver)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(at + 73 * HOUR)
    // Matured; one wallet claims everything, a later photo of it matures still.
    expect(await claim(claimer, 28)).toMatchObject({ status: 200 })
    const later = await submitPhoto(claimer)
    expect(await balances(claimer)).toEqual({ tokenBalance: 0, pendingBalance: 9 })
    expect(await balances(saver)).toEqual({ tokenBalance: 28, pendingBalance: 0 })

    expect((await review(admin, { intent: 'audit-reject', receiptId: String(claimed.id), reason: 'Drawn' })).status).toBe(302)
    expect((await review(admin, { intent: 'audit-reject', receiptId: String(kept.id), reason: 'Drawn' })).status).toBe(302)
    // Claimed: nothing reversed; the maturing photo is. Unclaimed: its 9 taken back, the staff-approved 19 stays.
    expect(await balances(claimer)).toEqual({ tokenBalance: 0, pendingBalance: 0 })
    expect(await balances(saver)).toEqual({ tokenBalance: 19, pendingBalance: 0 })
    const laterRow = await getDb().selectFrom('receipts').select('status').where('id', '=', later.id).executeTakeFirstOrThrow()
    expect(laterRow.status).toBe('rejected')
  })
})

describe('a claim racing the reversal of a matured credit', () => {
  it('settles once: either the claim takes it or the reversal does, never both, and the balance never goes below zero', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = await establishedByStaff(admin)
    setEnv('PHOTO_AUDIT_RATE', '1')
    const { resetEnvCache } = await import('../app/utils/env.server')
    resetEnvCache()
    const at = Date.now()
    const audited = await submitPhoto(wallet)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(at + 73 * HOUR)
    expect(await balances(wallet)).toEqual({ tokenBalance: 28, pendingBalance: 0 })
    const [claimed, ...decisions] = await Promise.all([
      claim(wallet, 28),
      ...Array.from({ length: 10 }, () => review(admin, { intent: 'audit-reject', receiptId: String(audited.id), reason: 'Drawn' })),
    ])
    expect(decisions.filter((d) => d.status === 302)).toHaveLength(1)
    const ledger = await ledgerOf(wallet.user.id)
    const taken = ledger.filter((e) => e.reverses_id !== null && e.type === 'receipt_verification').reduce((n, e) => n - e.amount_milli, 0)
    if (claimed.status === 200) {
      // The claim came first: it took the 28, and nothing it took was reversed.
      expect(claimed.body.claim.amount).toBe(28)
      expect(taken).toBe(0)
    } else {
      // The reversal came first: the 9 was taken back, and a claim of 28 no longer matches.
      expect(claimed.status).toBe(409)
      expect(taken).toBe(9_000)
      expect(await claim(wallet, 19)).toMatchObject({ status: 200, body: { claim: { amount: 19 } } })
    }
    expect(await balances(wallet)).toEqual({ tokenBalance: 0, pendingBalance: 0 })
  })
})

describe('staff see a farm as one', () => {
  it('invitees of one referrer with nothing waiting form one group, and the referrer is shown', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const referrer = await signInNewUser()
    const invitees = [await signInNewUser(), await signInNewUser(), await signInNewUser()]
    const ids: number[] = []
    for (const [i, w] of invitees.entries()) {
      await attachReferral(getDb(), { userId: w.user.id, code: referrer.user.referralCode })
      ids.push((await submitPhoto(w, { ip: `198.51.100.${120 + i}`, install: crypto.randomBytes(16).toString('base64url') })).id)
    }
    const group = await groupOf(admin, ids[0]!)
    expect(group?.receiptIds).toEqual(ids)
    expect(group?.links).toEqual(['Invited by the same wallet'])
    expect(group?.referrers.map((r) => r.userId)).toEqual([referrer.user.id])
  })

  it('the same trip from two wallets without printed trip numbers is one group', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const trip = drawn({ referenceNumber: null })
    const a = await submitPhoto(await signInNewUser(), { analysis: trip, ip: '198.51.100.140' })
    const b = await submitPhoto(await signInNewUser(), { analysis: { ...trip }, ip: '198.51.100.141' })
    const group = await groupOf(admin, a.id)
    expect(group?.receiptIds).toEqual([a.id, b.id])
    expect(group?.links).toEqual(['The same vendor, total and date from several wallets'])
  })

  it('a wallet tied only by an address is listed apart, and a fraud rejection of the group leaves it alone', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const install = crypto.randomBytes(16).toString('base64url')
    const dorm = '198.51.100.160'
    const farm = [await signInNewUser(), await signInNewUser()]
    const farmIds = [(await submitPhoto(farm[0]!, { install, ip: dorm })).id, (await submitPhoto(farm[1]!, { install, ip: dorm })).id]
    const honest = await signInNewUser()
    const honestId = (await submitPhoto(honest, { ip: dorm })).id

    const group = await groupOf(admin, farmIds[0]!)
    expect(group?.receiptIds).toEqual(farmIds)
    expect(group?.addressTies.map((t) => t.userId)).toEqual([honest.user.id])
    expect((await groupOf(admin, honestId))?.receiptIds).toEqual([honestId])

    expect((await review(admin, { intent: 'reject-group', receiptIds: farmIds.join(','), reason: 'One phone', fraud: 'on' })).status).toBe(302)
    for (const w of farm) expect(await getStanding(getDb(), w.user.id, null)).toMatchObject({ reason: 'fraud_rejection' })
    expect(await getStanding(getDb(), honest.user.id, null)).toEqual({ established: false, reason: 'new_wallet' })
    const stillWaiting = await getDb().selectFrom('receipts').select('status').where('id', '=', honestId).executeTakeFirstOrThrow()
    expect(stillWaiting.status).toBe('pending_review')
  })

  it('counts the whole queue and pages through all of it: a 35-wallet farm of 105 receipts no longer hides a later rider', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const db = getDb()
    const install = `farm-${crypto.randomUUID()}`
    const farmIds: number[] = []
    for (let w = 0; w < 35; w++) {
      const { user } = await findOrCreateUser(db, `0x${crypto.randomBytes(20).toString('hex')}`)
      for (let r = 0; r < 3; r++) {
        const row = await db
          .insertInto('receipts')
          .values(receiptRow({ user_id: user.id, status: 'pending_review', analysis_json: JSON.stringify(drawn()), install_hash: install, store_name: 'Uber' }))
          .returning('id')
          .executeTakeFirstOrThrow()
        farmIds.push(row.id)
      }
    }
    const rider = await signInNewUser()
    const late = await submitPhoto(rider, { ip: '198.51.100.200' })

    const first = await page(admin)
    expect(first.total).toBeGreaterThanOrEqual(106)
    expect(first.pageCount).toBe(Math.ceil(first.total / REVIEW_PAGE_SIZE))
    expect(first.pageCount).toBeGreaterThan(1)
    const seen: number[] = []
    for (let n = 1; n <= first.pageCount; n++) {
      const p = n === 1 ? first : await page(admin, `?page=${n}`)
      expect(p.page).toBe(n)
      expect(p.queue.length).toBeLessThanOrEqual(REVIEW_PAGE_SIZE)
      seen.push(...p.queue.map((r: { id: number }) => r.id))
    }
    expect(new Set(seen).size).toBe(first.total)
    expect(seen).toEqual(expect.arrayContaining([...farmIds, late.id]))
    // Grouping covers every waiting receipt: the farm is one group of 105, however many pages it spans.
    const farmGroup = first.newWallets.find((g: GroupView) => g.receiptIds.includes(farmIds[0]!))
    expect(farmGroup.receiptIds).toEqual(farmIds)
    expect(farmGroup.wallets).toHaveLength(35)
    // A decision keeps the page it was made on.
    expect((await review(admin, { intent: 'approve', receiptId: String(late.id) }, '?page=2&audits=1')).location).toBe('/admin/receipts?page=2&audits=1')
  }, 60_000)
})

/**
 * Issue 22, point 3: VeBetter Passport as a fraud signal, against the fake node. A blacklisted or
 * signalled wallet, or one the node cannot be asked about, goes to staff review (never refused);
 * staff who confirm fraud signal the wallet when the distributor holds the SIGNALER_ROLE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getPassportCheck } from '../app/chain/passport.server'
import { PASSPORT_REASONS } from '../app/receipts/passport-signals'
import { NEW_WALLET_REVIEW_REASON } from '../app/receipts/standing'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { submitReceipt } from '../app/receipts/receipts.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import { action as reviewAction } from '../app/routes/admin.receipts/route'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { noiseImage } from './utils/images'
import { APP_ID, DISTRIBUTOR, fakeChain } from './utils/payouts'
import { formRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

const ctx = { context: {}, params: {} }
const TODAY = new Date().toISOString().slice(0, 10)
let trip = 0

beforeAll(() => {
  process.env.PASSPORT_CHECKS = 'on'
  process.env.PAYOUT_PRIVATE_KEY = DISTRIBUTOR.privateKey.toString('hex')
  process.env.VEBETTER_APP_ID = APP_ID
  resetEnvCache()
})
afterAll(() => {
  process.env.PASSPORT_CHECKS = 'off'
  delete process.env.PAYOUT_PRIVATE_KEY
  delete process.env.VEBETTER_APP_ID
  resetEnvCache()
})

const analysis = (): StoredAnalysis => ({
  referenceNumber: `PASS${process.pid}X${++trip}`,
  isValid: true,
  storeName: 'Uber',
  category: 'ride_share',
  totalAmount: 12.5 + trip,
  purchaseDate: TODAY,
  confidence: 0.97,
  isAcceptable: true,
  needsManualReview: false,
  reasons: [],
})

async function submitAs(userId: number) {
  const a = analysis()
  const stored = await analyzeAndStore(getDb(), { userId, image: await noiseImage(), analyze: async () => a })
  return submitReceipt(getDb(), {
    userId,
    analysisId: stored.id,
    maxAgeDays: 14,
    passport: getPassportCheck(),
    values: { category: 'ride_share', amountCents: Math.round(a.totalAmount! * 100), purchaseDate: TODAY },
  })
}

async function storedSignals(receiptId: number) {
  const row = await getDb().selectFrom('receipts').select('review_signals_json').where('id', '=', receiptId).executeTakeFirstOrThrow()
  return JSON.parse(row.review_signals_json!)
}

describe('VeBetter Passport before an automatic approval', () => {
  it('approves a person at once, and keeps what the Passport said for staff', async () => {
    const fake = fakeChain()
    const { user } = await signInNewUser()
    fake.setPassport(user.walletAddress, { person: true })
    const result = await submitAs(user.id)
    expect(result).toMatchObject({ ok: true, status: 'approved' })
    if (!result.ok) return
    expect((await storedSignals(result.receiptId)).passport).toMatchObject({ ok: true, status: { blacklisted: false, signals: 0, isPerson: true } })
  })

  // Issue 31 changed this: a clean wallet that is not a person yet has no standing, so its photo
  // waits for staff (it was approved at once before).
  it('sends a clean new wallet that is not a person yet to review, and keeps what the Passport said for staff', async () => {
    fakeChain()
    const { user } = await signInNewUser()
    const result = await submitAs(user.id)
    expect(result).toMatchObject({ ok: true, status: 'pending_review', reasons: [NEW_WALLET_REVIEW_REASON] })
    if (!result.ok) return
    expect((await storedSignals(result.receiptId)).passport).toMatchObject({ ok: true, status: { blacklisted: false, signals: 0, isPerson: false } })
  })

  it.each([
    ['a blacklisted wallet', { blacklisted: true }, PASSPORT_REASONS.blacklisted],
    ['a signalled wallet', { signals: 3 }, 'VeBetter Passport has 3 signals against this wallet.'],
  ])('sends %s to review, never refusing it', async (_name, entry, reason) => {
    const fake = fakeChain()
    const { user } = await signInNewUser()
    fake.setPassport(user.walletAddress, entry)
    const result = await submitAs(user.id)
    expect(result).toMatchObject({ ok: true, status: 'pending_review' })
    if (result.ok) expect(result.reasons).toContain(reason)
  })

  it('sends the receipt to review when the node is down: nothing is paid on a guess', async () => {
    const fake = fakeChain()
    fake.faults.down = true
    const { user } = await signInNewUser()
    const result = await submitAs(user.id)
    expect(result).toMatchObject({ ok: true, status: 'pending_review' })
    if (result.ok) expect(result.reasons).toContain(PASSPORT_REASONS.unavailable)
  })
})

describe('signalling a confirmed fraud', () => {
  async function rejectWithSignal(receiptId: number) {
    const admin = await signInNewUser(ADMIN_WALLET)
    return reviewAction({
      ...ctx,
      request: formRequest('/admin/receipts', { intent: 'reject', receiptId: String(receiptId), reason: 'Drawn receipt', signal: 'on' }, admin.cookie),
    })
  }

  it('says how to get the SIGNALER_ROLE when the distributor lacks it', async () => {
    const fake = fakeChain()
    const { user } = await signInNewUser()
    fake.setPassport(user.walletAddress, { signals: 1 })
    const result = await submitAs(user.id)
    if (!result.ok) throw new Error(result.error)
    const res = await rejectWithSignal(result.receiptId)
    expect(res.status).toBe(409)
    const body = (await res.json()) as { error: string }
    expect(body.error).toMatch(/SIGNALER_ROLE/)
    expect(body.error).toContain(`assignSignalerToAppByAppAdmin(${APP_ID}, ${DISTRIBUTOR.address.toLowerCase()})`)
    expect(fake.passportSignals()).toHaveLength(0)
  })

  it('signals the wallet from the distributor when it holds the role', async () => {
    const fake = fakeChain()
    fake.addSignaler(DISTRIBUTOR.address)
    const { user } = await signInNewUser()
    fake.setPassport(user.walletAddress, { signals: 1 })
    const result = await submitAs(user.id)
    if (!result.ok) throw new Error(result.error)
    const res = await rejectWithSignal(result.receiptId)
    expect(res.status).toBe(302)
    fake.mine(1)
    expect(fake.passportSignals()).toEqual([{ user: user.walletAddress.toLowerCase(), reason: expect.stringContaining('Drawn receipt'), signaler: DISTRIBUTOR.address.toLowerCase() }])
    const audit = await getDb().selectFrom('audit_log').select('action').where('target_id', '=', result.receiptId).orderBy('id').execute()
    expect(audit.map((a) => a.action)).toEqual(['receipt.reject', 'passport.signal'])
  })
})

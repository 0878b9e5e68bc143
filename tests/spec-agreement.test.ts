// The screens agree with what the server does (issue 24): the reward the form promises is the one
// paid, the screens are within reach, Notifications shows review and payout outcomes, one label per
// claim status, the Tokens page's stats. Pages are rendered as a browser without JavaScript gets
// them; tests/e2e/spec-agreement.e2e.ts checks the same at 360 px in a browser.
import { describe, expect, it } from 'vitest'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { approveReceipt, rejectReceipt } from '../app/receipts/review.server'
import { submitReceipt } from '../app/receipts/receipts.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import * as homePage from '../app/routes/home'
import * as landingPage from '../app/routes/_index'
import * as profilePage from '../app/routes/profile'
import * as scanPage from '../app/routes/scan/route'
import * as transactionsPage from '../app/routes/transactions'
import { getDb } from '../app/utils/db.server'
import { updateUserSettings } from '../app/users/users.server'
import { addApprovedReceipt, addFirstReceiptBonus, setStreak } from './utils/engagement'
import { noiseImage } from './utils/images'
import { userWithClaim } from './utils/payouts'
import { renderRoute } from './utils/render'
import { cookieFrom, formRequest, signInNewUser } from './utils/requests'
import { createSession } from '../app/auth/session.server'
import { ADMIN_WALLET } from './utils/wallet'
import { asPassportPeople, asPerson } from './utils/standing'
import { NEW_WALLET_NOTICE } from '../app/receipts/standing'

const TODAY = new Date().toISOString().slice(0, 10)
let trips = 0

const analysis = (over: Partial<StoredAnalysis> = {}): StoredAnalysis => ({
  referenceNumber: `I24-${process.pid}-${++trips}`,
  isValid: true,
  storeName: 'MTA / OMNY',
  category: 'public_transit',
  totalAmount: 2.9,
  purchaseDate: TODAY,
  confidence: 0.97,
  isAcceptable: true,
  needsManualReview: false,
  reasons: [],
  ...over,
})

async function analyzed(userId: number, over: Partial<StoredAnalysis> = {}) {
  return analyzeAndStore(getDb(), { userId, image: await noiseImage(), analyze: async () => analysis(over) })
}

describe('the reward on the form step is what the server pays', () => {
  it('a $2.90 subway fare: 19.0 B3TR shown, 19 paid (floor(8 × 1.2) + 10 first-receipt bonus)', async () => {
    const { user, cookie } = await signInNewUser()
    // An established wallet (issue 31): what it is shown is what it is paid at once.
    await asPassportPeople([user.walletAddress], async () => {
      const stored = await analyzed(user.id)
      const page = await renderRoute('/scan', scanPage, `/scan?analysis=${stored.id}`, cookie)
      expect(page).toMatch(/data-testid="reward-preview"[^>]*>19\.0 B3TR</)
      expect(page).toContain('First receipt bonus')
      const result = await submitReceipt(getDb(), {
        userId: user.id,
        analysisId: stored.id,
        values: { category: 'public_transit', amountCents: 290, purchaseDate: TODAY },
        maxAgeDays: 14,
        passport: asPerson,
      })
      expect(result.ok && result.reward!.totalMilli + result.firstReceiptBonusMilli).toBe(19_000)
    })
  })

  it('at a streak this receipt takes to 3 days: 11.0 B3TR (floor(8 × 1.2 × 1.2)), no bonus', async () => {
    const { user, cookie } = await signInNewUser()
    // An established wallet (issue 31): what it is shown is what it is paid at once.
    await asPassportPeople([user.walletAddress], async () => {
      await addFirstReceiptBonus(getDb(), user.id)
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
      await setStreak(getDb(), user.id, 2, yesterday)
      const stored = await analyzed(user.id, { totalAmount: 40, storeName: 'Uber', category: 'ride_share' })
      const page = await renderRoute('/scan', scanPage, `/scan?analysis=${stored.id}`, cookie)
      expect(page).toMatch(/data-testid="reward-preview"[^>]*>11\.0 B3TR</)
      expect(page).not.toContain('First receipt bonus')
      const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values: { category: 'ride_share', amountCents: 4000, purchaseDate: TODAY }, maxAgeDays: 14, passport: asPerson })
      expect(result.ok && result.reward!.totalMilli).toBe(11_000)
      const entry = await getDb().selectFrom('transactions').select('description').where('receipt_id', '=', result.ok ? result.receiptId : 0).where('type', '=', 'receipt_verification').executeTakeFirstOrThrow()
      expect(entry.description).toBe('Receipt verified: Uber (streak bonus ×1.2, transport bonus ×1.2)')
    })
  })

  it("a new wallet's photo: the form says it goes to review and promises no instant amount (issue 31)", async () => {
    const { user, cookie } = await signInNewUser()
    const capture = await renderRoute('/scan', scanPage, '/scan', cookie)
    expect(capture).toContain(NEW_WALLET_NOTICE)
    const stored = await analyzed(user.id)
    const page = await renderRoute('/scan', scanPage, `/scan?analysis=${stored.id}`, cookie)
    expect(page).not.toContain('data-testid="reward-preview"')
    expect(page).toContain('This receipt goes to review, usually within a day.')
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values: { category: 'public_transit', amountCents: 290, purchaseDate: TODAY }, maxAgeDays: 14 })
    expect(result).toMatchObject({ ok: true, status: 'pending_review', reward: null, firstReceiptBonusMilli: 0 })
  })

  it('the amount defaults to 0 when no total was read (spec 1 §5)', async () => {
    const { user, cookie } = await signInNewUser()
    const stored = await analyzed(user.id, { totalAmount: null, needsManualReview: true, isAcceptable: false, reasons: ['No total found'] })
    const page = await renderRoute('/scan', scanPage, `/scan?analysis=${stored.id}`, cookie)
    expect(page).toMatch(/<input[^>]*name="amount"[^>]*value="0"/)
    expect(page).not.toContain('data-testid="reward-preview"')
  })
})

describe('screens within reach', () => {
  it('Home links its stats to Impact Explorer and has a stores card; Profile links the rest', async () => {
    const { cookie } = await signInNewUser()
    const home = await renderRoute('/home', homePage, '/home', cookie)
    expect(home).toMatch(/<a (?=[^>]*href="\/impact-explorer")(?=[^>]*data-testid="stats-link")/)
    expect(home).toContain('href="/stores"')
    const profile = await renderRoute('/profile', profilePage, '/profile', cookie)
    for (const href of ['/rewards', '/impact-explorer', '/stores', '/add-store', '/invite-friend']) expect(profile).toContain(`href="${href}"`)
  })

  it('a shared achievement link shows the achievement and how to start', async () => {
    const page = await renderRoute('/', landingPage, '/?achievement=five_receipts')
    expect(page).toContain('A friend unlocked an achievement on ReCircle')
    expect(page).toContain('Eco Commuter')
    expect(page).toMatch(/href="\/connect-wallet"[^>]*>Start Earning</)
    const plain = await renderRoute('/', landingPage, '/?achievement=nope')
    expect(plain).not.toContain('data-testid="shared-achievement"')
  })
})

describe('Notifications: review and payout outcomes on the next visit', () => {
  it('shows staff decisions and a confirmed claim until dismissed, and nothing when off', async () => {
    const db = getDb()
    const { user, cookie } = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    const toReview = await analyzed(user.id, { needsManualReview: true, isAcceptable: false, reasons: ['Low confidence'] })
    const first = await submitReceipt(db, { userId: user.id, analysisId: toReview.id, values: { category: 'public_transit', amountCents: 290, purchaseDate: TODAY }, maxAgeDays: 14 })
    const rejected = await analyzed(user.id, { needsManualReview: true, isAcceptable: false, reasons: ['Low confidence'], storeName: 'BART' })
    const second = await submitReceipt(db, { userId: user.id, analysisId: rejected.id, values: { category: 'public_transit', amountCents: 290, purchaseDate: TODAY }, maxAgeDays: 14 })
    expect(await approveReceipt(db, { adminUserId: admin.user.id, receiptId: first.ok ? first.receiptId : 0 })).toEqual({ ok: true })
    expect(await rejectReceipt(db, { adminUserId: admin.user.id, receiptId: second.ok ? second.receiptId : 0, reason: 'The photo is unreadable.' })).toEqual({ ok: true })

    let home = await renderRoute('/home', homePage, '/home', cookie)
    expect(home).toContain('Since your last visit')
    expect(home).toContain('Receipt approved')
    // Approved at streak 0: floor(8 × 1.2) = 9, + 10 first-receipt bonus.
    expect(home).toContain('MTA / OMNY: +19.0 B3TR')
    expect(home).toContain('Receipt rejected')
    expect(home).toContain('BART: The photo is unreadable.')

    const dismissed = await homePage.action({ request: formRequest('/home', { intent: 'dismiss-notices' }, cookie), params: {}, context: {} })
    expect(dismissed.status).toBe(302)
    home = await renderRoute('/home', homePage, '/home', cookie)
    expect(home).not.toContain('Since your last visit')

    // A claim confirmed on chain afterwards is the next notice; with Notifications off, none shows.
    const claimant = await userWithClaim(12_500)
    const claimantCookie = cookieFrom(await createSession(db, new Request('http://localhost:3000'), claimant.user.id))
    const later = new Date(Date.now() + 1000).toISOString()
    await db.updateTable('payouts').set({ status: 'confirmed', confirmed_at: later, updated_at: later }).where('id', '=', claimant.payoutId!).execute()
    await db.updateTable('transactions').set({ status: 'confirmed' }).where('id', '=', claimant.claimId).execute()
    home = await renderRoute('/home', homePage, '/home', claimantCookie)
    expect(home).toContain('Claim confirmed')
    expect(home).toContain('12.5 B3TR paid to your wallet on VeChain.')
    await updateUserSettings(db, claimant.user.id, { notificationsEnabled: false })
    home = await renderRoute('/home', homePage, '/home', claimantCookie)
    expect(home).not.toContain('Claim confirmed')
  })
})

describe('one label per status, and the Tokens page stats', () => {
  it('a claim waiting for its payout reads Awaiting payout in the history too', async () => {
    const db = getDb()
    const claimant = await userWithClaim(12_500, 2)
    const cookie = cookieFrom(await createSession(db, new Request('http://localhost:3000'), claimant.user.id))
    const page = await renderRoute('/transactions', transactionsPage, '/transactions', cookie)
    expect(page).toContain('Awaiting payout')
    expect(page).not.toContain('Pending Claim')
    // The explorer stats (spec 2 §2): 3 entries (two receipt rewards and the claim), 12.5 B3TR
    // earned, 2 receipt verifications; the address as its first 8 and last 6 characters.
    expect(page).toMatch(/data-testid="stat-transactions"[^>]*>3</)
    expect(page).toMatch(/data-testid="stat-total-b3tr"[^>]*>12\.5</)
    expect(page).toMatch(/data-testid="stat-receipts"[^>]*>2</)
    const address = claimant.wallet.address.toLowerCase()
    expect(page).toContain(`${address.slice(0, 8)}...${address.slice(-6)}`)
  })

  it('counts only receipts that did not fail', async () => {
    const { user, cookie } = await signInNewUser()
    await addApprovedReceipt(getDb(), user.id, { rewardMilli: 9000 })
    await addApprovedReceipt(getDb(), user.id, { rewardMilli: 11_000 })
    const page = await renderRoute('/transactions', transactionsPage, '/transactions', cookie)
    expect(page).toMatch(/data-testid="stat-total-b3tr"[^>]*>20\.0</)
    expect(page).toMatch(/data-testid="stat-receipts"[^>]*>2</)
  })
})

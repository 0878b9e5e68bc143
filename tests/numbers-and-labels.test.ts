// Issue 11 §2–3: the numbers one screen shows agree with the rules and with the other screens, and
// people read labels, not keys. Pages are rendered on the server as a browser without JavaScript
// gets them; the streak celebration (JavaScript only) is rendered with what its page passes it.
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { StreakCelebration } from '../app/components/streak-celebration'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { submitReceipt } from '../app/receipts/receipts.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import { action as submitApi } from '../app/routes/api.receipts'
import { maxReceiptRewardB3tr, computeReceiptReward, FIRST_RECEIPT_BONUS_MILLI } from '../app/rewards/receipt-reward'
import { utcDay, addUtcDays } from '../app/utils/calendar'
import * as achievementsPage from '../app/routes/achievements'
import * as addStorePage from '../app/routes/add-store'
import * as adminReceiptsPage from '../app/routes/admin.receipts/route'
import * as apiStats from '../app/routes/api.users.$id.stats'
import * as helpPage from '../app/routes/help'
import * as impactPage from '../app/routes/impact-explorer'
import * as invitePage from '../app/routes/invite-friend'
import * as landingPage from '../app/routes/_index'
import * as myReceiptsPage from '../app/routes/receipts'
import * as receiptPage from '../app/routes/scan_.receipts.$id'
import * as scanPage from '../app/routes/scan/route'
import * as redeemPage from '../app/routes/redeem'
import * as rewardsPage from '../app/routes/rewards'
import * as storePage from '../app/routes/stores.$id'
import * as storesPage from '../app/routes/stores._index'
import * as transactionsPage from '../app/routes/transactions'
import * as transactionPage from '../app/routes/transactions_.$id/route'
import { getDb } from '../app/utils/db.server'
import { listUserTransactions } from '../app/users/history.server'
import { getUserTransaction } from '../app/users/transaction-detail.server'
import { recordEntry } from '../app/rewards/ledger.server'
import { splitAtSupport, supportHref } from '../app/utils/support'
import fs from 'node:fs'
import { resetEnvCache } from '../app/utils/env.server'
import { addApprovedReceipt, addFirstReceiptBonus, addPendingClaim, setStreak } from './utils/engagement'
import { noiseImage } from './utils/images'
import { renderRoute, textOf } from './utils/render'
import { bodyOf, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'
import { asPerson } from './utils/standing'

const ctx = { context: {}, params: {} }
let trips = 0

function uberAnalysis(day: string, over: Partial<StoredAnalysis> = {}): StoredAnalysis {
  return {
    referenceNumber: `NL${process.pid}X${++trips}`,
    isValid: true,
    storeName: 'Uber',
    category: 'ride_share',
    totalAmount: 26.67,
    purchaseDate: day,
    confidence: 0.97,
    isAcceptable: true,
    needsManualReview: false,
    reasons: [],
    ...over,
  }
}

/** A receipt accepted on `now` (the day its streak counts), through the real submission path. */
async function acceptReceipt(userId: number, now: Date, over: Partial<StoredAnalysis> = {}) {
  const day = utcDay(now)
  const stored = await analyzeAndStore(getDb(), { userId, image: await noiseImage(), analyze: async () => uberAnalysis(day, over) })
  const result = await submitReceipt(getDb(), {
    userId,
    analysisId: stored.id,
    values: { category: 'ride_share', amountCents: Math.round((over.totalAmount ?? 26.67) * 100), purchaseDate: day },
    maxAgeDays: 14,
    now,
    passport: asPerson,
  })
  if (!result.ok) throw new Error(result.error)
  return result
}

async function load(loader: (args: never) => Promise<Response>, path: string, cookie: string, params: Record<string, string> = {}) {
  const res = await loader({ request: getRequest(path, cookie), params, context: {} } as never)
  expect(res.status).toBe(200)
  return bodyOf(res)
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000)

describe('numbers that agree', () => {
  it('the landing page promises exactly what one receipt can pay', async () => {
    const text = textOf(await renderRoute('/', landingPage, '/'))
    expect(maxReceiptRewardB3tr()).toBe(19)
    // Issue 40: one B3TR format, rule amounts too.
    expect(text).toContain(`Earn up to ${maxReceiptRewardB3tr()}.0 B3TR per receipt`)

    // And a first rideshare receipt at the cap really pays it.
    const { user } = await signInNewUser()
    const result = await acceptReceipt(user.id, new Date())
    expect((result.reward?.totalMilli ?? 0) + result.firstReceiptBonusMilli).toBe(maxReceiptRewardB3tr() * 1000)

    const help = textOf(await renderRoute('/help', helpPage, '/help'))
    expect(help).toContain(`one receipt can earn up to ${maxReceiptRewardB3tr()}.0 B3TR`)
  })

  it('the streak celebration names the multiplier the receipt was paid with', async () => {
    const { user, cookie } = await signInNewUser()
    await acceptReceipt(user.id, daysAgo(2))
    await acceptReceipt(user.id, daysAgo(1), { storeName: 'Lyft' })
    const third = await acceptReceipt(user.id, new Date(), { storeName: 'Uber', totalAmount: 30 })
    expect(third.streak).toEqual({ increased: true, current: 3 })

    const { receipt } = await load(receiptPage.loader as never, `/scan/receipts/${third.receiptId}?new=1&streak=3`, cookie, { id: String(third.receiptId) })
    const applied = computeReceiptReward({ category: 'ride_share', streak: 3 })
    expect(receipt.rewardDetails.streakMultiplier).toBe(applied.streakMultiplier)
    expect(applied.streakMultiplier).toBe(1.2)

    // What the page hands the overlay, rendered.
    const overlay = textOf(renderToString(createElement(StreakCelebration, { streak: 3, streakMultiplier: receipt.rewardDetails.streakMultiplier, onComplete: () => {} })))
    expect(overlay).toContain('+20% streak bonus (×1.2)')
    // The default is the rules' multiplier for the streak, never a separate formula.
    for (const [streak, text] of [[3, '+20% streak bonus (×1.2)'], [7, '+50% streak bonus (×1.5)'], [14, '+50% streak bonus (×1.5)']] as const) {
      expect(textOf(renderToString(createElement(StreakCelebration, { streak, onComplete: () => {} })))).toContain(text)
    }
  })

  it('every screen shows the same CO2: the Impact Explorer card equals Carbon Reducer, achievements, rewards and the stats API', async () => {
    const { user, cookie } = await signInNewUser()
    const id = String(user.id)
    await addApprovedReceipt(getDb(), user.id, { rewardMilli: 40_000 })
    await addFirstReceiptBonus(getDb(), user.id)

    // One receipt: 5 kg everywhere (before, Carbon Reducer counted 0.5 kg per B3TR: 25 kg here).
    let impact = await load(impactPage.loader as never, '/impact-explorer', cookie)
    const carbon = impact.nextBadges.find((n: { badgeId: string }) => n.badgeId === 'co2_saver')
    expect(impact.summary.co2Kg).toBe(5)
    expect(carbon).toMatchObject({ current: impact.summary.co2Kg, target: 10 })
    expect((await load(achievementsPage.loader as never, '/achievements', cookie)).ecoImpact.co2Kg).toBe(impact.summary.co2Kg)
    expect((await load(rewardsPage.loader as never, '/rewards', cookie)).impact.co2Kg).toBe(impact.summary.co2Kg)
    expect((await load(apiStats.loader as never, `/api/users/${id}/stats`, cookie, { id })).totalCO2Saved).toBe(impact.summary.co2Kg * 1000)
    const html = textOf(await renderRoute('/impact-explorer', impactPage, '/impact-explorer', cookie))
    expect(html).toContain('5 kg CO2 Saved')
    expect(html).toContain('Carbon Reducer 5/10 kg CO2')

    // Two receipts: 10 kg, and Carbon Reducer is earned, dated by the second receipt.
    const second = new Date(Date.now() + 1000)
    await addApprovedReceipt(getDb(), user.id, { storeName: 'Lyft', createdAt: second })
    impact = await load(impactPage.loader as never, '/impact-explorer', cookie)
    expect(impact.summary.co2Kg).toBe(10)
    expect(impact.badges.find((b: { id: string }) => b.id === 'co2_saver')).toMatchObject({ earned: true, current: 10, earnedDate: second.toISOString() })
    expect(impact.nextBadges.map((n: { badgeId: string }) => n.badgeId)).not.toContain('co2_saver')
  })

  it('shows the estimated water saved', async () => {
    const { user, cookie } = await signInNewUser()
    await addApprovedReceipt(getDb(), user.id)
    await addApprovedReceipt(getDb(), user.id, { storeName: 'Lyft' })
    expect((await load(impactPage.loader as never, '/impact-explorer', cookie)).summary.waterLiters).toBe(1400)
    const text = textOf(await renderRoute('/impact-explorer', impactPage, '/impact-explorer', cookie))
    expect(text).toContain('1,400 L Water Saved (estimated, 700 L per trip)')
  })

  it("dates 'Consistent' by the receipt that made the third day in a row", async () => {
    const { user, cookie } = await signInNewUser()
    await acceptReceipt(user.id, daysAgo(2))
    await acceptReceipt(user.id, daysAgo(1), { storeName: 'Lyft' })
    const today = new Date()
    await acceptReceipt(user.id, today, { storeName: 'Uber', totalAmount: 12 })
    const impact = await load(impactPage.loader as never, '/impact-explorer?tab=streak', cookie)
    const consistent = impact.badges.find((b: { id: string }) => b.id === 'streak_3')
    expect(consistent.earned).toBe(true)
    expect(consistent.earnedDate.slice(0, 10)).toBe(utcDay(today))
    const text = textOf(await renderRoute('/impact-explorer', impactPage, '/impact-explorer?tab=streak', cookie))
    const shown = new Date(consistent.earnedDate).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
    expect(text).toMatch(new RegExp(`Consistent Verified receipts sent on 3 days in a row\\. Earned common Earned ${shown}`))
  })

  it('dates a streak badge from the stored streak when the receipts do not show the days', async () => {
    const { user, cookie } = await signInNewUser()
    await addApprovedReceipt(getDb(), user.id)
    const today = utcDay(new Date())
    await setStreak(getDb(), user.id, 4, today)
    const impact = await load(impactPage.loader as never, '/impact-explorer', cookie)
    expect(impact.badges.find((b: { id: string }) => b.id === 'streak_3').earnedDate).toBe(addUtcDays(today, -1))
  })
})

describe('labels people can read', () => {
  it('names achievement rewards by their title in the Tokens list', async () => {
    const { user, cookie } = await signInNewUser()
    await addFirstReceiptBonus(getDb(), user.id)
    await getDb()
      .insertInto('transactions')
      .values({
        user_id: user.id,
        type: 'achievement_reward',
        amount_milli: 3000,
        description: 'Achievement Reward: first_store',
        status: 'completed',
        tx_hash: null,
        idempotency_key: `achievement:${user.id}:first_store`,
        receipt_id: null,
        store_submission_id: null,
        referral_id: null,
        created_at: new Date().toISOString(),
      })
      .execute()
    const text = textOf(await renderRoute('/transactions', transactionsPage, '/transactions', cookie))
    expect(text).toContain('Achievement Reward: Store Pioneer')
    expect(text).toContain('Achievement Reward: First Receipt')
    expect(text).not.toMatch(/first_store|first_receipt/)
  })

  it("shows the admin the categories in words and the service the user chose", async () => {
    const { user, cookie } = await signInNewUser()
    const services = await getDb().selectFrom('transportation_services').select(['id', 'name']).where('name', '=', 'Lyft').execute()
    const lyft = services[0]!
    const day = utcDay(new Date())
    const stored = await analyzeAndStore(getDb(), {
      userId: user.id,
      image: await noiseImage(),
      analyze: async () => uberAnalysis(day, { storeName: null, category: 'ride_share', totalAmount: 18.5, isValid: false, isAcceptable: false, needsManualReview: true, reasons: ['Please check'] }),
    })
    const res = await submitApi({
      ...ctx,
      request: jsonRequest('/api/receipts', { analysisId: stored.id, storeId: String(lyft.id), category: 'electric_vehicle', amount: 18.5, purchaseDate: day, userId: user.id }, { headers: { Cookie: cookie } }),
    })
    expect(res.status).toBeLessThan(300)
    expect((await bodyOf(res)).status).toBe('pending_review')

    const admin = await signInNewUser(ADMIN_WALLET)
    const text = textOf(await renderRoute('/admin/receipts', adminReceiptsPage, '/admin/receipts', admin.cookie))
    expect(text).toContain('Vendor — Lyft')
    expect(text).toContain('Category Rideshare Electric Vehicle')
    expect(text).not.toMatch(/ride_share|electric_vehicle/)
  })

  it('prints a receipt\'s amount in its own currency on every screen, never converted: ₩27,700, not $27700.00', async () => {
    const { user, cookie } = await signInNewUser()
    const day = utcDay(new Date())
    const seoulTaxi = { storeName: 'Kakao T', totalAmount: 27700, currency: 'KRW', isAcceptable: false, needsManualReview: true, reasons: ['Please check'] }
    const stored = await analyzeAndStore(getDb(), { userId: user.id, image: await noiseImage(), analyze: async () => uberAnalysis(day, seoulTaxi) })
    const scan = await load(scanPage.loader, `/scan?analysis=${stored.id}`, cookie)
    expect(scan.analysis).toMatchObject({ totalAmount: 27700, currency: 'KRW' })
    const screens = [textOf(await renderRoute('/scan', scanPage, `/scan?analysis=${stored.id}`, cookie))]
    const sent = await submitReceipt(getDb(), {
      userId: user.id,
      analysisId: stored.id,
      values: { category: 'ride_share', amountCents: 2_770_000, purchaseDate: day },
      maxAgeDays: 14,
      passport: asPerson,
    })
    if (!sent.ok) throw new Error(sent.error)
    const cents = await getDb().selectFrom('receipts').select(['amount_cents', 'user_amount_cents']).where('id', '=', sent.receiptId).executeTakeFirstOrThrow()
    expect(cents).toEqual({ amount_cents: 2_770_000, user_amount_cents: 2_770_000 })
    const admin = await signInNewUser(ADMIN_WALLET)
    screens.push(
      textOf(await renderRoute('/receipts', myReceiptsPage, '/receipts', cookie)),
      textOf(await renderRoute('/scan/receipts/:id', receiptPage, `/scan/receipts/${sent.receiptId}`, cookie)),
      textOf(await renderRoute('/admin/receipts', adminReceiptsPage, '/admin/receipts', admin.cookie)),
    )
    for (const text of screens) {
      expect(text).toContain('₩27,700')
      expect(text).not.toContain('$27700')
    }
    // Staff read and entered totals, side by side in the one currency.
    expect(screens[3]).toContain('Total ₩27,700 ₩27,700')
  })

  it("describes an 'other' store without broken grammar", async () => {
    const { cookie } = await signInNewUser()
    const store = await getDb()
      .insertInto('stores')
      .values({ name: 'Corner Swap', address: '1 Main St', city: 'Tempe', state: 'AZ', store_type: 'other', latitude: null, longitude: null, added_by_user_id: null, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow()
    const text = textOf(await renderRoute('/stores/:id', storePage, `/stores/${store.id}`, cookie))
    expect(text).toContain('A sustainable store: second-hand, repair or refill shopping')
    expect(text).not.toContain('A other')
  })

  it('writes one trip, one store and one day in the singular', async () => {
    const { user, cookie } = await signInNewUser()
    await addApprovedReceipt(getDb(), user.id)
    const impact = await renderRoute('/impact-explorer', impactPage, '/impact-explorer', cookie)
    const hrefs = [...impact.matchAll(/href="([^"]*)"/g)].map((m) => decodeURIComponent(m[1]!.replace(/&amp;/g, '&').replace(/\+/g, ' ')))
    expect(hrefs.some((h) => h.includes('with 1 sustainable trip and'))).toBe(true)
    expect(hrefs.some((h) => h.includes('1 sustainable trips'))).toBe(false)
    const { achievements } = await load(achievementsPage.loader as never, '/achievements', cookie)
    const texts = achievements.map((a: { impactMessage: string; shareText: string }) => `${a.impactMessage} ${a.shareText}`).join(' ')
    expect(texts).toContain('1 sustainable trip this month')
    expect(texts).toContain('Your 1 sustainable trip prevented')
    expect(texts).not.toContain('1 sustainable trips')
  })

  it('shows no CO2 on reward rows that are not trips', async () => {
    const { user, cookie } = await signInNewUser()
    await addApprovedReceipt(getDb(), user.id)
    await addFirstReceiptBonus(getDb(), user.id)
    const text = textOf(await renderRoute('/rewards', rewardsPage, '/rewards', cookie))
    // In kg since issue 32 (was "5,000 g CO2 saved").
    expect(text.match(/kg CO2 saved/g)).toHaveLength(1)
    expect(text).toContain('5 kg CO2 saved')
    expect(text).not.toContain(' 0 kg CO2 saved')
  })
})

describe('help, invitations and stores without JavaScript', () => {
  afterEach(() => {
    delete process.env.SUPPORT_EMAIL
    delete process.env.STORE_FORM_URL
    resetEnvCache()
  })

  it('Help: categories open their questions, chat opens the feedback form, email only when configured', async () => {
    let html = await renderRoute('/help', helpPage, '/help?topic=rewards')
    expect(html).toMatch(/<a [^>]*href="\/help\?topic=wallet#faq-wallet"/)
    expect(html).toMatch(/id="faq-rewards"[\s\S]*?<details class="faq" open="">[\s\S]*?How much can I earn\?/)
    expect(html).not.toMatch(/<details class="faq" open="">\s*<summary>How do I connect my wallet\?/)
    expect(html).toMatch(/<a [^>]*href="\/feedback\?type=issue"[^>]*>.*Chat with Support<\/a>/)
    expect(textOf(html)).not.toContain('Send Email')

    process.env.SUPPORT_EMAIL = 'help@recircle.test'
    resetEnvCache()
    html = await renderRoute('/help', helpPage, '/help')
    expect(html).toMatch(/<a href="mailto:help@recircle\.test\?subject=ReCircle%20support"[^>]*>.*Send Email<\/a>/)
    expect(html).not.toContain('open=""')
  })

  it('Copy without JavaScript shows the invite link to copy by hand', async () => {
    const { user, cookie } = await signInNewUser()
    expect(textOf(await renderRoute('/invite-friend', invitePage, '/invite-friend', cookie))).not.toContain('Copying needs JavaScript')
    const text = textOf(await renderRoute('/invite-friend', invitePage, '/invite-friend?copy=1', cookie))
    expect(text).toContain('Copying needs JavaScript')
    expect(text).toContain(`/join?ref=${user.referralCode}`)
  })

  it('Use My Location without JavaScript says that it needs JavaScript and uses the default city', async () => {
    const { cookie } = await signInNewUser()
    const text = textOf(await renderRoute('/stores', storesPage, '/stores?locate=1', cookie))
    expect(text).toContain('Your location needs JavaScript, which is off, so the default city is used.')
    expect(text).toContain('Distances in miles from Phoenix, AZ (default location).')
    const located = textOf(await renderRoute('/stores', storesPage, '/stores?lat=40.7128&lng=-74.006', cookie))
    expect(located).not.toContain('needs JavaScript, which is off')
  })

  it('with STORE_FORM_URL the main button opens the external form and its overlay', async () => {
    const { cookie } = await signInNewUser()
    process.env.STORE_FORM_URL = 'https://forms.example.test/store'
    resetEnvCache()
    const page = await renderRoute('/add-store', addStorePage, '/add-store', cookie)
    expect(page).toMatch(/<a [^>]*href="\/add-store\?step=form"[^>]*>Submit a New Sustainable Store<\/a>/)
    expect(page).not.toContain('role="dialog"')
    const overlay = await renderRoute('/add-store', addStorePage, '/add-store?step=form', cookie)
    expect(overlay).toContain('role="dialog"')
    expect(overlay).toMatch(/<a href="https:\/\/forms\.example\.test\/store" target="_blank"[^>]*>Open form<\/a>/)
    expect(textOf(overlay)).toContain("I've Completed The Form")
    expect(textOf(overlay)).toContain('An approved store earns you 10.0 B3TR (3.0 B3TR more for your first)')
  })

  it('without STORE_FORM_URL there is no overlay: the button leads to the in-app form', async () => {
    const { cookie } = await signInNewUser()
    const page = await renderRoute('/add-store', addStorePage, '/add-store?step=form', cookie)
    expect(page).not.toContain('role="dialog"')
    expect(page).toMatch(/<a [^>]*href="\/add-store#store-form"[^>]*>Submit a New Sustainable Store<\/a>/)
  })
})

it('FIRST_RECEIPT_BONUS is part of the landing figure', () => {
  expect(maxReceiptRewardB3tr() * 1000 - FIRST_RECEIPT_BONUS_MILLI).toBe(computeReceiptReward({ category: 'ride_share', streak: 1 }).totalMilli)
})

// Issue 32 §5: the same quantity in the same unit on every screen, one status per thing, and labels
// that say what they count.
describe('issue 32: numbers and labels that agree', () => {
  afterEach(() => {
    delete process.env.SUPPORT_EMAIL
    resetEnvCache()
  })

  async function twoTrips() {
    const signedIn = await signInNewUser()
    await addApprovedReceipt(getDb(), signedIn.user.id)
    await addApprovedReceipt(getDb(), signedIn.user.id, { storeName: 'Lyft', createdAt: new Date(Date.now() + 1000) })
    await addFirstReceiptBonus(getDb(), signedIn.user.id)
    return signedIn
  }

  it('trees: Achievements and Reward History show the same tree equivalents for the same trips (was 4 vs 0.4)', async () => {
    const { cookie } = await twoTrips()
    const achievements = textOf(await renderRoute('/achievements', achievementsPage, '/achievements', cookie))
    const rewards = textOf(await renderRoute('/rewards', rewardsPage, '/rewards', cookie))
    // 10 kg / 21.77 kg per tree-year, rounded down to a tenth.
    expect(achievements).toContain('0.4 Tree equivalents (estimated)')
    expect(rewards).toContain('0.4 tree equivalents')
    expect(`${achievements} ${rewards}`).not.toMatch(/trees saved/i)
    const { achievements: cards } = await load(achievementsPage.loader as never, '/achievements', cookie)
    const stats = cards.find((a: { key: string }) => a.key === 'first_receipt').stats
    expect(stats).toContainEqual({ label: 'Tree equivalents', value: '0.4' })
  })

  it('CO2: kg on every screen, never grams (was "10 kg" vs "10,000 g")', async () => {
    const { cookie } = await twoTrips()
    const pages = {
      achievements: textOf(await renderRoute('/achievements', achievementsPage, '/achievements', cookie)),
      impact: textOf(await renderRoute('/impact-explorer', impactPage, '/impact-explorer', cookie)),
      rewards: textOf(await renderRoute('/rewards', rewardsPage, '/rewards', cookie)),
    }
    expect(pages.achievements).toContain('10 kg CO2 prevented (estimated)')
    expect(pages.impact).toContain('10 kg CO2 Saved (estimated)')
    expect(pages.rewards).toContain('CO2 Saved 10 kg Estimated')
    expect(pages.rewards).toContain('10 kg CO2 prevented')
    expect(pages.rewards.match(/5 kg CO2 saved/g)).toHaveLength(2)
    for (const text of Object.values(pages)) {
      expect(text).not.toMatch(/\d g\b|10,000|10\.0 kg/)
    }
  })

  it('achievements and badges: each count says what it counts and points to the other', async () => {
    const { cookie } = await twoTrips()
    const data = await load(achievementsPage.loader as never, '/achievements', cookie)
    const impact = await load(impactPage.loader as never, '/impact-explorer', cookie)
    expect(data.achievements).toHaveLength(6)
    // Decision 113: six badges, none repeating an achievement.
    expect(impact.badges).toHaveLength(6)
    const achievements = textOf(await renderRoute('/achievements', achievementsPage, '/achievements', cookie))
    const badges = textOf(await renderRoute('/impact-explorer', impactPage, '/impact-explorer', cookie))
    expect(achievements).toContain(`${data.unlockedCount} of 6 achievements unlocked`)
    expect(achievements).toContain(`${impact.badgesEarned} of 6 badges earned`)
    expect(badges).toContain(`${impact.badgesEarned} of 6 Badges Earned`)
    expect(badges).toContain(`achievements (${data.unlockedCount} of 6 unlocked)`)
    expect(achievements).not.toMatch(/\d of 6 unlocked/)
    expect(badges).not.toMatch(/\d+\/10 Badges/)
  })

  it('transaction titles wrap instead of ending in an ellipsis at 360 px', () => {
    const css = fs.readFileSync('app/styles/engagement.css', 'utf8')
    const rules = [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].filter(([, selector]) => /\.tx-title\b|\.tx-row\b|\.tx-line\b/.test(selector!))
    expect(rules.length).toBeGreaterThan(3)
    for (const [, selector, body] of rules) {
      expect(body, selector).not.toMatch(/text-overflow:\s*ellipsis|white-space:\s*nowrap/)
    }
  })

  it('a claim shows one status, the claim\'s, not "Pending" above "Claim: Awaiting payout"', async () => {
    const { user, cookie } = await signInNewUser()
    await addApprovedReceipt(getDb(), user.id)
    await addPendingClaim(getDb(), user.id, 8000)
    const claim = await getDb().selectFrom('transactions').select('id').where('user_id', '=', user.id).where('type', '=', 'token_claim').executeTakeFirstOrThrow()
    const page = await load(transactionPage.loader as never, `/transactions/${claim.id}`, cookie, { id: String(claim.id) })
    expect(page.badge).toEqual({ label: 'Awaiting payout', tone: 'warn' })
    const text = textOf(await renderRoute('/transactions/:id', transactionPage, `/transactions/${claim.id}`, cookie))
    expect(text).toContain('Status Awaiting payout Date')
    expect(text).not.toMatch(/\bPending\b|Claim Awaiting payout/)

    // Any other entry keeps its ledger status.
    const receipt = await getDb().selectFrom('transactions').select('id').where('user_id', '=', user.id).where('type', '=', 'receipt_verification').executeTakeFirstOrThrow()
    expect((await load(transactionPage.loader as never, `/transactions/${receipt.id}`, cookie, { id: String(receipt.id) })).badge).toEqual({ label: 'Completed', tone: 'ok' })
  })

  it('"Verified e-receipt" marks only the receipt row of an e-receipt, not the achievement paid with it', async () => {
    const { user, cookie } = await signInNewUser()
    const receiptId = await addApprovedReceipt(getDb(), user.id)
    await getDb().updateTable('receipts').set({ verified_sender: 'uber.com' }).where('id', '=', receiptId).execute()
    // As the receipts code records the first-receipt bonus: with the receipt's id.
    await recordEntry(getDb(), {
      user_id: user.id,
      type: 'achievement_reward',
      amount_milli: 10_000,
      description: 'Achievement Reward: first_receipt',
      status: 'completed',
      tx_hash: null,
      idempotency_key: `achievement:${user.id}:first_receipt`,
      receipt_id: receiptId,
      store_submission_id: null,
      referral_id: null,
      created_at: new Date().toISOString(),
    })
    const rows = await listUserTransactions(getDb(), user.id)
    expect(rows.map((r) => [r.type, r.verifiedSender]).sort()).toEqual([
      ['achievement_reward', null],
      ['receipt_verification', 'uber.com'],
    ])
    const bonus = rows.find((r) => r.type === 'achievement_reward')!
    expect((await getUserTransaction(getDb(), user.id, bonus.id))?.verifiedSender).toBeNull()
    const text = textOf(await renderRoute('/transactions', transactionsPage, '/transactions', cookie))
    expect(text.match(/Verified e-receipt \(uber\.com\)/g)).toHaveLength(1)
  })

  it('a demo listing is not a verified store: the page shows one or the other', async () => {
    const { cookie } = await signInNewUser()
    const now = new Date().toISOString()
    const base = { address: '2 Main St', city: 'Tempe', state: 'AZ', store_type: 'clothing', latitude: null, longitude: null, added_by_user_id: null, created_at: now }
    const demo = await getDb().insertInto('stores').values({ ...base, name: `Demo Swap ${process.pid}`, verified: 1, is_demo: 1 }).returning('id').executeTakeFirstOrThrow()
    const real = await getDb().insertInto('stores').values({ ...base, name: `Real Swap ${process.pid}`, verified: 1, is_demo: 0 }).returning('id').executeTakeFirstOrThrow()
    const demoPage = textOf(await renderRoute('/stores/:id', storePage, `/stores/${demo.id}`, cookie))
    expect(demoPage).toContain('Demo listing')
    expect(demoPage).not.toContain('Verified Store')
    const realPage = textOf(await renderRoute('/stores/:id', storePage, `/stores/${real.id}`, cookie))
    expect(realPage).toContain('Verified Store')
    expect(realPage).not.toContain('Demo listing')
    const list = textOf(await renderRoute('/stores', storesPage, `/stores?q=${encodeURIComponent(`Demo Swap ${process.pid}`)}`, cookie))
    expect(list).toContain('Demo listing')
    expect(list).not.toContain('Verified Store')
  })

  it('Disconnect is a quiet button at the foot of the wallet card, an ordinary form that works without JavaScript', async () => {
    const { cookie } = await signInNewUser()
    const html = await renderRoute('/', landingPage, '/', cookie)
    const form = /<form method="post" action="\/auth\/wallet" class="wallet-disconnect">([\s\S]*?)<\/form>/.exec(html)?.[1]
    expect(form).toBeDefined()
    expect(form).toContain('<input type="hidden" name="intent" value="disconnect"/>')
    expect(form).toMatch(/<button type="submit" class="btn ghost quiet"[^>]*>[\s\S]*Disconnect Wallet<\/button>/)
    expect(html).not.toMatch(/class="btn danger[^"]*"[^>]*>[\s\S]{0,400}Disconnect Wallet/)
    const css = fs.readFileSync('app/styles/app.css', 'utf8')
    expect(/\.btn\.quiet \{([^}]*)\}/.exec(css)?.[1]).toMatch(/color: var\(--muted\)/)
  })

  it('"contact support" is a link: to the feedback form, or mailto: SUPPORT_EMAIL when set', async () => {
    expect(supportHref(null)).toBe('/feedback?type=issue')
    expect(supportHref('help@recircle.test')).toBe('mailto:help@recircle.test?subject=ReCircle%20support')
    expect(splitAtSupport('Claim again later or contact support.')).toEqual({ before: 'Claim again later or ', phrase: 'contact support', after: '.' })
    expect(splitAtSupport('Nothing to do.')).toBeNull()

    const { user, cookie } = await signInNewUser()
    await addApprovedReceipt(getDb(), user.id)
    await addPendingClaim(getDb(), user.id, 8000)
    const claim = await getDb().selectFrom('transactions').select('id').where('user_id', '=', user.id).where('type', '=', 'token_claim').executeTakeFirstOrThrow()
    // A refused payout: its user-facing reason ends in "contact support".
    await getDb().updateTable('transactions').set({ status: 'failed' }).where('id', '=', claim.id).execute()
    let html = await renderRoute('/transactions/:id', transactionPage, `/transactions/${claim.id}`, cookie)
    expect(textOf(html)).toContain('Status Failed')
    expect(html).toMatch(/or <a href="\/feedback\?type=issue">contact support<\/a>\./)
    // The redemption history shows the same reason with the same link.
    expect(await renderRoute('/redeem', redeemPage, '/redeem', cookie)).toMatch(/or <a href="\/feedback\?type=issue">contact support<\/a>\./)

    process.env.SUPPORT_EMAIL = 'help@recircle.test'
    resetEnvCache()
    html = await renderRoute('/transactions/:id', transactionPage, `/transactions/${claim.id}`, cookie)
    expect(html).toMatch(/or <a href="mailto:help@recircle\.test\?subject=ReCircle%20support">contact support<\/a>\./)
  })
})

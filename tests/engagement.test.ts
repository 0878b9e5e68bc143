import type { LoaderFunctionArgs } from '@remix-run/node'
import { describe, expect, it } from 'vitest'
import { creditAchievementRewards } from '../app/engagement/engagement.server'
import { takeActionSlot } from '../app/rewards/daily-limit.server'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { loader as achievementsLoader } from '../app/routes/achievements'
import { loader as csvLoader } from '../app/routes/api.me.transactions[.csv]'
import { loader as apiAchievementsLoader } from '../app/routes/api.users.$id.achievements'
import { loader as apiStatsLoader } from '../app/routes/api.users.$id.stats'
import { loader as apiTransactionsLoader } from '../app/routes/api.users.$id.transactions'
import { loader as impactLoader } from '../app/routes/impact-explorer'
import { action as profileAction, loader as profileLoader } from '../app/routes/profile'
import { loader as rewardsLoader } from '../app/routes/rewards'
import { loader as transactionsLoader } from '../app/routes/transactions'
import { getHomeSummary } from '../app/users/summary.server'
import { getLatestAchievement } from '../app/engagement/engagement.server'
import { getUserById } from '../app/users/users.server'
import { getDb } from '../app/utils/db.server'
import {
  REAL_HASH,
  addApprovedReceipt,
  addFirstReceiptBonus,
  addPendingClaim,
  addStoreAddition,
  setStreak,
} from './utils/engagement'
import { bodyOf, formRequest, getRequest, signInNewUser } from './utils/requests'

type Loader = (args: LoaderFunctionArgs) => Promise<Response>

async function load(loader: Loader, path: string, cookie?: string, params: Record<string, string> = {}) {
  const res = await loader({ request: getRequest(path, cookie), params, context: {} })
  expect(res.status).toBe(200)
  return bodyOf(res)
}

function byKey<T extends { key?: string; id?: string; type?: string }>(list: T[]) {
  return Object.fromEntries(list.map((x) => [x.key ?? x.id ?? x.type, x]))
}

describe('one user from 0 to 5 receipts and a store addition', () => {
  it('shows achievements, badges, stats and history from the ledger', async () => {
    const { user, cookie } = await signInNewUser()
    const db = getDb()
    const id = String(user.id)

    // 0 receipts: everything locked, the empty states.
    let ach = await load(achievementsLoader, '/achievements', cookie)
    expect(ach.unlockedCount).toBe(0)
    expect(ach.achievements).toHaveLength(6)
    expect(ach.ecoImpact).toEqual({ co2Kg: 0, treeEquivalents: 0 })
    let impact = await load(impactLoader, '/impact-explorer', cookie)
    expect(impact.badgesEarned).toBe(0)
    expect(impact.nextBadges.map((n: { badgeId: string }) => n.badgeId)).toEqual(['co2_saver', 'token_milestone_50', 'streak_7'])
    let tx = await load(transactionsLoader, '/transactions', cookie)
    expect(tx).toMatchObject({ hasAny: false, total: 0, items: [] })
    let rewards = await load(rewardsLoader, '/rewards', cookie)
    expect(rewards).toMatchObject({ period: '30d', rows: [], allTimeEarnedMilli: 0 })
    expect(rewards.perDay).toHaveLength(30)
    expect(await load(apiStatsLoader, `/api/users/${id}/stats`, cookie, { id })).toEqual({
      totalEarned: 0,
      totalTransactions: 0,
      totalCO2Saved: 0,
      currentStreak: 0,
      weeklyGoal: 100,
      weeklyProgress: 0,
    })

    // Receipt 1, with the first-receipt bonus written by the receipts code under its key.
    // Each receipt a second after the one before, so unlock times never tie on a fast machine.
    const t0 = Date.now() - 10_000
    const at = (n: number) => new Date(t0 + n * 1000)
    await addApprovedReceipt(db, user.id, { storeName: 'Uber', confidence: 0.934, createdAt: at(1) })
    expect(await addFirstReceiptBonus(db, user.id)).toBe(true)
    ach = await load(achievementsLoader, '/achievements', cookie)
    expect(ach.unlockedCount).toBe(1)
    expect(byKey(ach.achievements).first_receipt.unlocked).toBe(true)
    expect(ach.achievementSignal).toEqual({ receiptCount: 1 })
    // The catch-up in the loader did not pay first_receipt a second time.
    expect(await getBalanceMilli(db, user.id)).toBe(18_000)

    // Receipts 2 to 5 (the fifth confirmed on-chain), a 3-day streak.
    for (const [i, [storeName, category]] of [
      ['Lyft', 'ride_share'],
      ['MTA / OMNY', 'public_transit'],
      ['Tesla', 'electric_vehicle'],
    ].entries()) {
      await addApprovedReceipt(db, user.id, { storeName, category, createdAt: at(2 + i) })
    }
    await addApprovedReceipt(db, user.id, { storeName: 'Lime', category: 'scooter_bike', txHash: REAL_HASH, createdAt: at(5) })
    await setStreak(db, user.id, 3)
    // A store addition 40 days ago, recorded directly in the ledger.
    await addStoreAddition(db, user.id, new Date(Date.now() - 40 * 86_400_000))

    // Crediting is idempotent: first_store once, first_receipt never again.
    const credited = await db.transaction().execute((trx) => creditAchievementRewards(trx, user.id))
    expect(credited).toEqual(['first_store'])
    expect(await db.transaction().execute((trx) => creditAchievementRewards(trx, user.id))).toEqual([])
    const rewardsRows = await db
      .selectFrom('transactions')
      .select(['type', 'amount_milli', 'description', 'idempotency_key'])
      .where('user_id', '=', user.id)
      .where('type', 'in', ['achievement_reward', 'sustainability_app'])
      .orderBy('id')
      .execute()
    expect(rewardsRows).toEqual([
      { type: 'achievement_reward', amount_milli: 10_000, description: 'Achievement Reward: first_receipt', idempotency_key: `achievement:${user.id}:first_receipt` },
      { type: 'achievement_reward', amount_milli: 3_000, description: 'Achievement Reward: first_store', idempotency_key: `achievement:${user.id}:first_store` },
      { type: 'sustainability_app', amount_milli: 900, description: 'Sustainability fund: 30% of Achievement Reward: first_store', idempotency_key: `achievement:${user.id}:first_store:sustainability_app` },
    ])
    // 5 x 8 + 10 (first receipt) + 10 (store) + 3 (first store) = 63 B3TR.
    expect(await getBalanceMilli(db, user.id)).toBe(63_000)

    // The home summary (prepared queries): this user's figures, and a new user's zeros.
    await db.transaction().execute((trx) => takeActionSlot(trx, { userId: user.id, kind: 'receipt' }))
    expect(await getHomeSummary(db, user.id)).toEqual({
      dailyActions: 1,
      totalEarnedMilli: 63_000,
      verifiedReceipts: 5,
      // Issue 32: the receipts waiting for review, for Home's card.
      inReview: 0,
    })
    const newcomer = await signInNewUser()
    expect(await getHomeSummary(db, newcomer.user.id)).toEqual({ dailyActions: 0, totalEarnedMilli: 0, verifiedReceipts: 0, inReview: 0 })
    // Home's Recent Achievements: the latest unlocked one, whether or not it paid a reward (issue 24).
    // The fifth receipt (today) unlocked Eco Commuter, which pays nothing; the ledger's latest
    // achievement entry (first_store, 40 days ago) is older.
    expect(await getLatestAchievement(db, user.id)).toMatchObject({ key: 'five_receipts', title: 'Eco Commuter', rewardMilli: null })
    expect(await getLatestAchievement(db, newcomer.user.id)).toBeNull()

    // Achievements: first_receipt, five_receipts, first_store, monthly_record (5 this month).
    ach = await load(achievementsLoader, '/achievements?tab=shopping', cookie)
    expect(ach.tab).toBe('shopping')
    expect(ach.unlockedCount).toBe(4)
    expect(ach.ecoImpact).toEqual({ co2Kg: 25, treeEquivalents: 1.1 })
    expect(ach.streak).toBe(3)
    expect(ach.balanceMilli).toBe(63_000)
    const a = byKey(ach.achievements)
    expect([a.first_receipt, a.five_receipts, a.first_store, a.monthly_record].every((x) => x.unlocked)).toBe(true)
    expect(a.ten_receipts).toMatchObject({ unlocked: false, progress: 50 })
    expect(a.token_milestone).toMatchObject({ unlocked: false, progress: 50 }) // 40 + 10 of 100
    expect(ach.share).toBeNull()

    // The share dialog opens for an unlocked achievement only.
    ach = await load(achievementsLoader, '/achievements?share=five_receipts', cookie)
    expect(ach.share).toEqual({ key: 'five_receipts', url: 'http://localhost:3000/?achievement=five_receipts' })
    ach = await load(achievementsLoader, '/achievements?share=ten_receipts', cookie)
    expect(ach.share).toBeNull()

    // Badges with the entry that earned them; the next-badge bars.
    impact = await load(impactLoader, '/impact-explorer?tab=green', cookie)
    expect(impact.tab).toBe('green')
    // Issue 40: "Receipts Scanned" counts every receipt sent; the impact, the verified ones.
    expect(impact.summary).toEqual({ receiptsScanned: 5, receiptsVerified: 5, co2Kg: 25, waterLiters: 3500, earnedMilli: 63_000 })
    const b = byKey(impact.badges)
    const earned = impact.badges.filter((x: { earned: boolean }) => x.earned).map((x: { id: string }) => x.id)
    // Decision 113: the badges that repeated achievements (first/five/ten receipts, first store) are gone.
    expect(earned).toEqual(['co2_saver', 'token_milestone_10', 'token_milestone_50', 'streak_3'])
    expect(impact.badgesEarned).toBe(4)
    expect(b.co2_saver.txHash).toBeNull()
    // The 3-day streak is stored as ending today (the seed has no earlier receipts): dated today.
    expect(b.streak_3).toMatchObject({ earned: true, earnedDate: new Date().toISOString().slice(0, 10), txHash: null })
    expect(b.store_contributor).toMatchObject({ earned: false, progress: 20 })
    expect(impact.nextBadges).toEqual([{ badgeId: 'streak_7', name: 'Weekly Warrior', current: 3, target: 7, unit: 'days', progress: 42 }])

    // The achievements API agrees with the pages.
    const api = await load(apiAchievementsLoader, `/api/users/${id}/achievements`, cookie, { id })
    expect(api.unlockedCount).toBe(4)
    expect(api.badgesEarned).toBe(4)
    expect(byKey(api.achievements).first_store).toMatchObject({ unlocked: true, reward: 3, category: 'community' })
    expect(byKey(api.badges).token_milestone_50).toMatchObject({ earned: true, rarity: 'rare' })

    // Stats: all time, and per period (the store addition is 40 days old).
    expect(await load(apiStatsLoader, `/api/users/${id}/stats`, cookie, { id })).toEqual({
      totalEarned: 63,
      totalTransactions: 8,
      totalCO2Saved: 25_000,
      currentStreak: 3,
      weeklyGoal: 100,
      weeklyProgress: 53,
    })
    expect(await load(apiStatsLoader, `/api/users/${id}/stats?period=30d`, cookie, { id })).toMatchObject({ totalEarned: 53, totalTransactions: 7 })
    expect(await load(apiStatsLoader, `/api/users/${id}/stats?period=90d`, cookie, { id })).toMatchObject({ totalEarned: 63, totalTransactions: 8 })

    // The rewards page: period totals, rows, chart and impact.
    rewards = await load(rewardsLoader, '/rewards?period=7d', cookie)
    expect(rewards.period).toBe('7d')
    expect(rewards.allTimeEarnedMilli).toBe(63_000)
    expect(rewards.stats).toMatchObject({ totalEarnedMilli: 53_000, totalTransactions: 7, totalCO2Saved: 25_000, currentStreak: 3, weeklyProgress: 53 })
    expect(rewards.rows).toHaveLength(7)
    expect(rewards.perDay).toHaveLength(7)
    expect(rewards.perDay.at(-1).milli).toBe(53_000)
    expect(rewards.impact).toEqual({ co2Kg: 25, treeEquivalents: 1.1, carMilesSaved: 62.5 }) // 400 g CO2 per car mile (US EPA; was 4.6 kg, issue 40)
    rewards = await load(rewardsLoader, '/rewards?period=90d', cookie)
    expect(rewards.rows).toHaveLength(8)
    expect(rewards.rows.at(-1)).toMatchObject({ category: 'store_addition', amount: 10, co2Saved: 0 })
    rewards = await load(rewardsLoader, '/rewards?period=bogus', cookie)
    expect(rewards.period).toBe('30d')

    // Reward-history rows through the API.
    const rows = await load(apiTransactionsLoader, `/api/users/${id}/transactions?period=30d`, cookie, { id })
    expect(rows).toHaveLength(7)
    const uber = rows.find((r: { storeName: string }) => r.storeName === 'Uber')
    expect(uber).toMatchObject({ amount: 8, category: 'rideshare', status: 'completed', txHash: null, co2Saved: 5000, confidenceScore: 93 })
    expect(rows.find((r: { storeName: string }) => r.storeName === 'Lime')).toMatchObject({ category: 'scooter_bike', txHash: REAL_HASH })
    expect(rows.find((r: { category: string }) => r.category === 'achievement')).toMatchObject({ co2Saved: 0, confidenceScore: null })
    const bad = await apiTransactionsLoader({ request: getRequest(`/api/users/${id}/transactions?period=1y`, cookie), params: { id }, context: {} })
    expect(bad.status).toBe(400)

    // History: a pending claim shows negative; search and paging from the URL.
    await addPendingClaim(db, user.id, 20_000)
    const list = await load(apiTransactionsLoader, `/api/users/${id}/transactions`, cookie, { id })
    expect(list).toHaveLength(9)
    expect(list[0]).toMatchObject({ type: 'token_claim', amount: -20, txHash: null })
    expect(list.some((e: { type: string }) => e.type === 'sustainability_app')).toBe(false)

    tx = await load(transactionsLoader, '/transactions', cookie)
    expect(tx).toMatchObject({ hasAny: true, total: 9, page: 1, pageCount: 1 })
    tx = await load(transactionsLoader, '/transactions?q=tesla', cookie)
    expect(tx.items.map((e: { description: string }) => e.description)).toEqual(['Receipt verified: Tesla'])
    tx = await load(transactionsLoader, '/transactions?q=achievement', cookie)
    expect(tx.total).toBe(2)
    tx = await load(transactionsLoader, '/transactions?q=-20.00', cookie)
    expect(tx.items.map((e: { type: string }) => e.type)).toEqual(['token_claim'])
    tx = await load(transactionsLoader, '/transactions?q=nothing-like-this', cookie)
    expect(tx).toMatchObject({ hasAny: true, total: 0, items: [] })
    tx = await load(transactionsLoader, '/transactions?page=7', cookie)
    expect(tx.page).toBe(1)

    // Profile: 15 shown, balance after the claim, settings saved on the server.
    const profile = await load(profileLoader, '/profile', cookie)
    expect(profile).toMatchObject({ balanceMilli: 43_000, total: 9, shown: 15 })
    expect(profile.history).toHaveLength(9)
    expect(profile.user).toEqual({ walletAddress: expect.any(String), displayName: 'Eco Rider', notificationsEnabled: true })
    expect((await load(profileLoader, '/profile?show=20', cookie)).shown).toBe(20)
    expect((await load(profileLoader, '/profile?show=3', cookie)).shown).toBe(15)
    const saved = await profileAction({ request: formRequest('/profile', { setting: 'notifications', enabled: 'false', show: '20' }, cookie), params: {}, context: {} })
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe('/profile?show=20')
    expect((await getUserById(db, user.id))?.notificationsEnabled).toBe(false)
    // Biometric Authentication is gone (decision 101): the setting is refused.
    const biometric = await profileAction({ request: formRequest('/profile', { setting: 'biometric', enabled: 'true' }, cookie), params: {}, context: {} })
    expect(biometric.status).toBe(400)

    // CSV export: the claim stays a number.
    const csv = await (await csvLoader({ request: getRequest('/api/me/transactions.csv', cookie), params: {}, context: {} })).text()
    expect(csv.split('\n')[0]).toBe('id,date,type,amount_b3tr,description,status,tx_hash')
    expect(csv).toContain('"token_claim","-20.000","Claim all tokens","pending"')
  })
})

describe('pages and API calls for one user only', () => {
  const apis: Array<[string, Loader]> = [
    ['transactions', apiTransactionsLoader],
    ['stats', apiStatsLoader],
    ['achievements', apiAchievementsLoader],
  ]

  it.each(apis)('GET /api/users/{id}/%s needs a session (401) and the own id (403)', async (name, loader) => {
    const alice = await signInNewUser()
    const bob = await signInNewUser()
    const call = (id: string, cookie?: string) =>
      loader({ request: getRequest(`/api/users/${id}/${name}`, cookie), params: { id }, context: {} }).catch((e: unknown) => e as Response)
    expect((await call(String(alice.user.id))).status).toBe(401)
    expect((await call(String(alice.user.id), bob.cookie)).status).toBe(403)
    expect((await call('abc', bob.cookie)).status).toBe(403)
    expect((await call(String(bob.user.id), bob.cookie)).status).toBe(200)
  })

  it.each([
    ['/achievements', achievementsLoader],
    ['/impact-explorer', impactLoader],
    ['/transactions', transactionsLoader],
    ['/rewards', rewardsLoader],
    ['/profile', profileLoader],
  ] as Array<[string, Loader]>)('%s sends a signed-out visitor to the wallet gate', async (path, loader) => {
    const res = await loader({ request: getRequest(path), params: {}, context: {} }).catch((e: unknown) => e as Response)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/connect-wallet?redirectTo=${encodeURIComponent(path)}`)
  })
})

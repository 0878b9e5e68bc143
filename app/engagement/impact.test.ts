import { describe, expect, it } from 'vitest'
import {
  achievementsImpact,
  co2GramsForReceipts,
  computeUserStats,
  earningsPerDay,
  formatCo2Grams,
  formatCo2Kg,
  formatTenth,
  formatTreeEquivalents,
  homeImpact,
  parseRewardPeriod,
  periodBounds,
  rewardsEnvironmentalImpact,
  transactionCo2Grams,
  treeEquivalents,
} from './impact'

const now = new Date('2025-01-15T12:00:00.000Z')

// A user's ledger, newest first. Windows seen from `now`: 7d starts 2025-01-09, 30d 2024-12-17, 90d 2024-10-18.
const ledger = [
  { type: 'receipt_verification', amountMilli: 9000, createdAt: '2025-01-15T08:00:00.000Z', status: 'confirmed' },
  { type: 'sustainability_app', amountMilli: 2700, createdAt: '2025-01-15T08:00:00.000Z', status: 'confirmed' },
  { type: 'achievement_reward', amountMilli: 10_000, createdAt: '2025-01-15T08:00:01.000Z', status: 'confirmed' },
  { type: 'receipt_verification', amountMilli: 6000, createdAt: '2025-01-14T10:00:00.000Z', status: 'failed' },
  { type: 'token_claim', amountMilli: 50_000, createdAt: '2025-01-12T09:00:00.000Z', status: 'pending' },
  { type: 'store_addition', amountMilli: 10_000, createdAt: new Date('2025-01-10T10:00:00.000Z'), status: 'confirmed' },
  { type: 'receipt_verification', amountMilli: 14_000, createdAt: '2025-01-09T00:00:00.000Z', status: 'confirmed' },
  { type: 'receipt_verification', amountMilli: 11_000, createdAt: '2025-01-08T23:59:59.999Z', status: 'confirmed' },
  { type: 'admin_action', amountMilli: 1000, createdAt: '2025-01-01T00:00:00.000Z', status: 'confirmed' },
  { type: 'referral_reward', amountMilli: 15_000, createdAt: '2024-12-17T00:00:00.000Z', status: 'confirmed' },
  { type: 'receipt_verification', amountMilli: 8000, createdAt: '2024-12-16T23:59:59.000Z', status: 'confirmed' },
  { type: 'receipt_verification', amountMilli: 7000, createdAt: '2024-10-17T23:00:00.000Z', status: 'confirmed' },
]

describe('one impact per accepted receipt, on every screen', () => {
  it.each([
    [0, { co2Kg: 0, waterLiters: 0 }],
    [1, { co2Kg: 5, waterLiters: 700 }],
    [3, { co2Kg: 15, waterLiters: 2100 }],
    [-1, { co2Kg: 0, waterLiters: 0 }],
  ])('homeImpact(%s) -> %j', (receipts, expected) => {
    expect(homeImpact(receipts)).toEqual(expected)
  })

  it.each([
    [0, { co2Kg: 0, treeEquivalents: 0 }],
    [1, { co2Kg: 5, treeEquivalents: 0.2 }],
    [5, { co2Kg: 25, treeEquivalents: 1.1 }],
    [10, { co2Kg: 50, treeEquivalents: 2.2 }],
  ])('achievementsImpact(%s) -> %j: the trees of the rewards page, not 2 per receipt (issue 32)', (receipts, expected) => {
    expect(achievementsImpact(receipts)).toEqual(expected)
    expect(achievementsImpact(receipts).treeEquivalents).toBe(rewardsEnvironmentalImpact(co2GramsForReceipts(receipts)).treeEquivalents)
  })

  it.each([
    [0, '0 kg', '0 tree equivalents'],
    [500, '0.5 kg', '0 tree equivalents'],
    [5000, '5 kg', '0.2 tree equivalents'],
    [10_000, '10 kg', '0.4 tree equivalents'],
    [21_770, '21.7 kg', '1 tree equivalent'],
    [21_799, '21.7 kg', '1 tree equivalent'],
    [1_250_550, '1,250.5 kg', '57.4 tree equivalents'],
    [-5, '0 kg', '0 tree equivalents'],
  ])('%s g of CO2 reads %s and %s on every screen', (grams, co2, trees) => {
    expect(formatCo2Grams(grams)).toBe(co2)
    expect(formatTreeEquivalents(grams)).toBe(trees)
    expect(`${formatTenth(treeEquivalents(grams))} tree`).toBe(trees.replace(/ tree equivalents?$/, ' tree'))
  })

  it.each([
    [0, '0 kg'],
    [5, '5 kg'],
    [10, '10 kg'],
    [21.7, '21.7 kg'],
    [0.1, '0.1 kg'],
  ])('formatCo2Kg(%s) -> %s, as formatCo2Grams', (kg, text) => {
    expect(formatCo2Kg(kg)).toBe(text)
  })

  it.each([
    [0, 0],
    [1, 5000],
    [2, 10_000],
    [-1, 0],
  ])('co2GramsForReceipts(%s) -> %s, the same kg on the home, achievements and rewards figures', (receipts, grams) => {
    expect(co2GramsForReceipts(receipts)).toBe(grams)
    expect(homeImpact(receipts).co2Kg * 1000).toBe(grams)
    expect(achievementsImpact(receipts).co2Kg * 1000).toBe(grams)
    const rows = Array.from({ length: Math.max(0, receipts) }, () => transactionCo2Grams('receipt_verification'))
    expect(rows.reduce((a, b) => a + b, 0)).toBe(grams)
  })

  it.each([
    ['receipt_verification', 5000],
    ['store_addition', 0],
    ['achievement_reward', 0],
    ['referral_reward', 0],
    ['token_claim', 0],
  ])('transactionCo2Grams(%s) -> %s', (type, grams) => {
    expect(transactionCo2Grams(type)).toBe(grams)
  })

  it.each([
    [0, { co2Kg: 0, treeEquivalents: 0, carMilesSaved: 0 }],
    [99, { co2Kg: 0, treeEquivalents: 0, carMilesSaved: 0.2 }],
    [100, { co2Kg: 0.1, treeEquivalents: 0, carMilesSaved: 0.2 }],
    [4599, { co2Kg: 4.5, treeEquivalents: 0.2, carMilesSaved: 11.4 }],
    // 400 g CO2 per car mile (US EPA): 4.6 kg is 11.5 miles.
    [4600, { co2Kg: 4.6, treeEquivalents: 0.2, carMilesSaved: 11.5 }],
    [5000, { co2Kg: 5, treeEquivalents: 0.2, carMilesSaved: 12.5 }],
    [21_770, { co2Kg: 21.7, treeEquivalents: 1, carMilesSaved: 54.4 }],
    [50_000, { co2Kg: 50, treeEquivalents: 2.2, carMilesSaved: 125 }],
    [-5, { co2Kg: 0, treeEquivalents: 0, carMilesSaved: 0 }],
  ])('rewardsEnvironmentalImpact(%s g) -> %j', (grams, expected) => {
    expect(rewardsEnvironmentalImpact(grams)).toEqual(expected)
  })
})

describe('periods', () => {
  it.each([
    ['7d', '7d'],
    ['30d', '30d'],
    ['90d', '90d'],
    [null, '30d'],
    [undefined, '30d'],
    ['', '30d'],
    ['365d', '30d'],
    ['toString', '30d'],
  ])('parseRewardPeriod(%j) -> %s', (value, expected) => {
    expect(parseRewardPeriod(value)).toBe(expected)
  })

  it.each([
    [1, '2025-01-15T00:00:00.000Z', '2025-01-16T00:00:00.000Z'],
    [7, '2025-01-09T00:00:00.000Z', '2025-01-16T00:00:00.000Z'],
    [30, '2024-12-17T00:00:00.000Z', '2025-01-16T00:00:00.000Z'],
  ])('periodBounds(now, %s) -> [%s, %s)', (days, start, end) => {
    const bounds = periodBounds(now, days)
    expect(new Date(bounds.startMs).toISOString()).toBe(start)
    expect(new Date(bounds.endMs).toISOString()).toBe(end)
  })

  it.each([[0], [-7], [1.5]])('periodBounds rejects %s days', (days) => {
    expect(() => periodBounds(now, days)).toThrow(RangeError)
  })
})

describe('computeUserStats', () => {
  it.each([
    ['7d', 43_000, 4, 10_000],
    ['30d', 69_000, 6, 15_000],
    ['90d', 77_000, 7, 20_000],
    ['all', 84_000, 8, 25_000],
    [undefined, 84_000, 8, 25_000],
  ] as const)('period %s: %s milli earned in %s transactions, %s g CO2', (period, earned, count, co2) => {
    const stats = computeUserStats({ entries: ledger, now, period, lastActiveDay: '2025-01-15', currentStreak: 4 })
    expect(stats).toEqual({
      totalEarnedMilli: earned,
      totalTransactions: count,
      totalCO2Saved: co2,
      currentStreak: 4,
      weeklyGoalMilli: 100_000,
      weeklyEarnedMilli: 43_000,
      weeklyProgress: 43,
    })
  })

  it.each([
    ['2025-01-15', 4, 4],
    ['2025-01-14', 4, 4],
    ['2025-01-13', 4, 0],
    [null, 0, 0],
  ])('shows the streak (last active %s, stored %s) as %s', (lastActiveDay, currentStreak, shown) => {
    expect(computeUserStats({ entries: [], now, lastActiveDay, currentStreak }).currentStreak).toBe(shown)
  })

  it.each([
    [0, undefined, 0],
    [999, undefined, 0],
    [1000, undefined, 1],
    [99_999, undefined, 99],
    [100_000, undefined, 100],
    [150_000, undefined, 100],
    [43_000, 50_000, 86],
    [50_000, 50_000, 100],
  ])('weekly progress with %s milli earned this week and goal %s -> %s%%', (milli, weeklyGoalMilli, progress) => {
    const entries = [{ type: 'receipt_verification', amountMilli: milli, createdAt: '2025-01-12T00:00:00Z', status: 'confirmed' }]
    const stats = computeUserStats({ entries, now, lastActiveDay: null, currentStreak: 0, weeklyGoalMilli })
    expect(stats.weeklyProgress).toBe(progress)
  })

  it.each([[0], [-1], [1.5]])('rejects a weekly goal of %s', (weeklyGoalMilli) => {
    expect(() => computeUserStats({ entries: [], now, lastActiveDay: null, currentStreak: 0, weeklyGoalMilli })).toThrow(
      RangeError,
    )
  })

  it('rejects an unreadable createdAt', () => {
    const entries = [{ type: 'receipt_verification', amountMilli: 1000, createdAt: 'yesterday', status: 'confirmed' }]
    expect(() => computeUserStats({ entries, now, period: '7d', lastActiveDay: null, currentStreak: 0 })).toThrow(
      RangeError,
    )
  })
})

describe('earningsPerDay', () => {
  it('zero-fills the last 7 UTC days, oldest first, user earnings only', () => {
    expect(earningsPerDay(ledger, 7, now)).toEqual([
      { day: '2025-01-09', milli: 14_000 },
      { day: '2025-01-10', milli: 10_000 },
      { day: '2025-01-11', milli: 0 },
      { day: '2025-01-12', milli: 0 },
      { day: '2025-01-13', milli: 0 },
      { day: '2025-01-14', milli: 0 },
      { day: '2025-01-15', milli: 19_000 },
    ])
  })

  it.each([
    [1, 1, '2025-01-15', 19_000],
    [7, 7, '2025-01-09', 43_000],
    [30, 30, '2024-12-17', 69_000],
    [90, 90, '2024-10-18', 77_000],
  ])('%s days -> %s points from %s summing to %s', (days, length, first, total) => {
    const points = earningsPerDay(ledger, days, now)
    expect(points).toHaveLength(length)
    expect(points[0]?.day).toBe(first)
    expect(points.at(-1)?.day).toBe('2025-01-15')
    expect(points.reduce((sum, p) => sum + p.milli, 0)).toBe(total)
  })

  it('crosses the year boundary', () => {
    expect(earningsPerDay([], 3, new Date('2025-01-02T00:00:00.000Z'))).toEqual([
      { day: '2024-12-31', milli: 0 },
      { day: '2025-01-01', milli: 0 },
      { day: '2025-01-02', milli: 0 },
    ])
  })

  it('rejects a period of 0 days', () => {
    expect(() => earningsPerDay([], 0, now)).toThrow(RangeError)
  })
})

import { describe, expect, it } from 'vitest'
import {
  CATEGORY_LABELS,
  CELEBRATION_STREAKS,
  DAILY_ACTION_LIMIT,
  FIRST_RECEIPT_BONUS_MILLI,
  FIRST_STORE_BONUS_MILLI,
  MAX_RECEIPT_AGE_DAYS,
  REFERRAL_REWARD_MILLI,
  STORE_ADDITION_REWARD_MILLI,
  TRANSPORT_CATEGORIES,
  FIRST_RECEIPT_STREAK,
  MAX_STREAK_MULTIPLIER,
  addUtcDays,
  baseCapAmountCents,
  baseRewardB3tr,
  categoryLabel,
  checkPurchaseDate,
  computeReceiptReward,
  dailyActionsLeft,
  daysBetween,
  effectiveStreak,
  isDailyLimitReached,
  isTransportCategory,
  isCountedEntry,
  isUserEarning,
  maxReceiptRewardB3tr,
  multiplierPercent,
  nextStreak,
  nextStreakMilestone,
  parseUtcDay,
  shouldCelebrate,
  streakBonusPercent,
  streakMultiplier,
  sumMilli,
  sustainabilityShareMilli,
  transportMultiplier,
  utcDay,
  utcDayBounds,
} from './rules'

describe('categories', () => {
  it('lists the four transport categories with their labels', () => {
    expect(TRANSPORT_CATEGORIES).toEqual(['ride_share', 'public_transit', 'electric_vehicle', 'scooter_bike'])
    expect(CATEGORY_LABELS).toEqual({
      ride_share: 'Rideshare',
      public_transit: 'Public Transit',
      electric_vehicle: 'Electric Vehicle',
      scooter_bike: 'E-Scooter / Bike',
    })
  })

  it.each([
    ['ride_share', true],
    ['public_transit', true],
    ['electric_vehicle', true],
    ['scooter_bike', true],
    ['rideshare', false],
    ['thrift_store', false],
    ['', false],
    [null, false],
    [undefined, false],
    ['toString', false],
  ])('isTransportCategory(%j) -> %s', (value, expected) => {
    expect(isTransportCategory(value)).toBe(expected)
  })
})

describe('categoryLabel', () => {
  it.each([
    ['ride_share', 'Rideshare'],
    ['electric_vehicle', 'Electric Vehicle'],
    ['scooter_bike', 'E-Scooter / Bike'],
    ['thrift_store', 'Thrift store'],
    [null, '—'],
    ['', '—'],
  ])('categoryLabel(%j) -> %j', (category, expected) => {
    expect(categoryLabel(category)).toBe(expected)
  })
})

describe('the most one receipt pays (the landing page figure)', () => {
  it.each([
    ['ride_share', 2667, 8],
    ['electric_vehicle', 3200, 8],
    ['public_transit', 1250, 5],
    ['scooter_bike', 2500, 5],
    [null, 2500, 5],
  ])('baseCapAmountCents(%j) = %s is the smallest amount at the cap %s', (category, cents, cap) => {
    expect(baseCapAmountCents(category)).toBe(cents)
    expect(baseRewardB3tr(category, cents)).toBe(cap)
    expect(baseRewardB3tr(category, cents - 1)).toBeLessThan(cap)
  })

  it('a first receipt starts the streak at 1', () => {
    expect(nextStreak({ lastActiveDay: null, currentStreak: 0, today: '2025-01-10' }).streak).toBe(FIRST_RECEIPT_STREAK)
  })

  it('is 19: a first rideshare receipt at the cap (floor(8 x 1.2) + 10), more than 14 at the top streak', () => {
    expect(maxReceiptRewardB3tr()).toBe(19)
    expect(MAX_STREAK_MULTIPLIER).toBe(1.5)
  })

  it('equals the largest total computeReceiptReward gives over categories, amounts and streaks', () => {
    let best = 0
    for (const category of [...TRANSPORT_CATEGORIES, null]) {
      for (let cents = 0; cents <= 10_000; cents += 7) {
        for (const streak of [0, 1, 2, 3, 6, 7, 30]) {
          const total = computeReceiptReward({ category, amountCents: cents, streak }).totalMilli
          // The first-receipt bonus comes with the first credited receipt, which is paid at streak 1 at most.
          const withBonus = streak <= FIRST_RECEIPT_STREAK ? total + FIRST_RECEIPT_BONUS_MILLI : total
          best = Math.max(best, withBonus)
        }
      }
    }
    expect(maxReceiptRewardB3tr() * 1000).toBe(best)
  })
})

describe('isUserEarning', () => {
  it.each([
    ['receipt_verification', true],
    ['store_addition', true],
    ['achievement_reward', true],
    ['referral_reward', true],
    ['token_claim', false],
    ['token_redemption', false],
    ['sustainability_app', false],
    ['sustainability_creator', false],
    ['admin_action', false],
    ['unknown', false],
  ])('%s -> %s', (type, expected) => {
    expect(isUserEarning(type)).toBe(expected)
  })
})

describe('ledger sums', () => {
  it.each([
    ['completed', true],
    ['pending', true],
    ['confirmed', true],
    ['failed', false],
  ])('status %s counts: %s', (status, expected) => {
    expect(isCountedEntry({ status })).toBe(expected)
  })

  const at = '2025-01-15T08:00:00.000Z'
  const entries = [
    { type: 'receipt_verification', amountMilli: 9000, createdAt: at, status: 'completed' },
    { type: 'sustainability_app', amountMilli: 2700, createdAt: at, status: 'completed' },
    { type: 'achievement_reward', amountMilli: 10_000, createdAt: at, status: 'confirmed' },
    { type: 'store_addition', amountMilli: 10_000, createdAt: at, status: 'pending' },
    { type: 'referral_reward', amountMilli: 15_000, createdAt: at, status: 'completed' },
    { type: 'receipt_verification', amountMilli: 6000, createdAt: at, status: 'failed' },
    { type: 'token_claim', amountMilli: -44_000, createdAt: at, status: 'pending' },
  ]

  it.each([
    [undefined, 44_000],
    [['receipt_verification'], 9000],
    [['receipt_verification', 'store_addition'], 19_000],
    [['sustainability_app'], 2700],
    [['token_claim'], -44_000],
    [[], 0],
  ])('sumMilli(entries, %j) -> %s', (types, expected) => {
    expect(sumMilli(entries, types)).toBe(expected)
  })
})

describe('baseRewardB3tr', () => {
  it.each([
    // ride_share: floor($ x 0.3) clamped 3..8
    ['ride_share', 0, 3],
    ['ride_share', 999, 3],
    ['ride_share', 1000, 3],
    ['ride_share', 1333, 3],
    ['ride_share', 1334, 4],
    ['ride_share', 2000, 6],
    ['ride_share', 2666, 7],
    ['ride_share', 2667, 8],
    ['ride_share', 3000, 8],
    ['ride_share', 100_000, 8],
    // electric_vehicle: floor($ x 0.25) clamped 4..8
    ['electric_vehicle', 0, 4],
    ['electric_vehicle', 1599, 4],
    ['electric_vehicle', 1600, 4],
    ['electric_vehicle', 1999, 4],
    ['electric_vehicle', 2000, 5],
    ['electric_vehicle', 3199, 7],
    ['electric_vehicle', 3200, 8],
    ['electric_vehicle', 5999, 8],
    // public_transit: floor($ x 0.4) clamped 2..5
    ['public_transit', 1, 2],
    ['public_transit', 499, 2],
    ['public_transit', 500, 2],
    ['public_transit', 750, 3],
    ['public_transit', 1000, 4],
    ['public_transit', 1249, 4],
    ['public_transit', 1250, 5],
    ['public_transit', 2000, 5],
    // other (scooter_bike is not named by the estimate, so it uses "other"): floor($ x 0.2) clamped 1..5
    ['scooter_bike', 0, 1],
    ['scooter_bike', 999, 1],
    ['scooter_bike', 1000, 2],
    ['scooter_bike', 1499, 2],
    ['scooter_bike', 2499, 4],
    ['scooter_bike', 2500, 5],
    ['scooter_bike', 10_000, 5],
    [null, 2500, 5],
    [null, 499, 1],
    ['thrift_store', 1500, 3],
    ['', 1500, 3],
    ['toString', 1500, 3],
  ])('%j $%s cents -> %s B3TR', (category, cents, expected) => {
    expect(baseRewardB3tr(category, cents)).toBe(expected)
  })

  it.each([[-1], [10.5], [Number.NaN]])('rejects amountCents %s', (cents) => {
    expect(() => baseRewardB3tr('ride_share', cents)).toThrow(RangeError)
  })
})

describe('multipliers', () => {
  it.each([
    [-1, 1],
    [0, 1],
    [1, 1],
    [2, 1],
    [3, 1.2],
    [6, 1.2],
    [7, 1.5],
    [30, 1.5],
  ])('streakMultiplier(%s) -> %s', (streak, expected) => {
    expect(streakMultiplier(streak)).toBe(expected)
  })

  it.each([
    ['ride_share', 1.2],
    ['public_transit', 1.2],
    ['electric_vehicle', 1.2],
    ['scooter_bike', 1.2],
    ['thrift_store', 1],
    [null, 1],
  ])('transportMultiplier(%j) -> %s', (category, expected) => {
    expect(transportMultiplier(category)).toBe(expected)
  })
})

describe('computeReceiptReward', () => {
  it.each([
    // category, cents, streak, base, streakX, transportX, total
    ['ride_share', 3000, 1, 8, 1, 1.2, 9],
    ['ride_share', 3000, 2, 8, 1, 1.2, 9],
    ['ride_share', 3000, 3, 8, 1.2, 1.2, 11],
    ['ride_share', 3000, 6, 8, 1.2, 1.2, 11],
    ['ride_share', 3000, 7, 8, 1.5, 1.2, 14],
    ['ride_share', 3000, 30, 8, 1.5, 1.2, 14],
    ['ride_share', 1000, 1, 3, 1, 1.2, 3],
    ['ride_share', 1000, 7, 3, 1.5, 1.2, 5],
    ['public_transit', 1000, 1, 4, 1, 1.2, 4],
    ['public_transit', 1000, 3, 4, 1.2, 1.2, 5],
    ['public_transit', 1000, 7, 4, 1.5, 1.2, 7],
    ['electric_vehicle', 2000, 1, 5, 1, 1.2, 6],
    ['electric_vehicle', 2000, 3, 5, 1.2, 1.2, 7],
    ['electric_vehicle', 2000, 7, 5, 1.5, 1.2, 9],
    ['scooter_bike', 2500, 0, 5, 1, 1.2, 6],
    ['scooter_bike', 2500, 3, 5, 1.2, 1.2, 7],
    ['scooter_bike', 2500, 7, 5, 1.5, 1.2, 9],
    [null, 2500, 1, 5, 1, 1, 5],
    [null, 2500, 3, 5, 1.2, 1, 6],
    [null, 2500, 7, 5, 1.5, 1, 7],
    ['thrift_store', 500, 1, 1, 1, 1, 1],
    ['thrift_store', 500, 7, 1, 1.5, 1, 1],
  ])('%j %s cents streak %s -> %s x %s x %s = %s', (category, amountCents, streak, base, sx, tx, total) => {
    expect(computeReceiptReward({ category, amountCents, streak })).toEqual({
      baseReward: base,
      streakMultiplier: sx,
      transportMultiplier: tx,
      total,
      totalMilli: total * 1000,
    })
  })
})

describe('fixed rewards', () => {
  it.each([
    ['first receipt bonus', FIRST_RECEIPT_BONUS_MILLI, 10_000],
    ['first store bonus', FIRST_STORE_BONUS_MILLI, 3000],
    ['store addition', STORE_ADDITION_REWARD_MILLI, 10_000],
    ['referral', REFERRAL_REWARD_MILLI, 15_000],
  ])('%s is %s milli', (_name, actual, expected) => {
    expect(actual).toBe(expected)
  })
})

describe('sustainabilityShareMilli', () => {
  it.each([
    [18_000, 5400],
    [8000, 2400],
    [14_000, 4200],
    [10_000, 3000],
    [0, 0],
    [1, 0],
    [3, 0],
    [4, 1],
    [10, 3],
    [9999, 2999],
  ])('%s -> %s', (reward, share) => {
    expect(sustainabilityShareMilli(reward)).toBe(share)
  })

  it.each([[-1], [1.5], [Number.NaN]])('rejects %s', (reward) => {
    expect(() => sustainabilityShareMilli(reward)).toThrow(RangeError)
  })
})

describe('UTC days', () => {
  it.each([
    ['2025-01-05T00:00:00.000Z', '2025-01-05'],
    ['2025-01-05T23:59:59.999Z', '2025-01-05'],
    ['2025-01-06T00:00:00.000Z', '2025-01-06'],
    ['2025-01-05T20:30:00-05:00', '2025-01-06'],
    ['2025-01-06T08:00:00+10:00', '2025-01-05'],
  ])('utcDay(%s) -> %s', (iso, day) => {
    expect(utcDay(new Date(iso))).toBe(day)
  })

  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2025-02-30', false],
    ['2025-13-01', false],
    ['2025-00-10', false],
    ['2025-1-5', false],
    ['2025-01-05T00:00', false],
    ['', false],
  ])('parseUtcDay(%j) is valid: %s', (day, valid) => {
    expect(parseUtcDay(day) !== null).toBe(valid)
  })

  it.each([
    ['2025-01-05', 1, '2025-01-06'],
    ['2024-12-31', 1, '2025-01-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2025-01-05', -5, '2024-12-31'],
    ['2025-01-05', 0, '2025-01-05'],
  ])('addUtcDays(%s, %s) -> %s', (day, n, expected) => {
    expect(addUtcDays(day, n)).toBe(expected)
  })

  it.each([
    ['2025-01-05', '2025-01-05', 0],
    ['2025-01-05', '2025-01-06', 1],
    ['2025-01-06', '2025-01-05', -1],
    ['2024-12-31', '2025-01-14', 14],
    ['2025-03-29', '2025-03-31', 2], // across a European DST change: UTC has none
  ])('daysBetween(%s, %s) -> %s', (from, to, expected) => {
    expect(daysBetween(from, to)).toBe(expected)
  })

  it.each([
    ['2025-01-05', '2025-01-05T00:00:00.000Z', '2025-01-06T00:00:00.000Z'],
    ['2024-02-28', '2024-02-28T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
    ['2024-12-31', '2024-12-31T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
  ])('utcDayBounds(%s) -> [%s, %s)', (day, start, end) => {
    expect(utcDayBounds(day)).toEqual({ start, end })
  })

  it('utcDayBounds rejects a malformed day', () => {
    expect(() => utcDayBounds('2025-02-30')).toThrow(RangeError)
  })
})

describe('nextStreak', () => {
  it.each([
    // lastActiveDay, currentStreak, today, streak, increased
    [null, 0, '2025-01-10', 1, true],
    [null, 5, '2025-01-10', 1, false],
    ['2025-01-10', 3, '2025-01-10', 3, false],
    ['2025-01-10', 1, '2025-01-10', 1, false],
    ['2025-01-10', 0, '2025-01-10', 1, true],
    ['2025-01-09', 0, '2025-01-10', 1, true],
    ['2025-01-09', 1, '2025-01-10', 2, true],
    ['2025-01-09', 2, '2025-01-10', 3, true],
    ['2025-01-09', 6, '2025-01-10', 7, true],
    ['2025-01-08', 3, '2025-01-10', 1, false],
    ['2025-01-08', 1, '2025-01-10', 1, false],
    ['2025-01-08', 0, '2025-01-10', 1, true],
    ['2024-12-01', 20, '2025-01-10', 1, false],
    ['2024-12-31', 6, '2025-01-01', 7, true],
    ['2024-02-28', 2, '2024-02-29', 3, true],
    ['2024-02-28', 2, '2024-03-01', 1, false],
    ['2023-02-28', 2, '2023-03-01', 3, true],
    ['2025-01-11', 4, '2025-01-10', 4, false], // stored day ahead of the clock: keep the streak
  ])('last %s, streak %s, today %s -> %s (increased %s)', (lastActiveDay, currentStreak, today, streak, increased) => {
    expect(nextStreak({ lastActiveDay, currentStreak, today })).toEqual({ streak, increased })
  })

  it('rejects a malformed today', () => {
    expect(() => nextStreak({ lastActiveDay: null, currentStreak: 0, today: '10/01/2025' })).toThrow(RangeError)
  })
})

describe('effectiveStreak', () => {
  it.each([
    [null, 0, '2025-01-10', 0],
    [null, 4, '2025-01-10', 0],
    ['2025-01-10', 4, '2025-01-10', 4],
    ['2025-01-09', 4, '2025-01-10', 4],
    ['2025-01-08', 4, '2025-01-10', 0],
    ['2024-12-31', 9, '2025-01-01', 9],
    ['2025-01-11', 4, '2025-01-10', 4],
  ])('last %s, streak %s, today %s -> shows %s', (lastActiveDay, currentStreak, today, expected) => {
    expect(effectiveStreak({ lastActiveDay, currentStreak, today })).toBe(expected)
  })
})

describe('streak celebration', () => {
  it('celebrates at 3, 5, 7, 10, 14, 21, 30', () => {
    expect(CELEBRATION_STREAKS).toEqual([3, 5, 7, 10, 14, 21, 30])
  })

  it.each([
    [1, true, false],
    [2, true, false],
    [3, true, true],
    [3, false, false],
    [4, true, false],
    [5, true, true],
    [6, true, false],
    [7, true, true],
    [7, false, false],
    [8, true, false],
    [10, true, true],
    [14, true, true],
    [21, true, true],
    [28, true, false],
    [30, true, true],
    [31, true, false],
  ])('shouldCelebrate(%s, %s) -> %s', (streak, increased, expected) => {
    expect(shouldCelebrate(streak, increased)).toBe(expected)
  })

  it.each([
    [0, 0],
    [1, 0],
    [2, 0],
    [3, 20],
    [5, 20],
    [6, 20],
    [7, 50],
    [14, 50],
    [30, 50],
    [100, 50],
  ])('streakBonusPercent(%s) -> %s, the multiplier the reward applies', (streak, expected) => {
    expect(streakBonusPercent(streak)).toBe(expected)
    const applied = computeReceiptReward({ category: 'ride_share', amountCents: 2667, streak }).streakMultiplier
    expect(multiplierPercent(applied)).toBe(expected)
  })

  it.each([
    [1, 0],
    [1.2, 20],
    [1.5, 50],
  ])('multiplierPercent(%s) -> %s', (multiplier, expected) => {
    expect(multiplierPercent(multiplier)).toBe(expected)
  })

  it.each([
    [0, 7],
    [1, 7],
    [6, 7],
    [7, 14],
    [8, 14],
    [13, 14],
    [14, 21],
    [29, 35],
  ])('nextStreakMilestone(%s) -> %s', (streak, expected) => {
    expect(nextStreakMilestone(streak)).toBe(expected)
  })
})

describe('daily action limit', () => {
  it('is 3 actions', () => {
    expect(DAILY_ACTION_LIMIT).toBe(3)
  })

  it.each([
    [-1, 3, false],
    [0, 3, false],
    [1, 2, false],
    [2, 1, false],
    [3, 0, true],
    [4, 0, true],
  ])('%s actions today -> %s left (limit reached %s)', (count, left, reached) => {
    expect(dailyActionsLeft(count)).toBe(left)
    expect(isDailyLimitReached(count)).toBe(reached)
  })
})

describe('checkPurchaseDate', () => {
  const noon = new Date('2025-01-15T12:00:00.000Z')
  const justAfterMidnight = new Date('2025-01-15T00:00:00.000Z')
  const justBeforeMidnight = new Date('2025-01-15T23:59:59.999Z')
  const future = { ok: false, code: 'future', reason: 'The purchase date is in the future.' }
  const tooOld = { ok: false, code: 'too_old', reason: 'Receipts older than 14 days are not eligible.' }
  const invalid = { ok: false, code: 'invalid', reason: 'The purchase date is not a valid date.' }

  it('defaults to 14 days', () => {
    expect(MAX_RECEIPT_AGE_DAYS).toBe(14)
  })

  it.each([
    ['2025-01-15', noon, { ok: true }],
    ['2025-01-16', noon, { ok: true }], // a user east of UTC whose local today is tomorrow in UTC
    ['2025-01-17', noon, future],
    ['2026-01-15', noon, future],
    ['2025-01-14', noon, { ok: true }],
    ['2025-01-02', noon, { ok: true }],
    ['2025-01-01', noon, { ok: true }], // exactly 14 days
    ['2024-12-31', noon, tooOld], // 15 days
    ['2024-01-15', noon, tooOld],
    ['2025-01-01', justBeforeMidnight, { ok: true }],
    ['2024-12-31', justAfterMidnight, tooOld],
    ['2025-01-16', justAfterMidnight, { ok: true }],
    ['2025-01-17', justBeforeMidnight, future],
    ['2025-02-30', noon, invalid],
    ['15/01/2025', noon, invalid],
    ['', noon, invalid],
  ])('%j at %s -> %j', (purchaseDate, now, expected) => {
    expect(checkPurchaseDate(purchaseDate, now)).toEqual(expected)
  })

  it.each([
    ['2025-01-08', 7, { ok: true }],
    ['2025-01-07', 7, { ok: false, code: 'too_old', reason: 'Receipts older than 7 days are not eligible.' }],
    ['2025-01-15', 0, { ok: true }],
    ['2025-01-14', 0, { ok: false, code: 'too_old', reason: 'Receipts older than 0 days are not eligible.' }],
  ])('%j with a %s-day window -> %j', (purchaseDate, maxAgeDays, expected) => {
    expect(checkPurchaseDate(purchaseDate, noon, maxAgeDays)).toEqual(expected)
  })
})

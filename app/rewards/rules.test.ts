import { describe, expect, it } from 'vitest'
import { CATEGORY_LABELS, TRANSPORT_CATEGORIES, categoryLabel, isTransportCategory } from '~/analysis/categories'
import { MAX_RECEIPT_AGE_DAYS, checkPurchaseDate } from '~/receipts/age-window'
import { DAILY_ACTION_LIMIT, dailyActionsLeft, isDailyLimitReached } from '~/rewards/daily-limit'
import { isCountedEntry, isUserEarning, sumMilli } from '~/rewards/ledger-types'
import { FIRST_RECEIPT_BONUS_MILLI, FIRST_STORE_BONUS_MILLI, REFERRAL_REWARD_MILLI, STORE_ADDITION_REWARD_MILLI, FIRST_RECEIPT_STREAK, BASE_REWARD_B3TR, computeReceiptReward, maxReceiptRewardB3tr, previewReceiptReward, receiptRewardDescription, transportReceiptRewardRange, sustainabilityShareMilli, transportMultiplier } from '~/rewards/receipt-reward'
import { CELEBRATION_STREAKS, MAX_STREAK_MULTIPLIER, effectiveStreak, multiplierPercent, nextStreak, nextStreakMilestone, shouldCelebrate, streakBonusPercent, streakMultiplier } from '~/rewards/streaks'
import { addUtcDays, daysBetween, parseUtcDay, utcDay, utcDayBounds } from '~/utils/calendar'

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
  it('a first receipt starts the streak at 1', () => {
    expect(nextStreak({ lastActiveDay: null, currentStreak: 0, today: '2025-01-10' }).streak).toBe(FIRST_RECEIPT_STREAK)
  })

  it('is 19: a first transport receipt (floor(8 x 1.2) + 10), more than 14 at the top streak', () => {
    expect(maxReceiptRewardB3tr()).toBe(19)
    expect(MAX_STREAK_MULTIPLIER).toBe(1.5)
  })

  it('equals the largest total computeReceiptReward gives over categories and streaks', () => {
    let best = 0
    for (const category of [...TRANSPORT_CATEGORIES, null]) {
      for (const streak of [0, 1, 2, 3, 6, 7, 30]) {
        const total = computeReceiptReward({ category, streak }).totalMilli
        // The first-receipt bonus comes with the first credited receipt, which is paid at streak 1 at most.
        const withBonus = streak <= FIRST_RECEIPT_STREAK ? total + FIRST_RECEIPT_BONUS_MILLI : total
        best = Math.max(best, withBonus)
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
    // category, streak, streakX, transportX, total = floor(8 x streakX x transportX)
    ['ride_share', 0, 1, 1.2, 9], // 8 x 1.2 = 9.6
    ['ride_share', 1, 1, 1.2, 9],
    ['ride_share', 2, 1, 1.2, 9],
    ['ride_share', 3, 1.2, 1.2, 11], // 8 x 1.44 = 11.52
    ['ride_share', 6, 1.2, 1.2, 11],
    ['ride_share', 7, 1.5, 1.2, 14], // 8 x 1.8 = 14.4
    ['ride_share', 30, 1.5, 1.2, 14],
    ['public_transit', 1, 1, 1.2, 9],
    ['public_transit', 3, 1.2, 1.2, 11],
    ['public_transit', 7, 1.5, 1.2, 14],
    ['electric_vehicle', 1, 1, 1.2, 9],
    ['electric_vehicle', 7, 1.5, 1.2, 14],
    ['scooter_bike', 0, 1, 1.2, 9],
    ['scooter_bike', 3, 1.2, 1.2, 11],
    [null, 1, 1, 1, 8], // no transport bonus: the base alone
    [null, 3, 1.2, 1, 9], // 8 x 1.2 = 9.6
    [null, 7, 1.5, 1, 12],
    ['thrift_store', 1, 1, 1, 8],
    ['thrift_store', 7, 1.5, 1, 12],
  ])('%j streak %s -> 8 x %s x %s = %s', (category, streak, sx, tx, total) => {
    expect(computeReceiptReward({ category, streak })).toEqual({
      baseReward: BASE_REWARD_B3TR,
      streakMultiplier: sx,
      transportMultiplier: tx,
      total,
      totalMilli: total * 1000,
    })
  })

  it('pays the spec base of 8 B3TR', () => {
    expect(BASE_REWARD_B3TR).toBe(8)
  })
})

describe('transportReceiptRewardRange (the stores chip)', () => {
  it('is 9 (floor(8 x 1.2)) to 14 (floor(8 x 1.5 x 1.2))', () => {
    expect(transportReceiptRewardRange()).toEqual({ min: 9, max: 14 })
  })
})

describe('previewReceiptReward (the scan form shows what creditReceipt will pay)', () => {
  it.each([
    // lastActiveDay, currentStreak, category, firstReceipt -> streak used, total milli
    [null, 0, 'public_transit', true, 1, 19_000], // floor(8 x 1.2) + 10 first-receipt bonus
    ['2025-01-09', 1, 'ride_share', false, 2, 9000], // yesterday: streak 2, still x1
    ['2025-01-09', 2, 'ride_share', false, 3, 11_000], // this receipt makes 3 days: floor(8 x 1.2 x 1.2)
    ['2025-01-10', 2, 'ride_share', false, 2, 9000], // already counted today: stays 2
    ['2025-01-09', 6, 'scooter_bike', false, 7, 14_000], // 7 days: floor(8 x 1.5 x 1.2)
    ['2025-01-05', 9, 'electric_vehicle', false, 1, 9000], // missed days: restarts at 1
    ['2025-01-09', 6, null, false, 7, 12_000], // no transport bonus: floor(8 x 1.5)
  ] as const)('last %s streak %s %j first %s -> streak %s, %s milli', (lastActiveDay, currentStreak, category, firstReceipt, streak, totalMilli) => {
    const preview = previewReceiptReward({ lastActiveDay, currentStreak, today: '2025-01-10', category, firstReceipt })
    expect(preview.streak).toBe(streak)
    expect(preview.totalMilli).toBe(totalMilli)
    expect(preview.reward).toEqual(computeReceiptReward({ category, streak }))
    expect(preview.firstReceiptBonusMilli).toBe(firstReceipt ? FIRST_RECEIPT_BONUS_MILLI : 0)
  })
})

describe('receiptRewardDescription', () => {
  it.each([
    [1, 1.2, 'Receipt verified (transport bonus ×1.2)'],
    [1.2, 1.2, 'Receipt verified (streak bonus ×1.2, transport bonus ×1.2)'],
    [1.5, 1.2, 'Receipt verified (streak bonus ×1.5, transport bonus ×1.2)'],
    [1.5, 1, 'Receipt verified (streak bonus ×1.5)'],
    [1, 1, 'Receipt verified'],
  ])('streak x%s transport x%s -> %j', (streakMultiplier, transportMultiplier, expected) => {
    expect(receiptRewardDescription({ streakMultiplier, transportMultiplier })).toBe(expected)
  })

  it.each([
    ['Uber', 'Receipt verified: Uber (streak bonus ×1.2, transport bonus ×1.2)'],
    ['  ', 'Receipt verified (streak bonus ×1.2, transport bonus ×1.2)'],
    [null, 'Receipt verified (streak bonus ×1.2, transport bonus ×1.2)'],
  ])('names the service %j', (storeName, expected) => {
    expect(receiptRewardDescription({ streakMultiplier: 1.2, transportMultiplier: 1.2 }, storeName)).toBe(expected)
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
    const applied = computeReceiptReward({ category: 'ride_share', streak }).streakMultiplier
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

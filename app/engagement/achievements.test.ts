import { describe, expect, it } from 'vitest'
import {
  ACHIEVEMENTS,
  ACHIEVEMENT_KEYS,
  ACHIEVEMENT_REWARD_MILLI,
  type AchievementInput,
  type AchievementKey,
  achievementRewardDescription,
  achievementRewardTitle,
  achievementRewardsDue,
  countReceiptsInMonth,
  earnedMilliFromReceiptsAndStores,
  evaluateAchievements,
  parseAchievementKey,
  achievementUnlockedAt,
  latestUnlockedAchievement,
  unlockedAchievements,
} from './achievements'

const none: AchievementInput = {
  receiptCount: 0,
  storeAdditionCount: 0,
  receiptsThisMonth: 0,
  earnedMilliFromReceiptsAndStores: 0,
}

function find(key: AchievementKey, input: Partial<AchievementInput>) {
  const found = evaluateAchievements({ ...none, ...input }).find((a) => a.key === key)
  if (!found) throw new Error(`missing ${key}`)
  return found
}

describe('achievement definitions', () => {
  it.each([
    ['first_receipt', 'shopping', 'receipt', 1, 10_000],
    ['five_receipts', 'shopping', 'leaf', 5, 0],
    ['ten_receipts', 'shopping', 'trophy', 10, 0],
    ['first_store', 'community', 'store', 1, 3000],
    ['monthly_record', 'milestones', 'calendar', 3, 0],
    ['token_milestone', 'milestones', 'coins', 100, 0],
  ] as const)('%s: %s, icon %s, target %s, pays %s milli', (key, category, icon, target, reward) => {
    expect(ACHIEVEMENTS[key]).toMatchObject({ key, category, icon, target })
    expect(ACHIEVEMENTS[key].title).not.toBe('')
    expect(ACHIEVEMENTS[key].description).not.toBe('')
    expect(ACHIEVEMENT_REWARD_MILLI[key]).toBe(reward)
  })

  it('evaluates all six in a fixed order', () => {
    expect(evaluateAchievements(none).map((a) => a.key)).toEqual([...ACHIEVEMENT_KEYS])
    expect(ACHIEVEMENT_KEYS).toHaveLength(6)
  })
})

describe('unlockedAchievements (the rules alone, for Home)', () => {
  it("unlocks exactly the cards whose own progress (computed apart from the rule) reaches 100 %, around each target", () => {
    const around = (target: number) => [0, target - 1, target, target + 1].filter((n) => n >= 0)
    const inputs: AchievementInput[] = []
    for (const receiptCount of [...around(1), ...around(5), ...around(10)])
      for (const storeAdditionCount of around(1))
        for (const receiptsThisMonth of around(3))
          for (const earnedMilliFromReceiptsAndStores of [0, 99_999, 100_000, 100_001])
            inputs.push({ receiptCount, storeAdditionCount, receiptsThisMonth, earnedMilliFromReceiptsAndStores })
    for (const input of inputs) {
      const complete = evaluateAchievements(input).filter((a) => a.progress === 100).map((a) => a.key)
      expect([...unlockedAchievements(input)], JSON.stringify(input)).toEqual(complete)
    }
    expect(inputs.length).toBeGreaterThan(500)
  })
})

describe('evaluateAchievements unlock rules', () => {
  it.each([
    ['first_receipt', { receiptCount: 0 }, false, 0, 0],
    ['first_receipt', { receiptCount: 1 }, true, 100, 1],
    ['first_receipt', { receiptCount: 2 }, true, 100, 2],
    ['five_receipts', { receiptCount: 0 }, false, 0, 0],
    ['five_receipts', { receiptCount: 1 }, false, 20, 1],
    ['five_receipts', { receiptCount: 4 }, false, 80, 4],
    ['five_receipts', { receiptCount: 5 }, true, 100, 5],
    ['five_receipts', { receiptCount: 6 }, true, 100, 6],
    ['ten_receipts', { receiptCount: 3 }, false, 30, 3],
    ['ten_receipts', { receiptCount: 9 }, false, 90, 9],
    ['ten_receipts', { receiptCount: 10 }, true, 100, 10],
    ['ten_receipts', { receiptCount: 11 }, true, 100, 11],
    ['first_store', { storeAdditionCount: 0 }, false, 0, 0],
    ['first_store', { storeAdditionCount: 1 }, true, 100, 1],
    ['first_store', { storeAdditionCount: 4 }, true, 100, 4],
    ['first_store', { receiptCount: 10 }, false, 0, 0],
    ['monthly_record', { receiptsThisMonth: 0, receiptCount: 20 }, false, 0, 0],
    ['monthly_record', { receiptsThisMonth: 1 }, false, 33, 1],
    ['monthly_record', { receiptsThisMonth: 2 }, false, 66, 2],
    ['monthly_record', { receiptsThisMonth: 3 }, true, 100, 3],
    ['monthly_record', { receiptsThisMonth: 4 }, true, 100, 4],
    ['token_milestone', { earnedMilliFromReceiptsAndStores: 0 }, false, 0, 0],
    ['token_milestone', { earnedMilliFromReceiptsAndStores: 50_500 }, false, 50, 50.5],
    ['token_milestone', { earnedMilliFromReceiptsAndStores: 99_999 }, false, 99, 99.999],
    ['token_milestone', { earnedMilliFromReceiptsAndStores: 100_000 }, true, 100, 100],
    ['token_milestone', { earnedMilliFromReceiptsAndStores: 150_000 }, true, 100, 150],
    ['five_receipts', { receiptCount: -3 }, false, 0, 0],
  ] as const)('%s with %j -> unlocked %s, %s%%, current %s', (key, input, unlocked, progress, current) => {
    expect(find(key, input)).toMatchObject({ unlocked, progress, current })
  })
})

describe('evaluateAchievements texts', () => {
  it.each([
    [
      'five_receipts',
      { receiptCount: 3 },
      [
        { label: 'Receipts verified', value: '3' },
        { label: 'CO2 prevented', value: '15 kg' },
        { label: 'Tree equivalents', value: '0.6' },
      ],
      'Your 3 sustainable trips prevented an estimated 15 kg of CO2.',
    ],
    [
      'first_receipt',
      { receiptCount: 1 },
      [
        { label: 'Receipts verified', value: '1' },
        { label: 'CO2 prevented', value: '5 kg' },
        { label: 'Tree equivalents', value: '0.2' },
      ],
      'Your 1 sustainable trip prevented an estimated 5 kg of CO2.',
    ],
    [
      'first_receipt',
      { receiptCount: 0 },
      [
        { label: 'Receipts verified', value: '0' },
        { label: 'CO2 prevented', value: '0 kg' },
        { label: 'Tree equivalents', value: '0' },
      ],
      'Every sustainable trip you submit prevents an estimated 5 kg of CO2.',
    ],
    [
      'first_store',
      { storeAdditionCount: 2 },
      [{ label: 'Stores added', value: '2' }],
      "You've helped others find 2 sustainable stores.",
    ],
    [
      'monthly_record',
      { receiptsThisMonth: 3 },
      [
        { label: 'Receipts this month', value: '3' },
        { label: 'Monthly target', value: '3' },
      ],
      '3 sustainable trips this month, about 15 kg of CO2 prevented.',
    ],
    [
      'monthly_record',
      { receiptsThisMonth: 1 },
      [
        { label: 'Receipts this month', value: '1' },
        { label: 'Monthly target', value: '3' },
      ],
      '1 sustainable trip this month, about 5 kg of CO2 prevented.',
    ],
    [
      'first_store',
      { storeAdditionCount: 1 },
      [{ label: 'Stores added', value: '1' }],
      "You've helped others find 1 sustainable store.",
    ],
    [
      'token_milestone',
      { earnedMilliFromReceiptsAndStores: 123_450 },
      [
        { label: 'B3TR earned', value: '123.45' },
        { label: 'Target', value: '100 B3TR' },
      ],
      "You've earned 123.45 B3TR from receipts and store additions.",
    ],
  ] as const)('%s with %j', (key, input, stats, impactMessage) => {
    const a = find(key, input)
    expect(a.stats).toEqual(stats)
    expect(a.impactMessage).toBe(impactMessage)
    expect(a.shareText).toBe(`I unlocked the "${ACHIEVEMENTS[key].title}" achievement on ReCircle! ${impactMessage} #ReCircle #B3TR`)
  })
})

describe('countReceiptsInMonth', () => {
  const now = new Date('2025-03-15T12:00:00.000Z')
  it.each([
    [[], 0],
    [['2025-03-01', '2025-03-15', '2025-03-31'], 3],
    [['2025-02-28', '2025-04-01', '2024-03-10'], 0],
    [['2025-03-10', '2025-3-10', '2025-03-32', 'garbage'], 1],
  ])('%j -> %s', (dates, expected) => {
    expect(countReceiptsInMonth(dates, now)).toBe(expected)
  })

  it.each([
    ['2025-03-31T23:59:59.999Z', 1],
    ['2025-04-01T00:00:00.000Z', 0],
  ])('uses the UTC month of now (%s)', (iso, expected) => {
    expect(countReceiptsInMonth(['2025-03-20'], new Date(iso))).toBe(expected)
  })
})

describe('earnedMilliFromReceiptsAndStores', () => {
  const at = '2025-01-01T00:00:00.000Z'
  it.each([
    [[], 0],
    [
      [
        { type: 'receipt_verification', amountMilli: 9000, createdAt: at, status: 'confirmed' },
        { type: 'store_addition', amountMilli: 10_000, createdAt: at, status: 'confirmed' },
        { type: 'achievement_reward', amountMilli: 10_000, createdAt: at, status: 'confirmed' },
        { type: 'referral_reward', amountMilli: 15_000, createdAt: at, status: 'confirmed' },
        { type: 'sustainability_app', amountMilli: 2700, createdAt: at, status: 'confirmed' },
        { type: 'token_claim', amountMilli: 19_000, createdAt: at, status: 'confirmed' },
        { type: 'receipt_verification', amountMilli: 5000, createdAt: at, status: 'failed' },
      ],
      19_000,
    ],
  ])('%j -> %s', (entries, expected) => {
    expect(earnedMilliFromReceiptsAndStores(entries)).toBe(expected)
  })
})

describe('achievement reward descriptions', () => {
  it.each(ACHIEVEMENT_KEYS.map((key) => [key]))('%s round-trips', (key) => {
    expect(achievementRewardDescription(key)).toBe(`Achievement Reward: ${key}`)
    expect(parseAchievementKey(achievementRewardDescription(key))).toBe(key)
  })

  it.each([
    ['first_store', 'first_store'],
    ['Achievement Reward: ten_receipts', 'ten_receipts'],
    ['Achievement Reward: five_receipts (streak bonus 20%)', 'five_receipts'],
    ['Achievement Reward: music_store', null],
    ['movie_store', null],
    ['Achievement Reward: first_receipts', null],
    ['Achievement Reward: xfirst_receipt', null],
    ['Achievement Reward: FIRST_RECEIPT', null],
    ['', null],
    ['Receipt verification', null],
  ])('parseAchievementKey(%j) -> %s', (description, expected) => {
    expect(parseAchievementKey(description)).toBe(expected)
  })
})

describe('achievementRewardTitle', () => {
  it.each([
    ['Achievement Reward: first_store', 'Store Pioneer'],
    ['first_receipt', 'First Receipt'],
    ['Achievement Reward: ten_receipts', 'Green Traveler'],
    ['Achievement Reward: music_store', 'Music store'],
    ['movie_store', 'Movie store'],
  ])('%j -> %j', (description, expected) => {
    expect(achievementRewardTitle(description)).toBe(expected)
  })
})

describe('achievementRewardsDue', () => {
  const unlocked = (keys: AchievementKey[]) => ACHIEVEMENT_KEYS.map((key) => ({ key, unlocked: keys.includes(key) }))
  it.each([
    [[], [], []],
    [['first_receipt'], [], [{ key: 'first_receipt', amountMilli: 10_000, description: 'Achievement Reward: first_receipt' }]],
    [['first_receipt'], ['first_receipt'], []],
    [['first_receipt', 'five_receipts', 'token_milestone'], [], [{ key: 'first_receipt', amountMilli: 10_000, description: 'Achievement Reward: first_receipt' }]],
    [
      ['first_receipt', 'first_store'],
      ['music_store'],
      [
        { key: 'first_receipt', amountMilli: 10_000, description: 'Achievement Reward: first_receipt' },
        { key: 'first_store', amountMilli: 3000, description: 'Achievement Reward: first_store' },
      ],
    ],
    [['first_receipt', 'first_store'], ['first_store', 'first_receipt'], []],
  ] as const)('unlocked %j, paid %j -> %j', (keys, paid, expected) => {
    expect(achievementRewardsDue(unlocked([...keys]), paid)).toEqual(expected)
  })
})

describe('latestUnlockedAchievement (Home, issue 24)', () => {
  const now = new Date('2025-03-20T12:00:00.000Z')
  const receipt = (day: string) => ({ acceptedAt: `${day}T09:00:00.000Z`, purchaseDate: day })
  const entry = (type: string, day: string, amountMilli: number, description = '', status = 'completed') => ({
    type,
    amountMilli,
    createdAt: `${day}T09:00:00.000Z`,
    status,
    description,
  })
  const unlocked = (...keys: AchievementKey[]) => ACHIEVEMENT_KEYS.map((key) => ({ key, unlocked: keys.includes(key) }))

  it('is null with nothing unlocked', () => {
    expect(latestUnlockedAchievement(unlocked(), { receipts: [], entries: [] }, now)).toBeNull()
  })

  it('shows the first receipt with the 10 B3TR bonus its entry paid', () => {
    const evidence = { receipts: [receipt('2025-03-01')], entries: [entry('achievement_reward', '2025-03-01', 10_000, 'Achievement Reward: first_receipt')] }
    expect(latestUnlockedAchievement(unlocked('first_receipt'), evidence, now)).toEqual({
      key: 'first_receipt',
      title: 'First Receipt',
      unlockedAt: '2025-03-01T09:00:00.000Z',
      rewardMilli: 10_000,
    })
  })

  it('moves on to an achievement that pays nothing, unlocked later than the last reward entry', () => {
    const evidence = {
      receipts: ['2025-02-01', '2025-02-02', '2025-03-10', '2025-03-11', '2025-03-12'].map(receipt),
      entries: [
        entry('achievement_reward', '2025-02-01', 10_000, 'Achievement Reward: first_receipt'),
        entry('store_addition', '2025-02-05', 10_000),
        entry('achievement_reward', '2025-02-05', 3000, 'Achievement Reward: first_store'),
      ],
    }
    // monthly_record: the third receipt dated in March (03-12); five_receipts: the fifth (03-12 too).
    const latest = latestUnlockedAchievement(unlocked('first_receipt', 'first_store', 'five_receipts', 'monthly_record'), evidence, now)
    expect(latest).toMatchObject({ key: 'monthly_record', unlockedAt: '2025-03-12T09:00:00.000Z', rewardMilli: null })
  })

  it.each([
    ['first_store', '2025-02-05T09:00:00.000Z'],
    ['token_milestone', '2025-03-03T09:00:00.000Z'],
    ['ten_receipts', null],
  ] as const)('dates %s at %s', (key, expected) => {
    const evidence = {
      receipts: [receipt('2025-03-01')],
      entries: [
        entry('store_addition', '2025-02-05', 10_000),
        entry('receipt_verification', '2025-03-01', 60_000),
        entry('receipt_verification', '2025-03-02', 50_000, '', 'failed'),
        entry('receipt_verification', '2025-03-03', 30_000),
      ],
    }
    expect(achievementUnlockedAt(key, evidence, now)).toBe(expected)
  })
})

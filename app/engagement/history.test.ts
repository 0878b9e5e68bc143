import { describe, expect, it } from 'vitest'
import { evaluateBadges } from './badges'
import {
  attachBadgeEvidence,
  confidencePercent,
  csvCell,
  displayAmountMilli,
  isRewardHistoryEntry,
  matchesTransactionSearch,
  paginate,
  parsePage,
  rewardCategoryLabel,
  streakReachedAt,
  transactionTitle,
  toRewardHistoryRow,
  type LedgerRowLike,
} from './history'

const HASH = '0x' + 'ab'.repeat(32)

function entry(over: Partial<LedgerRowLike> & Pick<LedgerRowLike, 'id'>): LedgerRowLike {
  return {
    type: 'receipt_verification',
    amountMilli: 8000,
    description: 'Receipt verified: Uber',
    status: 'completed',
    txHash: null,
    createdAt: `2025-01-${String(over.id).padStart(2, '0')}T10:00:00.000Z`,
    ...over,
  }
}

describe('displayAmountMilli', () => {
  it.each([
    ['receipt_verification', 8000, 8000],
    ['token_claim', 5000, -5000],
    ['token_claim', -5000, -5000],
    ['admin_action', -1000, -1000],
  ])('%s %s shows as %s', (type, amountMilli, shown) => {
    expect(displayAmountMilli({ type, amountMilli })).toBe(shown)
  })
})

describe('matchesTransactionSearch', () => {
  const receipt = { type: 'receipt_verification', amountMilli: 18_000, description: 'Receipt verified: Uber' }
  const claim = { type: 'token_claim', amountMilli: -5_500, description: 'Claim all tokens' }
  it.each([
    [receipt, '', true],
    [receipt, '   ', true],
    [receipt, 'uber', true],
    [receipt, 'UBER', true],
    [receipt, 'receipt_verification', true],
    [receipt, 'receipt verification', true],
    [receipt, 'Receipt verified', true],
    [receipt, '18', true],
    [receipt, '18.00', true],
    [receipt, '+18.00', true],
    [receipt, '18.0', true],
    [receipt, '19', false],
    [receipt, 'lyft', false],
    [claim, '-5.50', true],
    [claim, '5.5', true],
    [claim, 'token claim', true],
    [claim, '+5.50', false],
    [claim, 'uber', false],
  ])('%o with %j -> %s', (e, q, expected) => {
    expect(matchesTransactionSearch(e, q)).toBe(expected)
  })
})

describe('paging', () => {
  const items = Array.from({ length: 23 }, (_, i) => i + 1)
  it.each([
    [1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1],
    [2, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 2],
    [3, [21, 22, 23], 3],
    [4, [21, 22, 23], 3],
    [0, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1],
  ])('page %s', (page, expected, current) => {
    const result = paginate(items, page)
    expect(result.items).toEqual(expected)
    expect(result.page).toBe(current)
    expect(result.pageCount).toBe(3)
    expect(result.total).toBe(23)
  })

  it('has one empty page for no items', () => {
    expect(paginate([], 5)).toEqual({ items: [], page: 1, pageCount: 1, total: 0 })
  })

  it.each([
    [null, 1],
    ['', 1],
    ['2', 2],
    ['0', 1],
    ['-3', 1],
    ['1.5', 1],
    ['abc', 1],
    ['10', 10],
  ])('parsePage(%j) = %s', (value, expected) => {
    expect(parsePage(value)).toBe(expected)
  })
})

describe('reward-history rows', () => {
  it('maps a receipt entry with its store, category, CO2 and confidence', () => {
    const row = toRewardHistoryRow(entry({ id: 7, amountMilli: 9600, txHash: HASH }), {
      storeName: 'Uber',
      category: 'ride_share',
      analysisJson: JSON.stringify({ confidence: 0.934 }),
    })
    expect(row).toEqual({
      id: 7,
      amount: 9.6,
      category: 'rideshare',
      storeName: 'Uber',
      date: '2025-01-07T10:00:00.000Z',
      status: 'completed',
      txHash: HASH,
      co2Saved: 5000,
      confidenceScore: 93,
    })
  })

  it.each([
    ['electric_vehicle', 'ev_rental', 'EV Rental'],
    ['public_transit', 'public_transit', 'Public Transit'],
    ['scooter_bike', 'scooter_bike', 'E-Scooter / Bike'],
    ['mystery', 'mystery', 'Mystery'],
    ['thrift_store', 'thrift_store', 'Thrift Store'],
    ['bike_share', 'bike_share', 'Bike share'],
  ])('receipt category %s is %s (%s)', (category, expected, label) => {
    const row = toRewardHistoryRow(entry({ id: 1 }), { storeName: null, category, analysisJson: '{}' })
    expect(row.category).toBe(expected)
    expect(rewardCategoryLabel(row.category)).toBe(label)
    expect(row.storeName).toBe('Transport receipt')
    expect(row.confidenceScore).toBeNull()
  })

  it('maps store additions, achievements and referrals without CO2 or confidence', () => {
    const store = toRewardHistoryRow(entry({ id: 2, type: 'store_addition', amountMilli: 10_000, description: 'Store added: Green Thrift' }), null)
    expect(store).toMatchObject({ category: 'store_addition', storeName: 'Store added: Green Thrift', co2Saved: 0, confidenceScore: null, amount: 10 })
    const achievement = toRewardHistoryRow(entry({ id: 3, type: 'achievement_reward', amountMilli: 10_000, description: 'Achievement Reward: first_receipt' }), null)
    expect(achievement).toMatchObject({ category: 'achievement', storeName: 'Achievement: First Receipt', co2Saved: 0 })
    const legacy = toRewardHistoryRow(entry({ id: 4, type: 'achievement_reward', description: 'music_store' }), null)
    expect(legacy.storeName).toBe('music_store')
    const referral = toRewardHistoryRow(entry({ id: 5, type: 'referral_reward', amountMilli: 15_000, description: '' }), null)
    expect(referral).toMatchObject({ category: 'referral', storeName: 'Referral reward', amount: 15 })
  })

  it.each([
    [null, null],
    ['', null],
    ['not json', null],
    ['{}', null],
    ['{"confidence":"0.9"}', null],
    ['{"confidence":0}', 0],
    ['{"confidence":0.885}', 89],
    ['{"confidence":1}', 100],
    ['{"confidence":1.7}', 100],
    ['{"confidence":-1}', 0],
  ])('confidencePercent(%j) = %s', (json, expected) => {
    expect(confidencePercent(json)).toBe(expected)
  })

  it.each([
    ['receipt_verification', 'completed', true],
    ['store_addition', 'pending', true],
    ['achievement_reward', 'confirmed', true],
    ['referral_reward', 'completed', true],
    ['receipt_verification', 'failed', false],
    ['token_claim', 'pending', false],
    ['sustainability_app', 'completed', false],
    ['admin_action', 'completed', false],
  ])('%s (%s) is a reward-history row: %s', (type, status, expected) => {
    expect(isRewardHistoryEntry({ type, status })).toBe(expected)
  })
})

describe('attachBadgeEvidence', () => {
  const receipts = [1, 2, 3, 4, 5].map((n) => ({ earnedAt: `2025-01-0${n}T10:00:00.000Z`, txHash: n === 5 ? HASH : null }))
  const entries: LedgerRowLike[] = [
    entry({ id: 1, amountMilli: 9000 }),
    entry({ id: 2, type: 'achievement_reward', amountMilli: 10_000, description: 'Achievement Reward: first_receipt', createdAt: '2025-01-01T10:00:01.000Z' }),
    entry({ id: 3, amountMilli: 8000 }),
    entry({ id: 4, type: 'store_addition', amountMilli: 10_000, txHash: HASH }),
    entry({ id: 5, amountMilli: 8000, status: 'failed' }),
    entry({ id: 6, type: 'token_claim', amountMilli: -20_000 }),
    entry({ id: 7, amountMilli: 8000 }),
  ]
  // earning (counted): 9 + 10 + 8 + 10 + 8 = 45 B3TR
  const badges = evaluateBadges({ receiptCount: 5, storeAdditionCount: 1, earnedMilli: 45_000, currentStreak: 3 })
  const byId = Object.fromEntries(attachBadgeEvidence(badges, { receipts, entries }).map((b) => [b.id, b]))

  // Decision 113: the receipt-count and first-store badges were the achievements' rules; the
  // CO2 badge dates by the Nth receipt, Community Builder by the 5th store addition.
  it('dates a store badge by the Nth counted store addition and takes its hash', () => {
    const stores = [10, 11, 12, 13, 14].map((id) => entry({ id, type: 'store_addition', amountMilli: 10_000, txHash: id === 14 ? HASH : null }))
    const five = evaluateBadges({ receiptCount: 0, storeAdditionCount: 5, earnedMilli: 50_000, currentStreak: 0 })
    const builder = attachBadgeEvidence(five, { receipts: [], entries: stores }).find((b) => b.id === 'store_contributor')
    expect(builder).toMatchObject({ earned: true, earnedDate: '2025-01-14T10:00:00.000Z', txHash: HASH })
  })

  it('dates the token badge by the entry where the running total crosses the threshold', () => {
    // 9 (id1) + 10 (id2) = 19 -> Token Collector at id2 (19 >= 10).
    expect(byId.token_milestone_10).toMatchObject({ earned: true, earnedDate: '2025-01-01T10:00:01.000Z' })
  })

  it('dates the CO2 badge by the receipt whose 5 kg reached 10 kg: the second', () => {
    expect(byId.co2_saver).toMatchObject({ earned: true, earnedDate: '2025-01-02T10:00:00.000Z', txHash: null })
  })

  it('dates a streak badge by the receipt that completed the run of days', () => {
    const withStreak = attachBadgeEvidence(badges, { receipts, entries, streakReceipts: receipts })
    expect(withStreak.find((b) => b.id === 'streak_3')).toMatchObject({ earned: true, earnedDate: '2025-01-03T10:00:00.000Z', txHash: null })
  })

  it('dates a streak badge from the stored streak when its receipts are not at hand', () => {
    const fromState = attachBadgeEvidence(badges, { receipts, entries, streakReceipts: [], streak: { current: 5, lastDay: '2025-01-09' } })
    // 5 days ending on the 9th: the 3rd day of the run was the 7th.
    expect(fromState.find((b) => b.id === 'streak_3')).toMatchObject({ earned: true, earnedDate: '2025-01-07' })
  })

  it('gives no date or hash to unearned badges, nor to a streak nothing can date', () => {
    expect(byId.streak_3).toMatchObject({ earned: true, earnedDate: null, txHash: null })
    expect(byId.store_contributor).toMatchObject({ earned: false, earnedDate: null, txHash: null })
    expect(byId.token_milestone_50).toMatchObject({ earned: false, earnedDate: null, txHash: null })
  })

  it('leaves the date empty when the evidence is missing', () => {
    const [first] = attachBadgeEvidence(badges.slice(0, 1), { receipts: [], entries: [] })
    expect(first).toMatchObject({ earned: true, earnedDate: null, txHash: null })
  })
})

describe('transactionTitle: no raw keys on screen', () => {
  it.each([
    ['achievement_reward', 'Achievement Reward: first_store', 'Achievement Reward: Store Pioneer'],
    ['achievement_reward', 'Achievement Reward: first_receipt', 'Achievement Reward: First Receipt'],
    ['achievement_reward', 'Achievement Reward: music_store', 'Achievement Reward: Music store'],
    ['sustainability_app', 'Sustainability fund: 30% of Achievement Reward: five_receipts', 'Sustainability fund: 30% of Achievement Reward: Eco Commuter'],
    ['receipt_verification', 'Receipt verified: 8 B3TR', 'Receipt verified: 8 B3TR'],
    ['store_addition', '', 'Store added'],
    ['some_new_type', '', 'Some new type'],
  ])('%s %j -> %j', (type, description, expected) => {
    expect(transactionTitle({ type, description })).toBe(expected)
  })

  it('finds an entry by the title it shows', () => {
    expect(matchesTransactionSearch({ type: 'achievement_reward', amountMilli: 3000, description: 'Achievement Reward: first_store' }, 'store pioneer')).toBe(true)
  })
})

describe('streakReachedAt', () => {
  const at = (...isos: string[]) => isos.map((earnedAt, i) => ({ earnedAt, n: i + 1 }))
  it.each([
    ['three days in a row', at('2025-01-01T09:00:00Z', '2025-01-02T23:59:00Z', '2025-01-03T00:01:00Z'), 3, 3],
    ['two receipts on one day count once', at('2025-01-01T09:00:00Z', '2025-01-01T18:00:00Z', '2025-01-02T09:00:00Z', '2025-01-03T09:00:00Z'), 3, 4],
    ['a missed day restarts the run', at('2025-01-01T09:00:00Z', '2025-01-02T09:00:00Z', '2025-01-04T09:00:00Z', '2025-01-05T09:00:00Z', '2025-01-06T09:00:00Z'), 3, 5],
    ['unsorted input', at('2025-01-03T09:00:00Z', '2025-01-01T09:00:00Z', '2025-01-02T09:00:00Z'), 3, 1],
    ['never long enough', at('2025-01-01T09:00:00Z', '2025-01-03T09:00:00Z'), 2, null],
    ['no receipts', at(), 1, null],
  ])('%s', (_name, receipts, target, expected) => {
    expect(streakReachedAt(receipts, target)?.n ?? null).toBe(expected)
  })
})

describe('csvCell', () => {
  it.each([
    ['plain', '"plain"'],
    ['say "hi"', '"say ""hi"""'],
    ['-5.000', '"-5.000"'],
    ['18.000', '"18.000"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+cmd', `"'+cmd"`],
    ['-1+2', `"'-1+2"`],
    ['@sum', `"'@sum"`],
  ])('%j -> %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })
})

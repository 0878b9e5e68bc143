import { describe, expect, it } from 'vitest'
import { approvalPromise, categoryPaidAs, firstBonusReceiptId, firstReceiptBonusFor, inReviewTotalMilli, type BonusCandidate } from './approval-promise'
import { FIRST_RECEIPT_BONUS_MILLI } from './receipt-reward'
import { countStreakDay } from './streaks'

const r = (id: number, createdAt: string, status: BonusCandidate['status'] = 'pending_review'): BonusCandidate => ({ id, createdAt, status })

describe('firstBonusReceiptId (the first-receipt bonus belongs to one receipt)', () => {
  it.each([
    ['none', [], null],
    ['two waiting: the earlier', [r(2, '2026-01-02T10:00:00Z'), r(1, '2026-01-02T09:00:00Z')], 1],
    ['same instant: the lower id', [r(7, '2026-01-02T09:00:00Z'), r(6, '2026-01-02T09:00:00Z')], 6],
    ['the earlier rejected: the next', [r(1, '2026-01-01T09:00:00Z', 'rejected'), r(2, '2026-01-02T09:00:00Z')], 2],
    ['an approved one counts', [r(1, '2026-01-01T09:00:00Z', 'approved'), r(2, '2026-01-02T09:00:00Z')], 1],
    ['all rejected', [r(1, '2026-01-01T09:00:00Z', 'rejected')], null],
  ] as const)('%s', (_name, receipts, expected) => {
    expect(firstBonusReceiptId(receipts)).toBe(expected)
  })
})

describe('firstReceiptBonusFor', () => {
  const receipts = [r(1, '2026-01-02T09:00:00Z'), r(2, '2026-01-02T10:00:00Z')]
  it('promises the bonus on the earliest waiting receipt only', () => {
    expect(firstReceiptBonusFor(1, { bonusPaid: false, receipts })).toBe(FIRST_RECEIPT_BONUS_MILLI)
    expect(firstReceiptBonusFor(2, { bonusPaid: false, receipts })).toBe(0)
  })
  it('approving the later one first does not move it', () => {
    const after = [r(1, '2026-01-02T09:00:00Z'), r(2, '2026-01-02T10:00:00Z', 'approved')]
    expect(firstReceiptBonusFor(2, { bonusPaid: false, receipts: after })).toBe(0)
    expect(firstReceiptBonusFor(1, { bonusPaid: false, receipts: after })).toBe(FIRST_RECEIPT_BONUS_MILLI)
  })
  it('is never promised once paid', () => {
    expect(firstReceiptBonusFor(1, { bonusPaid: true, receipts })).toBe(0)
  })
})

describe('countStreakDay (a staff approval counts for the day the receipt was submitted)', () => {
  const none = { lastActiveDay: null, currentStreak: 0, bestStreak: 0 }
  it.each([
    // record, day, accepted days -> record, streak of the day
    ['a first receipt', none, '2026-01-05', [], { lastActiveDay: '2026-01-05', currentStreak: 1, bestStreak: 1 }, 1],
    ['the day after the run', { lastActiveDay: '2026-01-05', currentStreak: 2, bestStreak: 2 }, '2026-01-06', [], { lastActiveDay: '2026-01-06', currentStreak: 3, bestStreak: 3 }, 3],
    ['the same day again', { lastActiveDay: '2026-01-05', currentStreak: 2, bestStreak: 4 }, '2026-01-05', [], { lastActiveDay: '2026-01-05', currentStreak: 2, bestStreak: 4 }, 2],
    ['after a gap: restarts', { lastActiveDay: '2026-01-01', currentStreak: 3, bestStreak: 3 }, '2026-01-05', [], { lastActiveDay: '2026-01-05', currentStreak: 1, bestStreak: 3 }, 1],
    // Monday's receipt approved after Tuesday's: it joins the run before it.
    ['a day before the run', { lastActiveDay: '2026-01-06', currentStreak: 1, bestStreak: 1 }, '2026-01-05', ['2026-01-06'], { lastActiveDay: '2026-01-06', currentStreak: 2, bestStreak: 2 }, 1],
    // The gap it fills joins two runs.
    ['fills a gap', { lastActiveDay: '2026-01-07', currentStreak: 2, bestStreak: 2 }, '2026-01-05', ['2026-01-04', '2026-01-06', '2026-01-07'], { lastActiveDay: '2026-01-07', currentStreak: 4, bestStreak: 4 }, 2],
  ] as const)('%s', (_name, record, day, accepted, expected, streakOfDay) => {
    const counted = countStreakDay(record, day, accepted)
    expect(counted.record).toEqual(expected)
    expect(counted.streakOfDay).toBe(streakOfDay)
  })
})

describe('approvalPromise (what approval pays, shown while the receipt waits)', () => {
  const streak = { lastActiveDay: '2026-01-06', currentStreak: 2, bestStreak: 2 }
  it('a first receipt: floor(8 x 1.2) + 10', () => {
    const p = approvalPromise({ category: 'ride_share', day: '2026-01-07', streak: { lastActiveDay: null, currentStreak: 0, bestStreak: 0 }, acceptedDays: [], bonusMilli: FIRST_RECEIPT_BONUS_MILLI })
    expect(p.totalMilli).toBe(19_000)
  })
  it('the receipt that makes 3 days: floor(8 x 1.2 x 1.2)', () => {
    expect(approvalPromise({ category: 'public_transit', day: '2026-01-07', streak, acceptedDays: [], bonusMilli: 0 })).toMatchObject({ streak: 3, totalMilli: 11_000 })
  })
  it('submitted before the run: paid at its own day', () => {
    expect(approvalPromise({ category: 'public_transit', day: '2026-01-01', streak, acceptedDays: [], bonusMilli: 0 })).toMatchObject({ streak: 1, totalMilli: 9000 })
  })
})

describe('categoryPaidAs', () => {
  it.each([
    ['scooter_bike', 'scooter_bike'],
    [null, 'ride_share'],
    ['thrift_store', 'ride_share'],
  ])('%s -> %s', (category, expected) => {
    expect(categoryPaidAs(category)).toBe(expected)
  })
})

describe('inReviewTotalMilli: what all waiting receipts credit if approved', () => {
  const none = { lastActiveDay: null, currentStreak: 0, bestStreak: 0 }
  const at = (id: number, day: string) => ({ id, createdAt: `${day}T12:00:00.000Z`, category: 'ride_share' })
  const receipts = (ids: number[]) => ids.map((id) => ({ id, createdAt: '', status: 'pending_review' as const }))

  it('two on one day: 19 + 9, the bonus once', () => {
    const waiting = [at(1, '2026-03-02'), at(2, '2026-03-02')]
    expect(inReviewTotalMilli(waiting, { streak: none, acceptedDays: [], bonusPaid: false, receipts: receipts([1, 2]).map((r, i) => ({ ...r, createdAt: `2026-03-02T1${i}:00:00.000Z` })) })).toBe(28_000)
  })

  it('three days in a row: the third is paid at the 3-day streak (floor(8 × 1.2 × 1.2) = 11)', () => {
    const waiting = [at(1, '2026-03-01'), at(2, '2026-03-02'), at(3, '2026-03-03')]
    expect(inReviewTotalMilli(waiting, { streak: none, acceptedDays: [], bonusPaid: true, receipts: [] })).toBe(9000 + 9000 + 11_000)
  })

  it('nothing waiting: 0', () => {
    expect(inReviewTotalMilli([], { streak: none, acceptedDays: [], bonusPaid: false, receipts: [] })).toBe(0)
  })
})

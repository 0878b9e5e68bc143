import { describe, expect, it } from 'vitest'
import { groupReceipts, type GroupableReceipt } from './review-groups'

let id = 0
const r = (over: Partial<GroupableReceipt> & { userId: number }): GroupableReceipt => ({
  id: ++id,
  referredByUserId: null,
  installHash: null,
  addressHash: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  storeName: 'Uber',
  amountCents: 1000 + id,
  purchaseDate: '2026-11-20',
  referenceNumber: `T${id}`,
  ...over,
})

describe('grouping new wallets for review', () => {
  it('keeps unrelated wallets apart, and one wallet in one group', () => {
    const groups = groupReceipts([r({ userId: 1 }), r({ userId: 1 }), r({ userId: 2 })])
    expect(groups.map((g) => g.userIds)).toEqual([[1], [2]])
    expect(groups[0]!.receiptIds).toHaveLength(2)
    expect(groups[0]!.links).toEqual([])
  })

  it('joins wallets by install, by address within 24 h, by referral chain and by the same trip under other numbers', () => {
    const groups = groupReceipts([
      r({ userId: 1, installHash: 'i1' }),
      r({ userId: 2, installHash: 'i1' }),
      r({ userId: 3, addressHash: 'a1', createdAt: '2026-11-20T10:00:00.000Z' }),
      r({ userId: 4, addressHash: 'a1', createdAt: '2026-11-21T09:00:00.000Z' }),
      r({ userId: 5, addressHash: 'a1', createdAt: '2026-11-23T09:00:00.000Z' }),
      r({ userId: 6, referredByUserId: 7 }),
      r({ userId: 7, referredByUserId: 8 }),
      r({ userId: 8 }),
      r({ userId: 9, amountCents: 4242, referenceNumber: 'A' }),
      r({ userId: 10, amountCents: 4242, referenceNumber: 'B' }),
    ])
    const of = (user: number) => groups.find((g) => g.userIds.includes(user))!
    expect(of(1).userIds.sort()).toEqual([1, 2])
    expect(of(1).links).toEqual(['install'])
    expect(of(3).userIds.sort()).toEqual([3, 4])
    expect(of(3).links).toEqual(['address'])
    expect(of(5).userIds).toEqual([5]) // two days later: not linked
    expect(of(6).userIds.sort()).toEqual([6, 7, 8])
    expect(of(6).links).toEqual(['referral'])
    expect(of(9).userIds.sort((a, b) => a - b)).toEqual([9, 10])
    expect(of(9).links).toEqual(['same_trip'])
    expect(groups[0]!.userIds).toHaveLength(3) // the largest first
  })

  it('does not link two receipts of the same trip number (the duplicate checks handle those)', () => {
    const groups = groupReceipts([r({ userId: 1, amountCents: 5000, referenceNumber: 'X' }), r({ userId: 2, amountCents: 5000, referenceNumber: 'X' })])
    expect(groups).toHaveLength(2)
  })
})

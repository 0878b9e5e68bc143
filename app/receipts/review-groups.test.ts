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

  it('joins wallets by install, by referral chain and by the same trip under other numbers; an address only ties them (issue 38)', () => {
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
    // Issue 38: an address within 24 hours is listed beside the group, never joined to it.
    expect(of(3).userIds).toEqual([3])
    expect(of(3).addressTies).toEqual([4])
    expect(of(4).addressTies).toEqual([3])
    expect(of(5).userIds).toEqual([5]) // two days later: not tied
    expect(of(5).addressTies).toEqual([])
    expect(of(6).userIds.sort()).toEqual([6, 7, 8])
    expect(of(6).links).toEqual(['referral'])
    expect(of(9).userIds.sort((a, b) => a - b)).toEqual([9, 10])
    expect(of(9).links).toEqual(['same_trip'])
    expect(groups[0]!.userIds).toHaveLength(3) // the largest first
  })

  it('joins the invitees of one referrer that has nothing waiting, and names the referrer (issue 38)', () => {
    const groups = groupReceipts([r({ userId: 21, referredByUserId: 20 }), r({ userId: 22, referredByUserId: 20 }), r({ userId: 23, referredByUserId: 20 })])
    expect(groups).toHaveLength(1)
    expect(groups[0]).toMatchObject({ userIds: [21, 22, 23], links: ['same_referrer'], referrerIds: [20] })
  })

  it('joins the same trip when either trip number is missing (issue 38)', () => {
    const none = groupReceipts([r({ userId: 31, amountCents: 777, referenceNumber: null }), r({ userId: 32, amountCents: 777, referenceNumber: null })])
    expect(none).toHaveLength(1)
    expect(none[0]!.links).toEqual(['same_trip'])
    const one = groupReceipts([r({ userId: 33, amountCents: 778, referenceNumber: 'Q1' }), r({ userId: 34, amountCents: 778, referenceNumber: null })])
    expect(one).toHaveLength(1)
  })

  it('keeps an address-tied wallet out of a farm joined by its install', () => {
    const groups = groupReceipts([
      r({ userId: 41, installHash: 'farm', addressHash: 'dorm', createdAt: '2026-11-20T10:00:00.000Z' }),
      r({ userId: 42, installHash: 'farm', addressHash: 'dorm', createdAt: '2026-11-20T10:05:00.000Z' }),
      r({ userId: 43, addressHash: 'dorm', createdAt: '2026-11-20T11:00:00.000Z' }),
    ])
    const farm = groups.find((g) => g.userIds.includes(41))!
    expect(farm.userIds).toEqual([41, 42])
    expect(farm.addressTies).toEqual([43])
    expect(groups.find((g) => g.userIds.includes(43))!.userIds).toEqual([43])
  })

  it('does not link two receipts of the same trip number (the duplicate checks handle those)', () => {
    const groups = groupReceipts([r({ userId: 1, amountCents: 5000, referenceNumber: 'X' }), r({ userId: 2, amountCents: 5000, referenceNumber: 'X' })])
    expect(groups).toHaveLength(2)
  })
})

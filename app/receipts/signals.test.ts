import { describe, expect, it } from 'vitest'
import { describeSignals, parseSignals } from './signals'

const base = { walletAgeDays: 30, referredByUserId: null, referredBySameCodeToday: 0, inviteeAutoApprovalsToday: 0, nearDuplicateOf: null, sameReceiptFromOtherAccount: null }

describe('describeSignals', () => {
  it('says how old the wallet is, and flags a new one', () => {
    expect(describeSignals(base)).toEqual(['Wallet signed up 30 days ago'])
    expect(describeSignals({ ...base, walletAgeDays: 0 })).toEqual(['New wallet: signed up today'])
    expect(describeSignals({ ...base, walletAgeDays: 1 })).toEqual(['New wallet: signed up 1 day ago'])
  })
  it('names copies, the other account and the invitation wave', () => {
    const lines = describeSignals({ ...base, walletAgeDays: 0, referredByUserId: 7, referredBySameCodeToday: 3, inviteeAutoApprovalsToday: 1, nearDuplicateOf: 12, sameReceiptFromOtherAccount: 11 }, 'TRIP42')
    expect(lines).toEqual([
      'Trip / order number on the receipt: TRIP42',
      'The same trip was already submitted from another account (receipt #11)',
      'The photo is a close copy of receipt #12',
      'New wallet: signed up today',
      'Invited by user #7, who invited 3 accounts today; 1 receipt of their invitees approved automatically today',
    ])
  })
  it('reads nothing from a missing or broken record', () => {
    expect(describeSignals(null)).toEqual([])
    expect(parseSignals(null)).toBeNull()
    expect(parseSignals('{oops')).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { claimState } from './labels'

describe('claimState', () => {
  it.each([
    [{ status: 'pending', payoutStatus: 'pending', error: null }, 'Awaiting payout'],
    [{ status: 'pending', payoutStatus: 'expired', error: 'expired' }, 'Awaiting payout'],
    [{ status: 'pending', payoutStatus: null, error: null }, 'Awaiting payout'],
    [{ status: 'pending', payoutStatus: 'signed', error: null }, 'Pending Claim'],
    [{ status: 'pending', payoutStatus: 'sent', error: null }, 'Pending Claim'],
    [{ status: 'confirmed', payoutStatus: 'confirmed', error: null }, 'Confirmed'],
    [{ status: 'failed', payoutStatus: 'reverted', error: 'X2EarnRewardsPool: app has insufficient available funds' }, 'Failed'],
  ] as const)('%o reads %s', (input, label) => {
    expect(claimState(input).label).toBe(label)
  })

  it('explains a failure and says the tokens are back', () => {
    const state = claimState({ status: 'failed', payoutStatus: 'failed', error: 'X2EarnRewardsPool: not enough funds in the rewards pool' })
    expect(state.detail).toMatch(/out of funds/)
    expect(state.detail).toMatch(/back in your balance/)
  })
})

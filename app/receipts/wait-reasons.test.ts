import { describe, expect, it } from 'vitest'
import { NEW_WALLET_REVIEW_REASON, type Standing } from './standing'
import { SENT_BEFORE_STANDING_REASON, waitReasons } from './wait-reasons'

const NEW: Standing = { established: false, reason: 'new_wallet' }
const ESTABLISHED: Standing = { established: true, reason: 'staff_approved' }
const READ = 'The total could not be read with confidence.'

describe('waitReasons (worked out when shown)', () => {
  it.each([
    ['a new wallet before sending', { reasons: [], waitsForStanding: true, standing: NEW }, [NEW_WALLET_REVIEW_REASON]],
    ['a new wallet after sending: the stored line, still true', { reasons: [NEW_WALLET_REVIEW_REASON], waitsForStanding: false, standing: NEW }, [NEW_WALLET_REVIEW_REASON]],
    ['established since: no longer "new wallet"', { reasons: [NEW_WALLET_REVIEW_REASON], waitsForStanding: false, standing: ESTABLISHED }, [SENT_BEFORE_STANDING_REASON]],
    ['its own reasons first, kept', { reasons: [READ, NEW_WALLET_REVIEW_REASON], waitsForStanding: false, standing: ESTABLISHED }, [READ, SENT_BEFORE_STANDING_REASON]],
    ['no standing reason: none added', { reasons: [READ], waitsForStanding: false, standing: NEW }, [READ]],
    ['Passport signals speak for themselves', { reasons: ['VeBetter Passport has signals against this wallet.'], waitsForStanding: true, standing: { established: false, reason: 'passport_signalled' } as Standing }, ['VeBetter Passport has signals against this wallet.']],
  ] as const)('%s', (_name, input, expected) => {
    expect(waitReasons(input)).toEqual(expected)
  })

  it('a fraud rejection since: says so, instead of "new wallet"', () => {
    const [line] = waitReasons({ reasons: [NEW_WALLET_REVIEW_REASON], waitsForStanding: false, standing: { established: false, reason: 'fraud_rejection' } })
    expect(line).toMatch(/rejected as fraud/)
  })
})

/**
 * Standing in tests (issue 31). Suites about what an established wallet's receipt earns (rewards,
 * streaks, duplicates) submit as a wallet VeBetter Passport counts as a person; the standing suite
 * itself (tests/standing.test.ts) covers new wallets.
 */
import type { PassportCheckView } from '../../app/receipts/passport-signals'
import { resetEnvCache } from '../../app/utils/env.server'
import { fakeChain } from './payouts'

export const PERSON: PassportCheckView = { ok: true, status: { blacklisted: false, signals: 0, isPerson: true, personReason: '' } }
export const NOT_A_PERSON: PassportCheckView = { ok: true, status: { blacklisted: false, signals: 0, isPerson: false, personReason: 'no score yet' } }

/** The Passport check of submitReceipt for an established wallet. */
export const asPerson = async () => PERSON

/**
 * For route tests: VeBetter Passport on the fake node counts these wallets as people while `run`
 * runs (PASSPORT_CHECKS on), so their photos are paid at once as an established wallet's are.
 */
export async function asPassportPeople<T>(wallets: string[], run: () => Promise<T>): Promise<T> {
  const before = process.env.PASSPORT_CHECKS
  process.env.PASSPORT_CHECKS = 'on'
  resetEnvCache()
  const fake = fakeChain()
  for (const wallet of wallets) fake.setPassport(wallet, { person: true })
  try {
    return await run()
  } finally {
    process.env.PASSPORT_CHECKS = before
    resetEnvCache()
  }
}

import { describe, expect, it } from 'vitest'
import { describePassport, PASSPORT_REASONS, passportReviewReasons } from './passport-signals'

const status = (over = {}) => ({ ok: true as const, status: { blacklisted: false, signals: 0, isPerson: false, personReason: 'Not enough actions', ...over } })

describe('VeBetter Passport as a review signal (issue 22)', () => {
  it.each([
    ['a clean wallet, not a person yet (never a gate)', status(), []],
    ['a person', status({ isPerson: true }), []],
    ['a blacklisted wallet', status({ blacklisted: true }), [PASSPORT_REASONS.blacklisted]],
    ['a signalled wallet', status({ signals: 2 }), ['VeBetter Passport has 2 signals against this wallet.']],
    ['a node that did not answer', { ok: false as const, error: 'timeout' }, [PASSPORT_REASONS.unavailable]],
    ['checks switched off', null, []],
  ])('%s', (_name, check, reasons) => {
    expect(passportReviewReasons(check)).toEqual(reasons)
  })

  it('tells staff personhood, signals and blacklisting in one line', () => {
    expect(describePassport(status({ signals: 1 }))).toBe('VeBetter Passport: not a person yet (Not enough actions); 1 signal')
    expect(describePassport(status({ isPerson: true, blacklisted: true }))).toBe('VeBetter Passport: a person; 0 signals; blacklisted')
    expect(describePassport({ ok: false, error: 'timeout' })).toBe('VeBetter Passport: not checked (timeout)')
    expect(describePassport(undefined)).toBeNull()
  })
})

/**
 * Pure: what VeBetter Passport says about a wallet, as review reasons (issue 22). A blacklisted or
 * signalled wallet, or one the node could not be asked about, is never approved automatically and
 * never refused outright: staff decide. Personhood is shown to staff only (new wallets are not
 * persons yet, so it cannot be a gate).
 */
export type PassportView = { blacklisted: boolean; signals: number; isPerson: boolean; personReason: string }
export type PassportCheckView = { ok: true; status: PassportView } | { ok: false; error: string }

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export const PASSPORT_REASONS = {
  blacklisted: 'VeBetter Passport lists this wallet as blacklisted.',
  signalled: (n: number) => `VeBetter Passport has ${plural(n, 'signal')} against this wallet.`,
  unavailable: 'We could not check this wallet with VeBetter Passport right now.',
}

export function passportReviewReasons(check: PassportCheckView | null): string[] {
  if (check === null) return []
  if (!check.ok) return [PASSPORT_REASONS.unavailable]
  const reasons: string[] = []
  if (check.status.blacklisted) reasons.push(PASSPORT_REASONS.blacklisted)
  if (check.status.signals > 0) reasons.push(PASSPORT_REASONS.signalled(check.status.signals))
  return reasons
}

/** For staff: one line on the wallet's Passport. */
export function describePassport(check: PassportCheckView | null | undefined): string | null {
  if (!check) return null
  if (!check.ok) return `VeBetter Passport: not checked (${check.error})`
  const { blacklisted, signals, isPerson, personReason } = check.status
  const person = isPerson ? 'a person' : `not a person yet${personReason ? ` (${personReason})` : ''}`
  return `VeBetter Passport: ${person}; ${plural(signals, 'signal')}${blacklisted ? '; blacklisted' : ''}`
}

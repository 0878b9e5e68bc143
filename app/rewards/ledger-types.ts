// Ledger entry types (the user-earning subset is what "earned" means on every screen) and their sums. Pure.

export const LEDGER_ENTRY_TYPES = [
  'receipt_verification',
  'store_addition',
  'token_redemption',
  'token_claim',
  'achievement_reward',
  'sustainability_creator',
  'sustainability_app',
  'admin_action',
  'referral_reward',
] as const

export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number]

/** Positive amounts credited to the user. sustainability_* belong to the fund; token_claim is a deduction. */
export const USER_EARNING_TYPES = [
  'receipt_verification',
  'store_addition',
  'achievement_reward',
  'referral_reward',
] as const satisfies readonly LedgerEntryType[]

export function isUserEarning(type: string): boolean {
  return (USER_EARNING_TYPES as readonly string[]).includes(type)
}

/** The fields of a ledger row that the pure rules read. createdAt is an ISO-8601 instant or a Date. */
export interface LedgerEntryLike {
  type: string
  amountMilli: number
  createdAt: string | Date
  status: string
}

/** Entries in these states never happened as far as totals are concerned (as in ledger.server.ts). */
export const UNCOUNTED_STATUSES = ['failed'] as const

export function isCountedEntry(entry: Pick<LedgerEntryLike, 'status'>): boolean {
  return !(UNCOUNTED_STATUSES as readonly string[]).includes(entry.status)
}

/** Sum of counted entries of the given types (default: the user-earning types). */
export function sumMilli(
  entries: readonly LedgerEntryLike[],
  types: readonly string[] = USER_EARNING_TYPES,
): number {
  let total = 0
  for (const entry of entries) {
    if (types.includes(entry.type) && isCountedEntry(entry)) total += entry.amountMilli
  }
  return total
}

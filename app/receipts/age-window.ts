// Purchase date window (decision 021): how old, or how far ahead, a receipt's date may be. Pure.
import { daysBetween, parseUtcDay, utcDay } from '~/utils/calendar'


export const MAX_RECEIPT_AGE_DAYS = 14

export type PurchaseDateCheck =
  | { ok: true }
  | { ok: false; code: 'invalid' | 'future' | 'too_old'; reason: string }

/**
 * Compares UTC calendar days. A purchase date one day after today's UTC date is accepted: the
 * user's form defaults to their local today, and anywhere east of UTC that can already be
 * tomorrow in UTC (never more than one day: the furthest zone is UTC+14). Two or more days ahead
 * is "in the future". On the old side the rule is exact: up to `maxAgeDays` days before today's
 * UTC date is fine, one more is too old.
 */
export function checkPurchaseDate(
  purchaseDate: string,
  now: Date,
  maxAgeDays: number = MAX_RECEIPT_AGE_DAYS,
  opts: { travel?: boolean } = {},
): PurchaseDateCheck {
  if (parseUtcDay(purchaseDate) === null) {
    return { ok: false, code: 'invalid', reason: 'The purchase date is not a valid date.' }
  }
  const age = daysBetween(purchaseDate, utcDay(now))
  // A ticket is dated by its journey (issue 37): the trip earns, so a trip still ahead waits for it.
  if (opts.travel && age < 0) return { ok: false, code: 'future', reason: tripAheadReason(purchaseDate) }
  if (age < -1) return { ok: false, code: 'future', reason: 'The purchase date is in the future.' }
  if (age > maxAgeDays) {
    return { ok: false, code: 'too_old', reason: `Receipts older than ${maxAgeDays} days are not eligible.` }
  }
  return { ok: true }
}

/** What a rider with a ticket for a trip still ahead is told. */
export function tripAheadReason(travelDate: string): string {
  const day = new Date(`${travelDate}T00:00:00Z`).toLocaleDateString('en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
  return `Your trip on ${day} is still ahead. Come back after your trip: the ticket earns once you have travelled.`
}

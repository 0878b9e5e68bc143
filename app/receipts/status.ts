/** One label per receipt status, everywhere a user sees it (issue 32). */
export const RECEIPT_STATUS_LABELS = {
  approved: 'Verified',
  pending_review: 'In review',
  rejected: 'Rejected',
} as const

export type ReceiptStatusName = keyof typeof RECEIPT_STATUS_LABELS

/** Staff decide within a day as a rule; the user is told the latest it should take. */
export const REVIEW_EXPECTED_HOURS = 48

const EXPECTED_BY = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })

/** "Thu, Nov 27": when a receipt sent to review at `createdAt` should be decided. */
export function reviewExpectedBy(createdAt: string): string {
  const at = new Date(Date.parse(createdAt) + REVIEW_EXPECTED_HOURS * 3600_000)
  return EXPECTED_BY.format(at)
}

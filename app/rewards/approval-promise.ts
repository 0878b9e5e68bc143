// What a receipt waiting for staff earns once approved (issue 40), and which receipt the
// first-receipt bonus belongs to. Pure: the approval (receipts/review.server.ts) and every screen
// that promises an amount call these same functions, so the promise is what approval pays.
import { countStreakDay, type StreakRecord } from './streaks'
import { computeReceiptReward, FIRST_RECEIPT_BONUS_MILLI, type RewardPreview } from './receipt-reward'
import { isTransportCategory, TRANSPORT_CATEGORIES } from '~/analysis/categories'

export interface BonusCandidate {
  id: number
  /** ISO time of submission. */
  createdAt: string
  status: 'approved' | 'pending_review' | 'rejected'
}

/**
 * The receipt the first-receipt bonus belongs to: the user's earliest submitted receipt that is not
 * rejected, whether it is approved yet or still waiting. So two receipts waiting for staff promise
 * the bonus on one of them only, and approving them in either order pays it to that one. When that
 * receipt is rejected the bonus moves to the next one (paid at once if it is already approved).
 */
export function firstBonusReceiptId(receipts: readonly BonusCandidate[]): number | null {
  let first: BonusCandidate | null = null
  for (const r of receipts) {
    if (r.status === 'rejected') continue
    if (!first || r.createdAt < first.createdAt || (r.createdAt === first.createdAt && r.id < first.id)) first = r
  }
  return first?.id ?? null
}

/** The bonus a receipt earns: the whole bonus for the one it belongs to while it is unpaid, else 0. */
export function firstReceiptBonusFor(receiptId: number, facts: { bonusPaid: boolean; receipts: readonly BonusCandidate[] }): number {
  if (facts.bonusPaid) return 0
  return firstBonusReceiptId(facts.receipts) === receiptId ? FIRST_RECEIPT_BONUS_MILLI : 0
}

/**
 * The category a receipt is paid as: approval pays the category the user chose on the form, and the
 * form offers transport categories only (one multiplier for all of them). Before the form is sent,
 * a receipt the reader found no transport category on will be sent with one.
 */
export function categoryPaidAs(category: string | null): string {
  return isTransportCategory(category) ? category : TRANSPORT_CATEGORIES[0]
}

export interface ApprovalPromiseInput {
  /** The category approval pays (the user's, else the reader's). */
  category: string | null
  /** The UTC day the receipt was submitted: the day its streak counts for. */
  day: string
  streak: StreakRecord
  /** The days of the user's accepted receipts. */
  acceptedDays: readonly string[]
  bonusMilli: number
}

/** What approving the receipt pays now: its reward at the streak of its day, plus the bonus if it is its own. */
export function approvalPromise(input: ApprovalPromiseInput): RewardPreview {
  const { streakOfDay } = countStreakDay(input.streak, input.day, input.acceptedDays)
  const reward = computeReceiptReward({ category: input.category, streak: streakOfDay })
  return { reward, streak: streakOfDay, firstReceiptBonusMilli: input.bonusMilli, totalMilli: reward.totalMilli + input.bonusMilli }
}

export interface WaitingReceipt {
  id: number
  /** ISO time of submission: the day its streak counts for. */
  createdAt: string
  /** The category approval pays (the user's, else the reader's). */
  category: string | null
}

/**
 * What every receipt waiting for staff credits if all are approved (issue 40: the "in review"
 * amount): each at the streak of its day, counted with the waiting ones of the days before it, and
 * the first-receipt bonus on the one it belongs to. The order of approval does not change it.
 */
export function inReviewTotalMilli(
  waiting: readonly WaitingReceipt[],
  facts: { streak: StreakRecord; acceptedDays: readonly string[]; bonusPaid: boolean; receipts: readonly BonusCandidate[] },
): number {
  let streak = facts.streak
  const acceptedDays = [...facts.acceptedDays]
  let total = 0
  for (const receipt of [...waiting].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id)) {
    const day = receipt.createdAt.slice(0, 10)
    const promise = approvalPromise({
      category: receipt.category,
      day,
      streak,
      acceptedDays,
      bonusMilli: firstReceiptBonusFor(receipt.id, facts),
    })
    total += promise.totalMilli
    streak = countStreakDay(streak, day, acceptedDays).record
    acceptedDays.push(day)
  }
  return total
}

// What a receipt pays (spec 1 §9, decision 100), the fixed rewards and the sustainability split.
// Pure: amounts are whole B3TR where the spec's formulas are whole numbers, milli-B3TR where stored.
import { isTransportCategory, TRANSPORT_CATEGORIES } from '~/analysis/categories'
import { MILLI_PER_B3TR } from './money'
import { nextStreak, STREAK_TIERS, streakMultiplierTenths, type StreakState } from './streaks'


/**
 * The base reward of every verified receipt, in whole B3TR (spec 1 §9: "8 B3TR per verified transport
 * receipt"). It does not depend on the amount: the spec's per-category floor(amount x rate) was the
 * old client's estimate, and paying it made cheap transit trips earn least and a larger total read
 * from a photo earn more (decision 100).
 */
export const BASE_REWARD_B3TR = 8


export function transportMultiplierTenths(category: string | null): number {
  return isTransportCategory(category) ? 12 : 10
}

export function transportMultiplier(category: string | null): number {
  return transportMultiplierTenths(category) / 10
}

export interface ReceiptRewardInput {
  /** Decides the transport bonus only; the amount spent plays no part (decision 100). */
  category: string | null
  /**
   * The streak AFTER this receipt has counted (the value nextStreak returns for it). So the
   * receipt that completes a 3-day streak already earns 1.2x, which is what the success screen
   * and the streak celebration shown for that same receipt tell the user.
   */
  streak: number
}

export interface ReceiptReward {
  /** Whole B3TR: BASE_REWARD_B3TR. */
  baseReward: number
  streakMultiplier: number
  transportMultiplier: number
  /** Whole B3TR: floor(base x streak x transport). */
  total: number
  totalMilli: number
}

export function computeReceiptReward({ category, streak }: ReceiptRewardInput): ReceiptReward {
  const baseReward = BASE_REWARD_B3TR
  const streakTenths = streakMultiplierTenths(streak)
  const transportTenths = transportMultiplierTenths(category)
  const total = Math.floor((baseReward * streakTenths * transportTenths) / 100)
  return {
    baseReward,
    streakMultiplier: streakTenths / 10,
    transportMultiplier: transportTenths / 10,
    total,
    totalMilli: total * MILLI_PER_B3TR,
  }
}

// ---------------------------------------------------------------------------------------------
// Fixed rewards (spec 1 §9, spec 2 §9)

export const FIRST_RECEIPT_BONUS_MILLI = 10 * MILLI_PER_B3TR
export const FIRST_STORE_BONUS_MILLI = 3 * MILLI_PER_B3TR
export const STORE_ADDITION_REWARD_MILLI = 10 * MILLI_PER_B3TR
export const REFERRAL_REWARD_MILLI = 15 * MILLI_PER_B3TR

/**
 * The streak a first receipt is paid at: it starts the streak (nextStreak without a previous day
 * gives 1), and the bonus is paid with the first credited receipt, so never with a streak multiplier.
 */
export const FIRST_RECEIPT_STREAK = 1

/**
 * What "Earn up to N B3TR per receipt" may promise: the most one receipt can actually pay (19).
 * A first receipt adds the bonus but is paid at streak 1; a later one can reach the top streak tier
 * but gets no bonus. The larger wins (decision 061): floor(8 x 1.0 x 1.2) + 10 = 19 against
 * floor(8 x 1.5 x 1.2) = 14.
 */
export function maxReceiptRewardB3tr(): number {
  let best = 0
  for (const category of [...TRANSPORT_CATEGORIES, null]) {
    const first = computeReceiptReward({ category, streak: FIRST_RECEIPT_STREAK }).totalMilli + FIRST_RECEIPT_BONUS_MILLI
    const later = computeReceiptReward({ category, streak: STREAK_TIERS[0].days }).totalMilli
    best = Math.max(best, first, later)
  }
  return best / MILLI_PER_B3TR
}

/**
 * What one verified transport receipt pays after the first, in whole B3TR: from no streak (9 =
 * floor(8 x 1.2)) to the top streak tier (14 = floor(8 x 1.5 x 1.2)).
 */
export function transportReceiptRewardRange(): { min: number; max: number } {
  return {
    min: computeReceiptReward({ category: TRANSPORT_CATEGORIES[0], streak: 0 }).total,
    max: computeReceiptReward({ category: TRANSPORT_CATEGORIES[0], streak: STREAK_TIERS[0].days }).total,
  }
}

export interface RewardPreview {
  /** The receipt's reward at the streak it would be paid at. */
  reward: ReceiptReward
  /** The streak after this receipt counts (what the reward used). */
  streak: number
  /** The first-receipt bonus it would add (0 after the first credited receipt). */
  firstReceiptBonusMilli: number
  totalMilli: number
}

/**
 * What the server pays for a receipt accepted now: the same computeReceiptReward that
 * creditReceipt calls, at the streak nextStreak gives for today, plus the first-receipt bonus when
 * no receipt has been credited yet. The scan form shows it before submitting.
 */
export function previewReceiptReward(input: StreakState & { category: string | null; firstReceipt: boolean }): RewardPreview {
  const { streak } = nextStreak(input)
  const reward = computeReceiptReward({ category: input.category, streak })
  const firstReceiptBonusMilli = input.firstReceipt ? FIRST_RECEIPT_BONUS_MILLI : 0
  return { reward, streak, firstReceiptBonusMilli, totalMilli: reward.totalMilli + firstReceiptBonusMilli }
}

/**
 * The ledger description of a receipt's reward: the service read from it, then the bonuses that
 * applied (spec 2 §2: the transaction page shows the text in parentheses when it contains "streak
 * bonus"). "Receipt verified: Uber (streak bonus ×1.2, transport bonus ×1.2)".
 */
export function receiptRewardDescription(
  reward: Pick<ReceiptReward, 'streakMultiplier' | 'transportMultiplier'>,
  storeName?: string | null,
): string {
  const bonuses: string[] = []
  if (reward.streakMultiplier > 1) bonuses.push(`streak bonus ×${reward.streakMultiplier}`)
  if (reward.transportMultiplier > 1) bonuses.push(`transport bonus ×${reward.transportMultiplier}`)
  const name = storeName?.trim() ? `Receipt verified: ${storeName.trim()}` : 'Receipt verified'
  return bonuses.length ? `${name} (${bonuses.join(', ')})` : name
}

// ---------------------------------------------------------------------------------------------
// Sustainability split (decision 007 §7): the user gets the full reward; 30 % of it on top goes to
// the app fund.

export const SUSTAINABILITY_SHARE_PERCENT = 30

export function sustainabilityShareMilli(rewardMilli: number): number {
  if (!Number.isSafeInteger(rewardMilli) || rewardMilli < 0) {
    throw new RangeError(`rewardMilli must be a non-negative integer, got ${rewardMilli}`)
  }
  return Math.floor((rewardMilli * SUSTAINABILITY_SHARE_PERCENT) / 100)
}

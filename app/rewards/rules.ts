// Reward, streak, daily-limit and age-window rules. Pure: plain data in, plain data out, `now`
// passed in. Amounts are whole B3TR where the spec's formulas are whole numbers, and milli-B3TR
// (decision 003) wherever an amount is stored.
import { humanizeKey } from '~/utils/text'
import { MILLI_PER_B3TR } from './money'

// ---------------------------------------------------------------------------------------------
// Categories

export const TRANSPORT_CATEGORIES = [
  'ride_share',
  'public_transit',
  'electric_vehicle',
  'scooter_bike',
] as const

export type TransportCategory = (typeof TRANSPORT_CATEGORIES)[number]

export const CATEGORY_LABELS: Record<TransportCategory, string> = {
  ride_share: 'Rideshare',
  public_transit: 'Public Transit',
  electric_vehicle: 'Electric Vehicle',
  scooter_bike: 'E-Scooter / Bike',
}

export function isTransportCategory(value: unknown): value is TransportCategory {
  return typeof value === 'string' && (TRANSPORT_CATEGORIES as readonly string[]).includes(value)
}

/** What people read for a stored category: its label, else the words of an unknown key ('—' for none). */
export function categoryLabel(category: string | null | undefined): string {
  if (!category) return '—'
  return isTransportCategory(category) ? CATEGORY_LABELS[category] : humanizeKey(category)
}

// ---------------------------------------------------------------------------------------------
// Ledger entry types (the user-earning subset is what "earned" means on every screen)

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

// ---------------------------------------------------------------------------------------------
// Receipt reward (spec 1 §9, decision 100)

/**
 * The base reward of every verified receipt, in whole B3TR (spec 1 §9: "8 B3TR per verified transport
 * receipt"). It does not depend on the amount: the spec's per-category floor(amount x rate) was the
 * old client's estimate, and paying it made cheap transit trips earn least and a larger total read
 * from a photo earn more (decision 100).
 */
export const BASE_REWARD_B3TR = 8

/** Streak tiers, highest first: from `days` consecutive days the reward is multiplied by tenths / 10. */
export const STREAK_TIERS = [
  { days: 7, tenths: 15 },
  { days: 3, tenths: 12 },
] as const

/** Multipliers in tenths (10 = 1.0x) so totals are integer arithmetic. */
export function streakMultiplierTenths(streak: number): number {
  return STREAK_TIERS.find((tier) => streak >= tier.days)?.tenths ?? 10
}

/** The highest streak multiplier (1.5). */
export const MAX_STREAK_MULTIPLIER = STREAK_TIERS[0].tenths / 10

export function transportMultiplierTenths(category: string | null): number {
  return isTransportCategory(category) ? 12 : 10
}

export function streakMultiplier(streak: number): number {
  return streakMultiplierTenths(streak) / 10
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
 * floor(8 x 1.2)) to the top streak tier (14 = floor(8 x 1.5 x 1.2)). The stores' chip shows it.
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

// ---------------------------------------------------------------------------------------------
// UTC days

const DAY_MS = 86_400_000
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/

/** 'YYYY-MM-DD' of the instant in UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** Milliseconds at UTC midnight of a 'YYYY-MM-DD' day, or null if it is not a real calendar day. */
export function parseUtcDay(day: string): number | null {
  const match = DAY_PATTERN.exec(day)
  if (!match) return null
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const ms = Date.UTC(y, m - 1, d)
  const check = new Date(ms)
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null
  return ms
}

function requireDay(day: string, name: string): number {
  const ms = parseUtcDay(day)
  if (ms === null) throw new RangeError(`${name} must be a 'YYYY-MM-DD' day, got '${day}'`)
  return ms
}

export function addUtcDays(day: string, days: number): string {
  return utcDay(new Date(requireDay(day, 'day') + days * DAY_MS))
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((requireDay(to, 'to') - requireDay(from, 'from')) / DAY_MS)
}

// ---------------------------------------------------------------------------------------------
// Streak (decision 007 §15): consecutive UTC days with at least one accepted receipt. The day that
// counts is the day the receipt is accepted (`today`), not its purchase date.

export interface StreakState {
  lastActiveDay: string | null
  currentStreak: number
  today: string
}

export function nextStreak({ lastActiveDay, currentStreak, today }: StreakState): {
  streak: number
  increased: boolean
} {
  requireDay(today, 'today')
  const previous = Math.max(0, currentStreak)
  let streak: number
  if (lastActiveDay === null) {
    streak = 1
  } else {
    const gap = daysBetween(lastActiveDay, today)
    // gap < 0 means the stored day is ahead of the clock (clock skew): keep the streak rather
    // than punish the user for it.
    if (gap <= 0) streak = Math.max(previous, 1)
    else if (gap === 1) streak = previous + 1
    else streak = 1
  }
  return { streak, increased: streak > previous }
}

/**
 * The streak to show: the stored streak is still alive if the last accepted receipt was today or
 * yesterday (today's receipt can still extend it); after a missed day it shows 0.
 */
export function effectiveStreak({ lastActiveDay, currentStreak, today }: StreakState): number {
  if (lastActiveDay === null) return 0
  return daysBetween(lastActiveDay, today) <= 1 ? Math.max(0, currentStreak) : 0
}

// ---------------------------------------------------------------------------------------------
// Streak celebration (spec 1 §4, §9)

export const CELEBRATION_STREAKS = [3, 5, 7, 10, 14, 21, 30] as const

export function shouldCelebrate(streak: number, increased: boolean): boolean {
  return increased && (CELEBRATION_STREAKS as readonly number[]).includes(streak)
}

/**
 * The streak bonus the reward applies, in percent of the base (1.2x -> 20). The celebration shows
 * this number, so it always matches the multiplier on the reward breakdown (decision 061; the
 * spec's separate "10 % per week" text disagreed with the multiplier).
 */
export function streakBonusPercent(streak: number): number {
  return multiplierPercent(streakMultiplier(streak))
}

/** A multiplier as the percentage it adds: 1.2 -> 20, 1.5 -> 50, 1 -> 0. */
export function multiplierPercent(multiplier: number): number {
  return Math.round(multiplier * 100) - 100
}

/** The next multiple of 7 strictly above the streak: 0..6 -> 7, 7..13 -> 14. */
export function nextStreakMilestone(streak: number): number {
  return (Math.floor(Math.max(0, streak) / 7) + 1) * 7
}

// ---------------------------------------------------------------------------------------------
// Daily action limit (decision 003): accepted receipts + store submissions per UTC day.

export const DAILY_ACTION_LIMIT = 3
export const DAILY_LIMIT_TITLE = 'Daily Action Limit Reached'
export const DAILY_LIMIT_MESSAGE =
  "You've reached your limit of 3 actions for today. This includes both receipt scans and store additions. Please come back tomorrow!"

export function dailyActionsLeft(countToday: number): number {
  return Math.max(0, DAILY_ACTION_LIMIT - Math.max(0, countToday))
}

export function isDailyLimitReached(countToday: number): boolean {
  return dailyActionsLeft(countToday) === 0
}

/**
 * ISO bounds of a UTC day; `end` is exclusive (the next midnight), for
 * `created_at >= start AND created_at < end` on ISO-8601 UTC timestamps.
 */
export function utcDayBounds(today: string): { start: string; end: string } {
  const start = requireDay(today, 'today')
  return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS).toISOString() }
}

// ---------------------------------------------------------------------------------------------
// Purchase date window (decision 021)

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
): PurchaseDateCheck {
  if (parseUtcDay(purchaseDate) === null) {
    return { ok: false, code: 'invalid', reason: 'The purchase date is not a valid date.' }
  }
  const age = daysBetween(purchaseDate, utcDay(now))
  if (age < -1) return { ok: false, code: 'future', reason: 'The purchase date is in the future.' }
  if (age > maxAgeDays) {
    return { ok: false, code: 'too_old', reason: `Receipts older than ${maxAgeDays} days are not eligible.` }
  }
  return { ok: true }
}

// Estimated environmental impact and the rewards-page statistics. One definition of the impact
// of a trip, used by every screen: an accepted receipt saves an estimated 5 kg of CO2 and 700 L
// of water (spec 1 §9; docs/decisions/061-consistent-numbers-and-labels.md, which replaces the
// per-screen constants of 020). All of them are estimates.
import { MILLI_PER_B3TR } from '~/rewards/money'
import { isCountedEntry, isUserEarning, type LedgerEntryLike } from '~/rewards/ledger-types'
import { effectiveStreak } from '~/rewards/streaks'
import { addUtcDays, parseUtcDay, utcDay } from '~/utils/calendar'

// ---------------------------------------------------------------------------------------------
// Per accepted receipt (spec 1 §9)

export const CO2_GRAMS_PER_RECEIPT = 5000
export const WATER_LITERS_PER_RECEIPT = 700

/** CO2 saved by `receiptCount` accepted receipts, in grams: the one number every screen shows. */
export function co2GramsForReceipts(receiptCount: number): number {
  return Math.max(0, receiptCount) * CO2_GRAMS_PER_RECEIPT
}

/** Home, profile and Impact Explorer summary. */
export function homeImpact(receiptCount: number): { co2Kg: number; waterLiters: number } {
  const n = Math.max(0, receiptCount)
  return { co2Kg: co2GramsForReceipts(n) / 1000, waterLiters: n * WATER_LITERS_PER_RECEIPT }
}

/** The Achievements screen's "Eco Impact" card: the same CO2, and trees as everywhere (tree equivalents). */
export function achievementsImpact(receiptCount: number): { co2Kg: number; treeEquivalents: number } {
  const grams = co2GramsForReceipts(receiptCount)
  return { co2Kg: grams / 1000, treeEquivalents: treeEquivalents(grams) }
}

// ---------------------------------------------------------------------------------------------
// Units and rounding (issue 32): CO2 is shown in kg and trees as tree equivalents on every screen,
// each rounded DOWN to one decimal (an estimate never claims more), with the same formatter.

/**
 * One "tree equivalent" is the CO2 one tree takes up in a year. The spec says "21.77 g CO2 per tree
 * equivalent"; read literally one receipt would equal ~230 trees. 21.77 kg is the usual figure, so
 * the unit is taken as kg (decision 020). The spec's "2 trees per receipt" on Achievements is
 * dropped for this one measure (decision 061, 2026-11-26).
 */
export const CO2_GRAMS_PER_TREE = 21_770
/**
 * CO2 a typical passenger car emits per mile driven: about 400 g (US EPA, "Greenhouse Gas Emissions
 * from a Typical Passenger Vehicle": about 400 grams of CO2 per mile, 4.6 metric tons per year). The
 * spec's "4600 g per car mile" was the yearly 4.6 t read as grams per mile (issue 40).
 */
export const CO2_GRAMS_PER_CAR_MILE = 400

/** Rounded DOWN to one decimal, so a figure never claims more than the estimate. */
function floorTenth(numerator: number, denominator: number): number {
  return Math.floor((Math.max(0, Math.floor(numerator)) * 10) / denominator) / 10
}

export function treeEquivalents(co2Grams: number): number {
  return floorTenth(co2Grams, CO2_GRAMS_PER_TREE)
}

/** A figure already rounded to a tenth, as shown: '0.4', '2', '1,250.5'. */
// One formatter for the process: toLocaleString with options builds a new Intl.NumberFormat on
// every call, about a tenth of a millisecond each on a page that shows several figures.
const TENTH = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 })

export function formatTenth(value: number): string {
  return TENTH.format(value)
}

/** CO2 as every screen shows it: kg, rounded down to one decimal. 10 000 g -> '10 kg', 500 g -> '0.5 kg'. */
export function formatCo2Grams(co2Grams: number): string {
  return `${formatTenth(floorTenth(co2Grams, 1000))} kg`
}

/** The same for a figure the loaders give in kg. */
export function formatCo2Kg(co2Kg: number): string {
  return formatCo2Grams(Math.round(co2Kg * 1000))
}

/** '0.4 tree equivalents', '1 tree equivalent': the trees figure of every screen. */
export function formatTreeEquivalents(co2Grams: number): string {
  const trees = treeEquivalents(co2Grams)
  return `${formatTenth(trees)} ${trees === 1 ? 'tree equivalent' : 'tree equivalents'}`
}

// ---------------------------------------------------------------------------------------------
// Rewards page (spec 2 §2, §9)

/**
 * co2Saved of one reward-history row: accepted receipts only; stores, achievements and referrals
 * save nothing themselves. A reversed receipt credit (issue 38, a negative entry) takes its saving back.
 */
export function transactionCo2Grams(type: string, amountMilli = 1): number {
  if (type !== 'receipt_verification') return 0
  return amountMilli < 0 ? -CO2_GRAMS_PER_RECEIPT : CO2_GRAMS_PER_RECEIPT
}

export function rewardsEnvironmentalImpact(totalCo2Grams: number): {
  co2Kg: number
  treeEquivalents: number
  carMilesSaved: number
} {
  return {
    co2Kg: floorTenth(totalCo2Grams, 1000),
    treeEquivalents: treeEquivalents(totalCo2Grams),
    carMilesSaved: floorTenth(totalCo2Grams, CO2_GRAMS_PER_CAR_MILE),
  }
}

// ---------------------------------------------------------------------------------------------
// Periods: a period of N days is today (UTC) and the N-1 UTC days before it, so the totals, the
// weekly progress and the per-day chart all cover the same days.

export const REWARD_PERIOD_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const
export type RewardPeriod = keyof typeof REWARD_PERIOD_DAYS
export const DEFAULT_REWARD_PERIOD: RewardPeriod = '30d'

export function parseRewardPeriod(value: string | null | undefined): RewardPeriod {
  return value != null && Object.hasOwn(REWARD_PERIOD_DAYS, value) ? (value as RewardPeriod) : DEFAULT_REWARD_PERIOD
}

function toTime(createdAt: string | Date): number {
  const ms = createdAt instanceof Date ? createdAt.getTime() : Date.parse(createdAt)
  if (Number.isNaN(ms)) throw new RangeError(`Invalid createdAt: ${String(createdAt)}`)
  return ms
}

/** [start, end) in ms: UTC midnight `days - 1` days before today, to the next UTC midnight. */
export function periodBounds(now: Date, days: number): { startMs: number; endMs: number } {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer, got ${days}`)
  const today = utcDay(now)
  return {
    startMs: parseUtcDay(addUtcDays(today, -(days - 1))) as number,
    endMs: parseUtcDay(addUtcDays(today, 1)) as number,
  }
}

function earningEntriesIn(entries: readonly LedgerEntryLike[], bounds: { startMs: number; endMs: number } | null) {
  return entries.filter((entry) => {
    if (!isUserEarning(entry.type) || !isCountedEntry(entry)) return false
    if (bounds === null) return true
    const t = toTime(entry.createdAt)
    return t >= bounds.startMs && t < bounds.endMs
  })
}

// ---------------------------------------------------------------------------------------------
// User stats (spec 2 §3)

export const WEEKLY_GOAL_MILLI = 100 * MILLI_PER_B3TR

export interface UserStatsInput {
  entries: readonly LedgerEntryLike[]
  now: Date
  /** Window for the totals; 'all' (default) is the whole history. Weekly progress is always the last 7 days. */
  period?: RewardPeriod | 'all'
  /** Stored streak state; shown as effectiveStreak (0 after a missed day). */
  lastActiveDay: string | null
  currentStreak: number
  weeklyGoalMilli?: number
}

export interface UserStats {
  /** Sum of user-earning entries (receipts, stores, achievements, referrals); never the fund's share, never claims. */
  totalEarnedMilli: number
  /** Number of those entries ("From N transactions"). */
  totalTransactions: number
  /** Grams. */
  totalCO2Saved: number
  currentStreak: number
  weeklyGoalMilli: number
  weeklyEarnedMilli: number
  /** Whole percent of the goal earned in the last 7 days, rounded down, at most 100. */
  weeklyProgress: number
}

export function computeUserStats({
  entries,
  now,
  period = 'all',
  lastActiveDay,
  currentStreak,
  weeklyGoalMilli = WEEKLY_GOAL_MILLI,
}: UserStatsInput): UserStats {
  if (!Number.isSafeInteger(weeklyGoalMilli) || weeklyGoalMilli <= 0) {
    throw new RangeError(`weeklyGoalMilli must be a positive integer, got ${weeklyGoalMilli}`)
  }
  const inPeriod = earningEntriesIn(entries, period === 'all' ? null : periodBounds(now, REWARD_PERIOD_DAYS[period]))
  const lastWeek = earningEntriesIn(entries, periodBounds(now, 7))
  const weeklyEarnedMilli = lastWeek.reduce((sum, e) => sum + e.amountMilli, 0)
  return {
    totalEarnedMilli: inPeriod.reduce((sum, e) => sum + e.amountMilli, 0),
    totalTransactions: inPeriod.length,
    totalCO2Saved: inPeriod.reduce((sum, e) => sum + transactionCo2Grams(e.type, e.amountMilli), 0),
    currentStreak: effectiveStreak({ lastActiveDay, currentStreak, today: utcDay(now) }),
    weeklyGoalMilli,
    weeklyEarnedMilli,
    weeklyProgress: Math.min(100, Math.max(0, Math.floor((weeklyEarnedMilli * 100) / weeklyGoalMilli))),
  }
}

/** User earnings per UTC day over the period, oldest first, days without earnings as 0. */
export function earningsPerDay(
  entries: readonly LedgerEntryLike[],
  periodDays: number,
  now: Date,
): Array<{ day: string; milli: number }> {
  const bounds = periodBounds(now, periodDays)
  const first = utcDay(new Date(bounds.startMs))
  const byDay = new Map<string, number>()
  for (let i = 0; i < periodDays; i++) byDay.set(addUtcDays(first, i), 0)
  for (const entry of earningEntriesIn(entries, bounds)) {
    const day = utcDay(new Date(toTime(entry.createdAt)))
    byDay.set(day, (byDay.get(day) ?? 0) + entry.amountMilli)
  }
  return [...byDay].map(([day, milli]) => ({ day, milli }))
}

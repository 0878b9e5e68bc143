// Streaks (decision 007 §15): consecutive UTC days with at least one accepted receipt, the
// multiplier they earn and when they are celebrated. Pure.
import { addUtcDays, daysBetween, parseUtcDay, requireUtcDay } from '~/utils/calendar'

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

export function streakMultiplier(streak: number): number {
  return streakMultiplierTenths(streak) / 10
}

// A receipt approved on submission counts for the day it is accepted (`today`), not its purchase
// date; one approved by staff counts for the day it was submitted (countStreakDay).

export interface StreakState {
  lastActiveDay: string | null
  currentStreak: number
  today: string
}

export function nextStreak({ lastActiveDay, currentStreak, today }: StreakState): {
  streak: number
  increased: boolean
} {
  requireUtcDay(today, 'today')
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

/** What the users table keeps of a streak: `currentStreak` consecutive days ending on `lastActiveDay`. */
export interface StreakRecord {
  lastActiveDay: string | null
  currentStreak: number
  bestStreak: number
}

/**
 * Count an accepted receipt for `day`, the UTC day it was submitted, whenever it is accepted (issue
 * 40): a staff approval on Thursday of Monday's receipt counts for Monday. `acceptedDays` are the
 * days of the user's accepted receipts; the stored run counts too (older data, or a streak set
 * without receipts). Returns the new record and `streakOfDay`, the run of days ending on `day`:
 * the streak the receipt is paid at, as an automatic approval is paid at today's streak.
 */
export function countStreakDay(
  record: StreakRecord,
  day: string,
  acceptedDays: readonly string[],
): { record: StreakRecord; streakOfDay: number; increased: boolean } {
  requireUtcDay(day, 'day')
  const days = new Set(acceptedDays.filter((d) => parseUtcDay(d) !== null))
  days.add(day)
  const stored = Math.max(0, record.currentStreak)
  if (record.lastActiveDay !== null && parseUtcDay(record.lastActiveDay) !== null) {
    // Bounded by the days that matter: a stored run longer than the user's history adds nothing new.
    for (let i = 0; i < Math.max(1, stored); i++) days.add(addUtcDays(record.lastActiveDay, -i))
  }
  const runEndingAt = (end: string) => {
    let n = 0
    while (days.has(addUtcDays(end, -n))) n++
    return n
  }
  const sorted = [...days].sort()
  const last = sorted[sorted.length - 1]!
  const current = runEndingAt(last)
  let best = 0
  let run = 0
  for (let i = 0; i < sorted.length; i++) {
    run = i > 0 && daysBetween(sorted[i - 1]!, sorted[i]!) === 1 ? run + 1 : 1
    best = Math.max(best, run)
  }
  // A stored best is never lowered.
  return {
    record: { lastActiveDay: last, currentStreak: current, bestStreak: Math.max(record.bestStreak, best) },
    streakOfDay: runEndingAt(day),
    increased: current > stored,
  }
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

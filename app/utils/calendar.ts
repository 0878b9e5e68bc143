// The UTC calendar: days as 'YYYY-MM-DD', counted and bounded in UTC. Pure.

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

export function requireUtcDay(day: string, name: string): number {
  const ms = parseUtcDay(day)
  if (ms === null) throw new RangeError(`${name} must be a 'YYYY-MM-DD' day, got '${day}'`)
  return ms
}

export function addUtcDays(day: string, days: number): string {
  return utcDay(new Date(requireUtcDay(day, 'day') + days * DAY_MS))
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((requireUtcDay(to, 'to') - requireUtcDay(from, 'from')) / DAY_MS)
}

/**
 * ISO bounds of a UTC day; `end` is exclusive (the next midnight), for
 * `created_at >= start AND created_at < end` on ISO-8601 UTC timestamps.
 */
export function utcDayBounds(today: string): { start: string; end: string } {
  const start = requireUtcDay(today, 'today')
  return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS).toISOString() }
}

/** Seconds from `now` to the next UTC midnight (at least 1): when the day's limits reset. */
export function secondsToUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000))
}

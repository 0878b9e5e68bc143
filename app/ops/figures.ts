/**
 * Pure: the operator's figures (issue 25) from plain rows, shared by /metrics and the /admin page so
 * both show the same numbers. Money stays in integer milli-B3TR.
 */
import type { PayoutStatus, TransactionStatus } from '#db/schema'

export const UNCONFIRMED_PAYOUTS: readonly PayoutStatus[] = ['pending', 'signed', 'sent', 'expired']

/** User credits that make up a balance (the funds' shares and claims are not credits). */
const CREDIT_TYPES = new Set(['receipt_verification', 'store_addition', 'achievement_reward', 'referral_reward', 'admin_action'])

export type LedgerTotals = { creditedMilli: number; claimedMilli: number; paidMilli: number }

/**
 * From `select type, status, sum(amount_milli) group by type, status`: credited is what users earned
 * (failed entries excluded), claimed what they asked to be paid (claims are negative entries; a
 * failed claim went back to the balance), paid the claims confirmed on chain.
 */
export function ledgerTotals(rows: { type: string; status: TransactionStatus; total: number }[]): LedgerTotals {
  const totals = { creditedMilli: 0, claimedMilli: 0, paidMilli: 0 }
  for (const r of rows) {
    if (r.status === 'failed') continue
    if (CREDIT_TYPES.has(r.type) && r.total > 0) totals.creditedMilli += r.total
    if (r.type === 'token_claim') {
      totals.claimedMilli -= r.total
      if (r.status === 'confirmed') totals.paidMilli -= r.total
    }
  }
  return totals
}

/** Seconds since an ISO timestamp (0 for none, never negative: another machine's clock may run ahead). */
export function ageSeconds(oldestIso: string | null | undefined, now: Date): number {
  if (!oldestIso) return 0
  const at = Date.parse(oldestIso)
  return Number.isFinite(at) ? Math.max(0, Math.round((now.getTime() - at) / 1000)) : 0
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1]
}

export type LatencySummary = { count: number; medianMs: number | null; p90Ms: number | null; maxMs: number | null }

export function latencySummary(values: readonly number[]): LatencySummary {
  const clean = values.filter((v) => Number.isFinite(v) && v >= 0)
  return {
    count: clean.length,
    medianMs: percentile(clean, 50),
    p90Ms: percentile(clean, 90),
    maxMs: clean.length ? Math.max(...clean) : null,
  }
}

/** Start of the UTC day of `now`, as stored timestamps are written (ISO, UTC). */
export function startOfUtcDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString()
}

/** An age for people: seconds, minutes, hours and minutes, days and hours ('—' for no number). */
export function formatAge(seconds: number): string {
  if (!(seconds >= 0)) return '—'
  if (seconds < 60) return `${Math.round(seconds)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`
  const days = Math.floor(hours / 24)
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`
}

/** A duration in milliseconds for people: '—' for none, ms below a second, else seconds with one decimal. */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

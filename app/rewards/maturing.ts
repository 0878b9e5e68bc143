/**
 * Photo rewards mature (issue 38, docs/decisions/109-maturing-and-audits.md). Pure: when an
 * automatic photo approval becomes claimable, how often such approvals are sampled for a staff
 * audit, and how a user is told what is still maturing.
 *
 * A credit carries the time from which it counts towards the claimable balance (null: at once);
 * nothing has to run when that time comes: claimable = every counted entry whose time has come.
 */
import { formatB3tr } from './money'

export type MaturingSettings = {
  /** Hours an automatic photo approval waits before it can be claimed; 0: maturing off. */
  holdHours: number
  /** Share (0..1) of automatic photo approvals sampled for a staff audit. */
  auditRate: number
}

const HOUR_MS = 3_600_000

/** When a photo approved automatically at `now` can be claimed; null: at once (maturing off). */
export function photoClaimableAt(now: Date, holdHours: number): Date | null {
  const ms = Math.round(holdHours * HOUR_MS)
  return ms > 0 ? new Date(now.getTime() + ms) : null
}

/** How far the audit rate rises while a wallet's standing rests on thin evidence (decision 109). */
export const THIN_STANDING_AUDIT_FACTOR = 5

/**
 * What a wallet's standing rests on, beyond "established": a verified e-receipt, or staff having
 * looked at two of its receipts (an approval or a cleared audit each), is firm; one staff approval or
 * VeBetter Passport alone is thin (Passport counts a wallet a person after a few rewarded actions in
 * any VeBetter app).
 */
export type EvidenceStrength = 'firm' | 'thin'

export function evidenceStrength(facts: { approvedEReceipt: boolean; staffLooks: number }): EvidenceStrength {
  return facts.approvedEReceipt || facts.staffLooks >= 2 ? 'firm' : 'thin'
}

/** The sampling rate for one automatic photo approval: the base, or five times it (at most 1) on thin evidence. */
export function photoAuditRate(baseRate: number, strength: EvidenceStrength): number {
  const base = Math.min(1, Math.max(0, baseRate))
  return strength === 'thin' ? Math.min(1, base * THIN_STANDING_AUDIT_FACTOR) : base
}

/** `draw` is uniform in [0, 1), from the server's own randomness (never from the request). */
export function sampledForAudit(draw: number, rate: number): boolean {
  return rate > 0 && draw < rate
}

/** What is still maturing, by the time it becomes claimable (earliest first). */
export type MaturingAmount = { claimableAt: string; amountMilli: number }

const DAY_AND_TIME = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })

/** "29 Nov, 14:00 UTC": the same on the server and in every browser. */
export function formatClaimableAt(iso: string): string {
  return `${DAY_AND_TIME.format(new Date(iso))} UTC`
}

/**
 * The line Home and Tokens show (issue 38), or null when nothing matures:
 * "12.0 B3TR maturing: claimable from 29 Nov, 14:00 UTC", or with several times
 * "12.0 B3TR maturing: 9.0 B3TR claimable from 27 Nov, 10:00 UTC, all by 29 Nov, 14:00 UTC".
 */
export function maturingLine(pendingMilli: number, maturing: readonly MaturingAmount[]): string | null {
  const parts = maturing.filter((m) => m.amountMilli > 0)
  if (pendingMilli <= 0 || parts.length === 0) return null
  const first = parts[0]!
  const last = parts[parts.length - 1]!
  const total = `${formatB3tr(pendingMilli)} B3TR maturing`
  if (parts.length === 1) return `${total}: claimable from ${formatClaimableAt(first.claimableAt)}`
  return `${total}: ${formatB3tr(first.amountMilli)} B3TR claimable from ${formatClaimableAt(first.claimableAt)}, all by ${formatClaimableAt(last.claimableAt)}`
}

/** Under the line, once: why a newcomer's photo reward waits (the hold in whole hours where it is whole). */
export function maturingExplained(holdHours: number): string {
  const hours = Number.isInteger(holdHours) ? String(holdHours) : holdHours.toFixed(1)
  return `Photo receipts approved automatically can be claimed ${hours} hours later; verified e-receipts and receipts our team approved, at once.`
}

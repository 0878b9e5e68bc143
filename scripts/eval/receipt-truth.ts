/**
 * The ground truth of a receipt folder (`truth.json`, the dev corpus's format) and the one
 * definition of "right" that bench/ocr.ts and eval/receipts.ts both score with.
 */
import type { StoredAnalysis } from '~/analysis/stored-analysis'

export type Truth = {
  file: string
  vendor: string
  category: string | null
  totalAmount: number
  purchaseDate: string
  expect: 'auto' | 'review' | 'reject'
  render?: { hard?: boolean }
}

export type Score = {
  vendor: boolean
  category: boolean
  total: boolean
  date: boolean
  /** Approved without a human. */
  auto: boolean
  /** Approved without a human, but not a good transport receipt or read wrong. */
  wrongAuto: boolean
}

/** A refused or failed analysis (null) scores as wrong on every field and not approved. */
export function scoreAnalysis(a: StoredAnalysis | null, t: Truth): Score {
  // A truth.json of real receipts may hold null where nothing is to be read (corpus-real): then nothing must be read.
  const truthVendor = (t.vendor as string | null) ?? ''
  const truthTotal = t.totalAmount as number | null
  const vendor = (a?.storeName ?? '').trim().toLowerCase() === truthVendor.trim().toLowerCase()
  const category = (a?.category ?? null) === t.category
  const total = truthTotal === null ? a?.totalAmount == null : a?.totalAmount != null && Math.abs(a.totalAmount - truthTotal) < 0.005
  const date = (a?.purchaseDate ?? null) === ((t.purchaseDate as string | null) ?? null)
  const auto = Boolean(a && a.isAcceptable && !a.needsManualReview)
  const wrongAuto = auto && (t.expect !== 'auto' || !category || !total || !date)
  return { vendor, category, total, date, auto, wrongAuto }
}

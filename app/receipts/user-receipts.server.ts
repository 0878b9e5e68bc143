/** A user's own receipts: the list and one receipt's page, never another user's. */
import { z } from 'zod'
import type { DB } from '#db/db.server'
import type { ReceiptRow } from '#db/schema'
import type { ReceiptReward } from '~/rewards/rules'
import { parseReviewReasons } from './stored-analysis'

export type ReceiptSummary = {
  id: number
  storeName: string | null
  category: string | null
  amount: number | null
  purchaseDate: string | null
  status: ReceiptRow['status']
  rewardMilli: number | null
  rejectReason: string | null
  createdAt: string
  /** "uber.com" for a verified e-receipt (issue 21), null for a photo. */
  verifiedSender: string | null
}

function toSummary(r: Pick<ReceiptRow, 'verified_sender' | 'id' | 'store_name' | 'category' | 'amount_cents' | 'user_amount_cents' | 'purchase_date' | 'user_purchase_date' | 'user_category' | 'status' | 'reward_milli' | 'reject_reason' | 'created_at'>): ReceiptSummary {
  const cents = r.amount_cents ?? r.user_amount_cents
  return {
    id: r.id,
    storeName: r.store_name,
    category: r.category ?? r.user_category,
    amount: cents === null ? null : cents / 100,
    purchaseDate: r.purchase_date ?? r.user_purchase_date,
    status: r.status,
    rewardMilli: r.reward_milli,
    rejectReason: r.reject_reason,
    createdAt: r.created_at,
    verifiedSender: r.verified_sender,
  }
}

const SUMMARY_COLUMNS = ['verified_sender', 'id', 'store_name', 'category', 'amount_cents', 'user_amount_cents', 'purchase_date', 'user_purchase_date', 'user_category', 'status', 'reward_milli', 'reject_reason', 'created_at'] as const

export async function listUserReceipts(db: DB, userId: number) {
  const rows = await db.selectFrom('receipts').select(SUMMARY_COLUMNS).where('user_id', '=', userId).orderBy('id', 'desc').execute()
  return rows.map(toSummary)
}

export async function getUserReceipt(db: DB, userId: number, receiptId: number) {
  const row = await db
    .selectFrom('receipts')
    .select([...SUMMARY_COLUMNS, 'reward_details_json', 'review_reasons_json'])
    .where('id', '=', receiptId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return null
  return {
    ...toSummary(row),
    rewardDetails: row.reward_details_json ? parseRewardDetails(row.reward_details_json) : null,
    reviewReasons: parseReviewReasons(row.review_reasons_json),
  }
}


const reasonsSchema = z.array(z.string())
const rewardDetailsSchema: z.ZodType<ReceiptReward> = z.object({
  baseReward: z.number(),
  streakMultiplier: z.number(),
  transportMultiplier: z.number(),
  total: z.number(),
  totalMilli: z.number(),
})

function parseReasons(json: string): string[] {
  const parsed = reasonsSchema.safeParse(JSON.parse(json))
  return parsed.success ? parsed.data : []
}

function parseRewardDetails(json: string): ReceiptReward | null {
  const parsed = rewardDetailsSchema.safeParse(JSON.parse(json))
  return parsed.success ? parsed.data : null
}

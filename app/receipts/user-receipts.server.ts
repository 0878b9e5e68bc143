/** A user's own receipts: the list and one receipt's page, never another user's. */
import { sql } from 'kysely'
import { z } from 'zod'
import type { DB } from '#db/db.server'
import type { ReceiptRow } from '#db/schema'
import type { ReceiptReward } from '~/rewards/receipt-reward'
import { parseReviewReasons, readStoredAnalysis } from '~/analysis/stored-analysis'
import { makeThumbnail } from '~/ocr/thumbnail.server'

export type ReceiptSummary = {
  id: number
  storeName: string | null
  category: string | null
  amount: number | null
  /** ISO 4217 code the amount is shown in ('KRW'), null when the receipt named none: never converted. */
  currency: string | null
  purchaseDate: string | null
  status: ReceiptRow['status']
  rewardMilli: number | null
  rejectReason: string | null
  createdAt: string
  /** "uber.com" for a verified e-receipt (issue 21), null for a photo. */
  verifiedSender: string | null
}

function toSummary(r: Pick<ReceiptRow, 'verified_sender' | 'id' | 'store_name' | 'category' | 'amount_cents' | 'user_amount_cents' | 'purchase_date' | 'user_purchase_date' | 'user_category' | 'status' | 'reward_milli' | 'reject_reason' | 'created_at' | 'analysis_json'>): ReceiptSummary {
  const cents = r.amount_cents ?? r.user_amount_cents
  return {
    id: r.id,
    storeName: r.store_name,
    category: r.category ?? r.user_category,
    amount: cents === null ? null : cents / 100,
    currency: readStoredAnalysis(r.analysis_json).currency ?? null,
    purchaseDate: r.purchase_date ?? r.user_purchase_date,
    status: r.status,
    rewardMilli: r.reward_milli,
    rejectReason: r.reject_reason,
    createdAt: r.created_at,
    verifiedSender: r.verified_sender,
  }
}

const SUMMARY_COLUMNS = ['verified_sender', 'id', 'store_name', 'category', 'amount_cents', 'user_amount_cents', 'purchase_date', 'user_purchase_date', 'user_category', 'status', 'reward_milli', 'reject_reason', 'created_at', 'analysis_json'] as const

export async function listUserReceipts(db: DB, userId: number) {
  const rows = await db.selectFrom('receipts').select(SUMMARY_COLUMNS).where('user_id', '=', userId).orderBy('id', 'desc').execute()
  return rows.map(toSummary)
}

/** One page of the user's receipts, newest first: `before` is the last id of the previous page. */
export async function listUserReceiptsPage(db: DB, userId: number, opts: { before: number | null; limit: number }) {
  let query = db
    .selectFrom('receipts')
    .select([...SUMMARY_COLUMNS, sql<number>`case when image is not null and image_mime like 'image/%' then 1 else 0 end`.as('has_image')])
    .where('user_id', '=', userId)
  if (opts.before !== null) query = query.where('id', '<', opts.before)
  const rows = await query.orderBy('id', 'desc').limit(opts.limit + 1).execute()
  const page = rows.slice(0, opts.limit)
  return {
    receipts: page.map((r) => ({ ...toSummary(r), hasImage: Number(r.has_image) === 1 })),
    nextBefore: rows.length > opts.limit ? page[page.length - 1]!.id : null,
  }
}

/**
 * The thumbnail of one of the user's own receipt photos; null for another user's receipt, an
 * e-receipt or a photo that cannot be decoded. Made from the photo once and kept (issue 38).
 */
export async function getUserReceiptThumbnail(db: DB, userId: number, receiptId: number): Promise<Buffer | null> {
  const row = await db
    .selectFrom('receipts')
    .select(['thumbnail', 'image_mime'])
    .where('id', '=', receiptId)
    .where('user_id', '=', userId)
    .where('image', 'is not', null)
    .executeTakeFirst()
  if (!row || !row.image_mime?.startsWith('image/')) return null
  if (row.thumbnail) return row.thumbnail
  const photo = await db.selectFrom('receipts').select('image').where('id', '=', receiptId).executeTakeFirst()
  const thumbnail = photo?.image ? await makeThumbnail(photo.image) : null
  if (thumbnail) await db.updateTable('receipts').set({ thumbnail }).where('id', '=', receiptId).execute()
  return thumbnail
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

/** When the receipt's reward can be claimed, while it still matures (issue 38); null: claimable (or none). */
export async function receiptClaimableAt(db: DB, userId: number, receiptId: number, now = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom('transactions')
    .select('claimable_at')
    .where('idempotency_key', '=', `receipt:${receiptId}`)
    .where('user_id', '=', userId)
    .where('claimable_at', '>', now.toISOString())
    .executeTakeFirst()
  return row?.claimable_at ?? null
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

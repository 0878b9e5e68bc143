import { creditAchievementRewards } from '../../app/engagement/engagement.server'
import type { Kysely } from 'kysely'
import { recordEntry } from '../../app/rewards/ledger.server'
import type { Database } from '../../db/schema'
import { receiptRow } from './receipt-rows'

export const REAL_HASH = '0x' + 'c0ffee00'.repeat(8)

const noRefs = { store_submission_id: null, referral_id: null }

/**
 * What the receipts code leaves behind for an accepted receipt: an approved receipt row and its
 * receipt_verification ledger entry (key `receipt:<id>`). Inserted directly, no OCR involved.
 */
export async function addApprovedReceipt(
  db: Kysely<Database>,
  userId: number,
  opts: {
    storeName?: string
    category?: string
    amountCents?: number
    rewardMilli?: number
    confidence?: number
    txHash?: string | null
    createdAt?: Date
  } = {},
) {
  const createdAt = (opts.createdAt ?? new Date()).toISOString()
  const rewardMilli = opts.rewardMilli ?? 8000
  const storeName = opts.storeName ?? 'Uber'
  const receipt = await db
    .insertInto('receipts')
    .values(
      receiptRow({
        user_id: userId,
        store_name: storeName,
        category: opts.category ?? 'ride_share',
        amount_cents: opts.amountCents ?? 2500,
        purchase_date: createdAt.slice(0, 10),
        analysis_json: JSON.stringify({ storeName, confidence: opts.confidence ?? 0.93 }),
        status: 'approved',
        reward_milli: rewardMilli,
        created_at: createdAt,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  await recordEntry(db, {
    ...noRefs,
    user_id: userId,
    type: 'receipt_verification',
    amount_milli: rewardMilli,
    description: `Receipt verified: ${storeName}`,
    status: 'completed',
    tx_hash: opts.txHash ?? null,
    idempotency_key: `receipt:${receipt.id}`,
    receipt_id: receipt.id,
    created_at: createdAt,
  })
  return receipt.id
}

/** A store addition recorded directly in the ledger (10 B3TR, as an approved store submission pays). */
export async function addStoreAddition(db: Kysely<Database>, userId: number, createdAt = new Date()) {
  await recordEntry(db, {
    ...noRefs,
    user_id: userId,
    type: 'store_addition',
    amount_milli: 10_000,
    description: 'Store added: Green Wheels Co-op',
    status: 'completed',
    tx_hash: null,
    idempotency_key: `store:${userId}:${createdAt.toISOString()}`,
    receipt_id: null,
    created_at: createdAt.toISOString(),
  })
}

/** The first-receipt bonus exactly as the receipts code writes it. */
export async function addFirstReceiptBonus(db: Kysely<Database>, userId: number, createdAt = new Date()) {
  return recordEntry(db, {
    ...noRefs,
    user_id: userId,
    type: 'achievement_reward',
    amount_milli: 10_000,
    description: 'Achievement Reward: first_receipt',
    status: 'completed',
    tx_hash: null,
    idempotency_key: `achievement:${userId}:first_receipt`,
    receipt_id: null,
    created_at: createdAt.toISOString(),
  })
}

export async function addPendingClaim(db: Kysely<Database>, userId: number, amountMilli: number) {
  await recordEntry(db, {
    ...noRefs,
    user_id: userId,
    type: 'token_claim',
    amount_milli: -Math.abs(amountMilli),
    description: 'Claim all tokens',
    status: 'pending',
    tx_hash: null,
    idempotency_key: `claim:${userId}:1`,
    receipt_id: null,
    created_at: new Date().toISOString(),
  })
}

export async function setStreak(db: Kysely<Database>, userId: number, streak: number, lastDay = new Date().toISOString().slice(0, 10)) {
  await db
    .updateTable('users')
    .set({ current_streak: streak, best_streak: streak, last_streak_day: lastDay })
    .where('id', '=', userId)
    .execute()
}

/**
 * The scenario of issue 4: five approved receipts today (the fifth with a real on-chain hash), a
 * 3-day streak and a store addition 40 days ago. The achievement rewards those events earn are
 * credited the way the receipt and store-approval transactions do it.
 */
export async function seedFiveReceiptUser(db: Kysely<Database>, userId: number, now = new Date()) {
  const stores = ['Uber', 'Lyft', 'MTA / OMNY', 'Tesla', 'Lime']
  const categories = ['ride_share', 'ride_share', 'public_transit', 'electric_vehicle', 'scooter_bike']
  for (let i = 0; i < 5; i++) {
    await addApprovedReceipt(db, userId, {
      storeName: stores[i],
      category: categories[i],
      txHash: i === 4 ? REAL_HASH : null,
      createdAt: new Date(now.getTime() - (5 - i) * 60_000),
    })
  }
  await addStoreAddition(db, userId, new Date(now.getTime() - 40 * 86_400_000))
  await setStreak(db, userId, 3)
  await db.transaction().execute((trx) => creditAchievementRewards(trx, userId, now))
}

import type { Kysely } from 'kysely'
import type { Database } from '#db/schema'
import { utcDay } from '~/utils/calendar'
import { fingerprintsMatch } from '~/ocr/fingerprint.server'
import type { ReviewSignalsView } from './signals'

// Issue 10: one receipt pays once across all wallets. A receipt is identified by its content —
// the vendor, total and date the server read, and the trip / order number when it prints one —
// and by a fingerprint of the photo; a new wallet, or a wave of accounts invited by one person,
// gets a closer look. Everything here reads the database in the caller's transaction.

type Executor = Kysely<Database>

export type ReceiptContent = {
  storeName: string | null
  amountCents: number | null
  purchaseDate: string | null
  referenceNumber: string | null
}

/** `verified`: a verified e-receipt (its signature is the sender's), as opposed to a photo. */
export type SameReceipt = { id: number; userId: number; status: string; verified: boolean }

/**
 * Whether this user already sent the trip of this printed minute ("Uber:2026-07-12 15:06"): a
 * receipt sent again with a tip added (issue 37). Per user only: many riders start trips each minute.
 */
export async function sameTripMomentOfUser(db: Executor, userId: number, tripMoment: string | null | undefined): Promise<boolean> {
  if (!tripMoment) return false
  const row = await db
    .selectFrom('receipts')
    .select('id')
    .where('user_id', '=', userId)
    .where('trip_moment', '=', tripMoment)
    .where('status', '!=', 'rejected')
    .executeTakeFirst()
  return !!row
}

/** Whether these exact bytes (their sha256) are already a receipt, anyone's. */
export async function sameImageSubmitted(db: Executor, imageHash: string): Promise<boolean> {
  return !!(await db.selectFrom('receipts').select('id').where('image_hash', '=', imageHash).executeTakeFirst())
}

/**
 * Receipts already accepted (approved or waiting for review, by anyone) for the same trip: same
 * vendor and either the same total and date or the same printed number. Two receipts that both
 * print a number and the numbers differ are two trips (a return ticket costs the same).
 */
export async function findSameReceipts(db: Executor, content: ReceiptContent): Promise<SameReceipt[]> {
  const { storeName, amountCents, purchaseDate, referenceNumber } = content
  if (!storeName) return []
  const byTotalAndDate = amountCents !== null && purchaseDate !== null
  if (!byTotalAndDate && !referenceNumber) return []
  const rows = await db
    .selectFrom('receipts')
    .select(['id', 'user_id', 'status', 'reference_number', 'amount_cents', 'purchase_date', 'verified_sender'])
    .where('store_name', '=', storeName)
    .where('status', '!=', 'rejected')
    .where((eb) => {
      const either = []
      if (byTotalAndDate) either.push(eb.and([eb('amount_cents', '=', amountCents), eb('purchase_date', '=', purchaseDate)]))
      if (referenceNumber) either.push(eb('reference_number', '=', referenceNumber))
      return eb.or(either)
    })
    // Oldest first: the receipt named as the same one from another account is the original, on every database.
    .orderBy('id', 'asc')
    .execute()
  return rows
    .filter((r) => !(referenceNumber && r.reference_number && r.reference_number !== referenceNumber))
    .map((r) => ({ id: r.id, userId: r.user_id, status: r.status, verified: r.verified_sender !== null }))
}

/** What the admin sees on a review entry (signals.ts words it), and what the verdict weighs. */
export type ReviewSignals = ReviewSignalsView

export async function collectReviewSignals(
  db: Executor,
  input: { userId: number; now: Date; fingerprint: string | null; amountCents: number | null; sameReceipts: SameReceipt[] },
): Promise<ReviewSignals> {
  const user = await db.selectFrom('users').select(['created_at', 'referred_by_user_id']).where('id', '=', input.userId).executeTakeFirstOrThrow()
  const dayStart = `${utcDay(input.now)}T00:00:00.000Z`
  let referredBySameCodeToday = 0
  let inviteeAutoApprovalsToday = 0
  if (user.referred_by_user_id !== null) {
    const invited = await db
      .selectFrom('referrals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('referrer_user_id', '=', user.referred_by_user_id)
      .where('created_at', '>=', dayStart)
      .executeTakeFirstOrThrow()
    referredBySameCodeToday = Number(invited.n)
    const approved = await db
      .selectFrom('receipts')
      .innerJoin('users', 'users.id', 'receipts.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('users.referred_by_user_id', '=', user.referred_by_user_id)
      .where('receipts.status', '=', 'approved')
      .where('receipts.reviewed_by_user_id', 'is', null)
      .where('receipts.created_at', '>=', dayStart)
      .executeTakeFirstOrThrow()
    inviteeAutoApprovalsToday = Number(approved.n)
  }
  return {
    walletAgeDays: Math.max(0, Math.floor((input.now.getTime() - Date.parse(user.created_at)) / 86_400_000)),
    referredByUserId: user.referred_by_user_id,
    referredBySameCodeToday,
    inviteeAutoApprovalsToday,
    nearDuplicateOf: await nearDuplicate(db, input.fingerprint, input.amountCents, input.now),
    sameReceiptFromOtherAccount: input.sameReceipts.find((r) => r.userId !== input.userId)?.id ?? null,
  }
}

/**
 * A photo close to an earlier one with the same total (either as read or as entered), from any
 * account, in the last 60 days. Receipts of one vendor share a template, so a close picture alone
 * is not enough: a re-photographed or re-saved receipt also reads the same total.
 */
async function nearDuplicate(db: Executor, fingerprint: string | null, amountCents: number | null, now: Date): Promise<number | null> {
  if (!fingerprint) return null
  let query = db
    .selectFrom('receipts')
    .select(['id', 'image_phash'])
    .where('created_at', '>=', new Date(now.getTime() - 60 * 86_400_000).toISOString())
    .where('image_phash', 'is not', null)
  if (amountCents !== null) query = query.where((eb) => eb.or([eb('amount_cents', '=', amountCents), eb('user_amount_cents', '=', amountCents)]))
  // Oldest first: a copy of a copy names the original, on every database (PostgreSQL has no natural order).
  const recent = await query.orderBy('id', 'asc').execute()
  return recent.find((r) => fingerprintsMatch(r.image_phash!, fingerprint))?.id ?? null
}

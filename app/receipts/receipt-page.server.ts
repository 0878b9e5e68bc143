/**
 * One of the user's receipts as its page shows it (issue 40): while it waits for staff, why (worked
 * out now, wait-reasons.ts) and what approval will credit (approveReceipt's own sum, as things stand).
 */
import type { DB } from '#db/db.server'
import { getApprovalPromise } from './reward-preview.server'
import type { PassportCheckView } from './passport-signals'
import { parseSignals } from './signals'
import { getStanding } from './standing.server'
import { getUserReceipt } from './user-receipts.server'
import { waitReasons } from './wait-reasons'

export async function getReceiptPage(db: DB, userId: number, receiptId: number) {
  const receipt = await getUserReceipt(db, userId, receiptId)
  if (!receipt || receipt.status !== 'pending_review') return receipt && { ...receipt, approvalPromise: null }
  const row = await db
    .selectFrom('receipts')
    .select(['user_category', 'category', 'review_signals_json'])
    .where('id', '=', receiptId)
    .executeTakeFirstOrThrow()
  const [standing, approvalPromise] = await Promise.all([
    getStanding(db, userId, passportSeenBy(row.review_signals_json)),
    getApprovalPromise(db, userId, { id: receipt.id, createdAt: receipt.createdAt, category: row.user_category ?? row.category }),
  ])
  return { ...receipt, reviewReasons: waitReasons({ reasons: receipt.reviewReasons, waitsForStanding: false, standing }), approvalPromise }
}

/** What VeBetter Passport said when the receipt was sent (kept with its signals): no node call on a page view. */
function passportSeenBy(signalsJson: string | null): PassportCheckView | null {
  const passport = (parseSignals(signalsJson) as { passport?: PassportCheckView } | null)?.passport
  return passport && typeof passport === 'object' && 'ok' in passport ? passport : null
}

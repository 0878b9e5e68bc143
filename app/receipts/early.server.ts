import type { DB } from '#db/db.server'
import { countActionsToday } from '~/rewards/daily-limit.server'
import { checkPurchaseDate } from '~/receipts/age-window'
import { DAILY_ACTION_LIMIT, DAILY_LIMIT_MESSAGE, DAILY_LIMIT_TITLE } from '~/rewards/daily-limit'
import { ReceiptRefusal } from '~/utils/receipt-refusal'
import { findSameReceipts } from './fraud.server'
import { receiptContent, submissionRefusals } from './receipts.server'
import { eReceiptFacts, type StoredAnalysis } from '../analysis/stored-analysis'
import { eReceiptRefusal } from '~/receipts/email-keys.server'
import { MAILBOX_TAKEN_MESSAGE } from '~/ereceipts/errors'

// Issue 10, "refuse early": what would refuse a receipt is told on the analysis step, not after the
// user has filled in the form; at the daily limit no analysis is run at all. The submission still
// checks everything again (receipts.server.ts submitReceipt).

export async function dailyLimitRefusal(db: DB, userId: number, now = new Date()): Promise<ReceiptRefusal | null> {
  if ((await countActionsToday(db, userId, now)) < DAILY_ACTION_LIMIT) return null
  return new ReceiptRefusal('daily_limit', 429, DAILY_LIMIT_MESSAGE, { title: DAILY_LIMIT_TITLE })
}

/** After the analysis: the same image or trip from this account, or a date outside the window. */
export async function analysisRefusal(
  db: DB,
  input: { userId: number; imageHash: string; analysis: StoredAnalysis; maxAgeDays: number; now?: Date },
): Promise<ReceiptRefusal | null> {
  const now = input.now ?? new Date()
  const limit = await dailyLimitRefusal(db, input.userId, now)
  if (limit) return limit
  const sameImage = await db.selectFrom('receipts').select('id').where('image_hash', '=', input.imageHash).executeTakeFirst()
  const sameTrip = (await findSameReceipts(db, receiptContent(input.analysis))).some((r) => r.userId === input.userId)
  if (sameImage || sameTrip) return submissionRefusals.duplicate()
  const ereceipt = eReceiptFacts(input.analysis)
  const claimed = ereceipt ? await eReceiptRefusal(db, input.userId, ereceipt) : null
  if (claimed === 'duplicate') return submissionRefusals.duplicate()
  if (claimed === 'mailbox') return submissionRefusals.mailbox(MAILBOX_TAKEN_MESSAGE)
  if (input.analysis.purchaseDate) {
    const window = checkPurchaseDate(input.analysis.purchaseDate, now, input.maxAgeDays)
    if (!window.ok) return new ReceiptRefusal(window.code, 400, window.reason, { title: 'Not eligible' })
  }
  return null
}

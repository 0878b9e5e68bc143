/**
 * A forwarded e-mail (SMTP listener or the provider's webhook) → a receipt of the owner of the
 * forwarding address it was sent to, through the same limits, analysis and submission as an upload.
 */
import type { DB } from '#db/db.server'
import { getPassportCheck } from '~/chain/passport.server'
import { EReceiptError } from '~/ereceipts/errors'
import { ReceiptRefusal } from '~/utils/receipt-refusal'
import { userForInboundAddress } from '~/ereceipts/inbound.server'
import { looksLikeEmail } from '~/ereceipts/message.server'
import { sniffImageFormat } from '~/ocr/photo.server'
import { utcDay } from '~/utils/calendar'
import { getEnv } from '~/utils/env.server'
import { checkRateLimits, rateLimits, tooManyRequestsMessage } from '~/utils/rate-limit.server'
import { analyzeAndStore } from '../analysis/analyses.server'
import { dailyLimitRefusal } from './early.server'
import { submitReceipt, type SubmitResult } from './receipts.server'
import type { StoredAnalysis } from '../analysis/stored-analysis'
import { toCents } from './decision'

export type InboundResult =
  | { ok: true; userId: number; receiptId: number; status: 'approved' | 'pending_review' }
  | { ok: false; status: number; error: string; rateLimited?: true }

const NO_RECIPIENT = 'This message is not addressed to a ReCircle forwarding address.'

/** Credit a forwarded e-mail to the owner of the first known recipient address. */
export async function receiveForwardedEmail(db: DB, input: { recipients: string[]; raw: Buffer; now?: Date }): Promise<InboundResult> {
  let userId: number | null = null
  for (const recipient of input.recipients) {
    userId = await userForInboundAddress(db, recipient)
    if (userId !== null) break
  }
  if (userId === null) return { ok: false, status: 404, error: NO_RECIPIENT }
  const result = await receiveFor(db, userId, input)
  // The user did not watch this happen: Home tells them once (issue 32). A flood of refusals is
  // bounded by the analysis rate limit, which refuses before anything is recorded past it.
  if (result.ok || !result.rateLimited) {
    await db
      .insertInto('forwarded_outcomes')
      .values({
        user_id: userId,
        receipt_id: result.ok ? result.receiptId : null,
        outcome: result.ok ? result.status : 'refused',
        message: result.ok ? null : result.error,
        created_at: (input.now ?? new Date()).toISOString(),
      })
      .execute()
  }
  return result
}

async function receiveFor(db: DB, userId: number, input: { raw: Buffer; now?: Date }): Promise<InboundResult> {
  if (sniffImageFormat(input.raw) !== null || !looksLikeEmail(input.raw)) return { ok: false, status: 400, error: new EReceiptError('malformed').message }
  const limit = await dailyLimitRefusal(db, userId, input.now)
  if (limit) return { ok: false, status: 429, error: limit.message }
  // Forwarded mail is analysed like an upload, so it counts against the same per-user limit.
  const rate = await checkRateLimits(db, [rateLimits.analysisByUser(userId)], input.now)
  if (!rate.ok) return { ok: false, status: 429, error: tooManyRequestsMessage(rate.retryAfterSeconds), rateLimited: true }
  let stored: Awaited<ReturnType<typeof analyzeAndStore>>
  try {
    stored = await analyzeAndStore(db, { userId, image: input.raw, analyze: notAPhoto, now: input.now })
  } catch (error) {
    if (error instanceof ReceiptRefusal) return { ok: false, status: error.status, error: error.message }
    throw error
  }
  const result: SubmitResult = await submitReceipt(db, {
    userId,
    analysisId: stored.id,
    maxAgeDays: getEnv().RECEIPT_MAX_AGE_DAYS,
    inviteeAutoApprovalsPerDay: getEnv().INVITEE_AUTO_APPROVALS_PER_DAY,
    passport: getPassportCheck(),
    now: input.now,
    values: valuesFromAnalysis(stored.analysis, input.now ?? new Date()),
  })
  if (!result.ok) return { ok: false, status: result.status, error: result.error }
  return { ok: true, userId, receiptId: result.receiptId, status: result.status }
}

/** A forward has no form: the user's values are what the server read (nothing is read for them). */
function valuesFromAnalysis(analysis: StoredAnalysis, now: Date) {
  return {
    category: analysis.category ?? 'ride_share',
    amountCents: toCents(analysis.totalAmount) ?? 0,
    purchaseDate: analysis.purchaseDate ?? utcDay(now),
    serviceId: null,
  }
}

/** Forwarded mail is never a photo: analyzeAndStore reads e-mails itself and refuses anything else. */
const notAPhoto = async (): Promise<StoredAnalysis> => {
  throw new EReceiptError('malformed')
}

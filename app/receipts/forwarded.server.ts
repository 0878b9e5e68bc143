/**
 * A forwarded e-mail (SMTP listener or the provider's webhook) → a receipt of the owner of the
 * forwarding address it was sent to, through the one intake (intake.server.ts) like an upload: the
 * owner's analysis rate limit and daily limit before anything is read, then the read, the early
 * refusals and the submission.
 */
import type { DB } from '#db/db.server'
import type { StoredAnalysis } from '~/analysis/stored-analysis'
import { userForInboundAddress } from '~/ereceipts/inbound.server'
import { utcDay } from '~/utils/calendar'
import { Refusal, refused } from '~/utils/refusal'
import { toCents } from './decision'
import { forwardAsker, submitAnalysis, takeIn } from './intake.server'

export type InboundResult =
  | { ok: true; userId: number; receiptId: number; status: 'approved' | 'pending_review' }
  /** `retryAfter`: a temporary refusal (rate limit, DNS): the sender should try again later (SMTP 4xx). */
  | { ok: false; status: number; error: string; retryAfter?: number }

const NO_RECIPIENT = 'This message is not addressed to a ReCircle forwarding address.'

/** Credit a forwarded e-mail to the owner of the first known recipient address. */
export async function receiveForwardedEmail(db: DB, input: { recipients: string[]; raw: Buffer; now?: Date }): Promise<InboundResult> {
  let userId: number | null = null
  for (const recipient of input.recipients) {
    userId = await userForInboundAddress(db, recipient)
    if (userId !== null) break
  }
  if (userId === null) return refused(new Refusal('no_recipient', 404, NO_RECIPIENT))
  const now = input.now ?? new Date()
  const result = await receiveFor(db, userId, input.raw, now)
  // The user did not watch this happen: Home tells them once (issue 32), and a refusal at most once
  // per kind and UTC day however many mails were refused (issue 36). A temporary refusal is retried
  // by the sender, so it is not news.
  if (result.ok) await recordOutcome(db, { userId, receiptId: result.receiptId, outcome: result.status, now })
  else if (result.refusal.retryAfter === undefined) {
    await recordOutcome(db, { userId, outcome: 'refused', message: result.refusal.message, refusalKey: `${result.refusal.code}:${utcDay(now)}`, now })
  }
  if (result.ok) return { ok: true, userId, receiptId: result.receiptId, status: result.status }
  const { refusal } = result
  return { ...refused(refusal), ...(refusal.retryAfter !== undefined ? { retryAfter: refusal.retryAfter } : {}) }
}

type Received = { ok: true; receiptId: number; status: 'approved' | 'pending_review' } | { ok: false; refusal: Refusal }

async function receiveFor(db: DB, userId: number, raw: Buffer, now: Date): Promise<Received> {
  try {
    const asker = forwardAsker(userId, now)
    const intake = await takeIn(db, asker, raw)
    if (intake.refusal) return { ok: false, refusal: intake.refusal }
    const result = await submitAnalysis(db, { userId, analysisId: intake.id, now, values: valuesFromAnalysis(intake.analysis, now) })
    // The submission's own refusals (what the intake did not catch first) are one kind per status.
    if (!result.ok) return { ok: false, refusal: new Refusal(`submission_${result.status}`, result.status, result.error) }
    return { ok: true, receiptId: result.receiptId, status: result.status }
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, refusal: error }
    throw error
  }
}

async function recordOutcome(
  db: DB,
  input: { userId: number; receiptId?: number; outcome: 'approved' | 'pending_review' | 'refused'; message?: string; refusalKey?: string; now: Date },
) {
  await db
    .insertInto('forwarded_outcomes')
    .values({
      user_id: input.userId,
      receipt_id: input.receiptId ?? null,
      outcome: input.outcome,
      message: input.message ?? null,
      refusal_key: input.refusalKey ?? null,
      created_at: input.now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['user_id', 'refusal_key']).doNothing())
    .execute()
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

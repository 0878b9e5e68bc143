/**
 * A forwarded e-mail (SMTP listener or the provider's webhook) → a receipt of the owner of the
 * forwarding address it was sent to, through the one intake (intake.server.ts) like an upload: the
 * owner's analysis rate limit, then the daily limit, before anything is read as a receipt, then the
 * read, the early refusals and the submission.
 *
 * Issue 39: a mail provider's forwarding confirmation (Gmail's code and link, sent before it
 * forwards anything) is no receipt. It counts against the owner's analysis rate limit (it is read),
 * never against the daily limit or the submission; verified, it is kept for its owner to see
 * (forwarding-confirmations.server.ts); forged, it is refused. An inline forward is read like a
 * photo (analysis/inline-forward.server.ts), and the sender is told that automatic forwarding pays
 * at once.
 */
import type { DB } from '#db/db.server'
import { eReceiptDefaults } from '~/analysis/email-analysis.server'
import { ANALYSIS_TIMEOUT_MS } from '~/analysis/readers.server'
import type { StoredAnalysis } from '~/analysis/stored-analysis'
import { EReceiptError } from '~/ereceipts/errors'
import { readForwardingConfirmation } from '~/ereceipts/forwarding-confirmation.server'
import { getInboundAddress, inboundDomain, userForInboundAddress } from '~/ereceipts/inbound.server'
import { utcDay } from '~/utils/calendar'
import { Refusal, refused } from '~/utils/refusal'
import { toCents } from './decision'
import { keepConfirmation } from './forwarding-confirmations.server'
import { admitReading, dailyLimitRefusal, forwardAsker, readAndCheck, submitAnalysis } from './intake.server'

export type InboundResult =
  | { ok: true; kind: 'receipt'; userId: number; receiptId: number; status: 'approved' | 'pending_review'; note?: string }
  /** A provider's forwarding confirmation, kept for the owner to see (never its code or link here). */
  | { ok: true; kind: 'confirmation'; userId: number; provider: string }
  /** `retryAfter`: a temporary refusal (rate limit, DNS): the sender should try again later (SMTP 4xx). */
  | { ok: false; status: number; error: string; retryAfter?: number }

const NO_RECIPIENT = 'This message is not addressed to a ReCircle forwarding address.'

/** What a rider who forwarded inline is told (SMTP answer, Home): the way to be paid at once. */
export const INLINE_FORWARD_NOTE =
  'Forwarded inline, so its sender could not be verified: it is checked like a photo. Automatic forwarding relays the original receipt, which is verified and paid at once: see E-receipts.'

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
  // by the sender, so it is not news. A confirmation shows as its own card.
  if (result.ok && result.kind === 'receipt') await recordOutcome(db, { userId, receiptId: result.receiptId, outcome: result.status, message: result.note, now })
  else if (!result.ok && result.refusal.retryAfter === undefined) {
    await recordOutcome(db, { userId, outcome: 'refused', message: result.refusal.message, refusalKey: `${result.refusal.code}:${utcDay(now)}`, now })
  }
  if (result.ok) return { ...result, userId }
  const { refusal } = result
  return { ...refused(refusal), ...(refusal.retryAfter !== undefined ? { retryAfter: refusal.retryAfter } : {}) }
}

type Received =
  | { ok: true; kind: 'receipt'; receiptId: number; status: 'approved' | 'pending_review'; note?: string }
  | { ok: true; kind: 'confirmation'; provider: string }
  | { ok: false; refusal: Refusal }

async function receiveFor(db: DB, userId: number, raw: Buffer, now: Date): Promise<Received> {
  try {
    const asker = forwardAsker(userId, now)
    // Read at all only within the owner's analysis rate limit, a confirmation included.
    await admitReading(db, asker)
    const confirmation = await readForwardingConfirmation(raw, {
      resolver: eReceiptDefaults().resolver,
      now,
      deadline: Date.now() + ANALYSIS_TIMEOUT_MS,
    })
    if (confirmation) {
      await checkConfirmationIsFor(db, userId, confirmation.addressesNamed)
      await keepConfirmation(db, { userId, confirmation, now })
      return { ok: true, kind: 'confirmation', provider: confirmation.provider.id }
    }
    const limit = await dailyLimitRefusal(db, userId, now)
    if (limit) throw limit
    const intake = await readAndCheck(db, asker, raw)
    if (intake.refusal) return { ok: false, refusal: intake.refusal }
    const result = await submitAnalysis(db, { userId, analysisId: intake.id, now, values: valuesFromAnalysis(intake.analysis, now) })
    // The submission's own refusals (what the intake did not catch first) are one kind per status.
    if (!result.ok) return { ok: false, refusal: new Refusal(`submission_${result.status}`, result.status, result.error) }
    const note = intake.analysis.inlineForward ? INLINE_FORWARD_NOTE : undefined
    return { ok: true, kind: 'receipt', receiptId: result.receiptId, status: result.status, ...(note ? { note } : {}) }
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, refusal: error }
    throw error
  }
}

/**
 * A confirmation names the forwarding address it was sent for. One naming another ReCircle address
 * (a confirmation re-sent from one rider's address to another's) is refused, not shown.
 */
async function checkConfirmationIsFor(db: DB, userId: number, addressesNamed: string[]) {
  const domain = inboundDomain()
  const own = await getInboundAddress(db, userId)
  if (!domain || !own) return
  const ours = addressesNamed.filter((a) => a.endsWith(`@${domain}`)).map((a) => a.replace(/\+[^@]*@/, '@'))
  if (ours.length > 0 && !ours.includes(own)) throw new EReceiptError('confirmation_not_yours')
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

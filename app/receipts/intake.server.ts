/**
 * One way in for every receipt (issue 36). The scan page, POST /api/receipts, POST
 * /api/receipts/validate and forwarded mail (SMTP listener and webhook) all come through here, always
 * in this order:
 *   1. who is asking, and the limits that apply to them: the analysis rate limits, then the daily limit;
 *   2. the read: the same bytes already submitted are refused unread, then photo or e-mail, chosen in
 *      one place (analysis/analyses.server.ts);
 *   3. the early refusals: the same trip, a claimed e-receipt, a date outside the window.
 * Each step refuses with a Refusal; refusal.server.ts is the one place it becomes an answer.
 * The submission (`submitAnalysis`) assembles its settings once for every caller.
 */
import type { DB } from '#db/db.server'
import { analyzeAndStore, sha256, type AnalysisRecord } from '~/analysis/analyses.server'
import { analyzerFor } from '~/analysis/readers.server'
import { eReceiptFacts, type Analyzer, type EmailAnalyzer, type StoredAnalysis } from '~/analysis/stored-analysis'
import { getPassportCheck } from '~/chain/passport.server'
import { MAILBOX_TAKEN_MESSAGE } from '~/ereceipts/errors'
import { DAILY_ACTION_LIMIT } from '~/rewards/daily-limit'
import { countActionsToday } from '~/rewards/daily-limit.server'
import { maturingSettings } from '~/rewards/maturing.server'
import { getEnv } from '~/utils/env.server'
import { analysisLimits, checkRateLimits, rateLimits, tooManyRequestsMessage, type RateLimit } from '~/utils/rate-limit.server'
import { Refusal } from '~/utils/refusal'
import { checkPurchaseDate } from './age-window'
import type { UserValues } from './decision'
import { eReceiptRefusal } from './email-keys.server'
import { findSameReceipts, sameImageSubmitted, sameTripMomentOfUser } from './fraud.server'
import type { ReceiptOrigin } from './origin.server'
import { receiptContent, submitReceipt, submissionRefusals, type SubmitResult } from './receipts.server'

/** Who is asking: the user a receipt will belong to, and the rate limits its reading counts against. */
export type Asker = { userId: number; limits: RateLimit[]; now?: Date }

/** A signed-in user on a route: the per-user and per-address analysis limits (one shared count). */
export function askerFor(userId: number, context: unknown): Asker {
  return { userId, limits: analysisLimits(userId, context) }
}

/** The owner of a forwarding address: the sender's address is a mail server's, so the per-user limit alone. */
export function forwardAsker(userId: number, now?: Date): Asker {
  return { userId, limits: [rateLimits.analysisByUser(userId)], now }
}

/** Past the analysis rate limits: try again after `retryAfterSeconds` (Retry-After; SMTP 451). */
export function rateLimitedRefusal(retryAfterSeconds: number) {
  return new Refusal('rate_limited', 429, tooManyRequestsMessage(retryAfterSeconds), {
    title: 'Too many receipts at once',
    retryAfter: retryAfterSeconds,
    echo: ['message'],
  })
}

/** The daily limit alone, without counting anything: null while actions are left today. */
export async function dailyLimitRefusal(db: DB, userId: number, now = new Date()): Promise<Refusal | null> {
  return (await countActionsToday(db, userId, now)) < DAILY_ACTION_LIMIT ? null : submissionRefusals.dailyLimit(now)
}

/**
 * Step 1. `reading`: bytes will be read, so the call counts against the analysis rate limits first;
 * a submission of an analysis made before (`reading: false`) meets the daily limit alone.
 */
export async function admit(db: DB, asker: Asker, opts: { reading: boolean }): Promise<void> {
  if (opts.reading) await admitReading(db, asker)
  const limit = await dailyLimitRefusal(db, asker.userId, asker.now)
  if (limit) throw limit
}

/**
 * The analysis rate limits alone, counting this read. Forwarded mail meets them before it is known
 * to be a receipt: a provider's forwarding confirmation is read too, but is no action of the day.
 */
export async function admitReading(db: DB, asker: Asker): Promise<void> {
  const rate = await checkRateLimits(db, asker.limits, asker.now)
  if (!rate.ok) throw rateLimitedRefusal(rate.retryAfterSeconds)
}

export type ReadOptions = {
  /** The photo reader; by default the one composed for this user (inline or the job queue). */
  analyze?: Analyzer
  analyzeEmail?: EmailAnalyzer
  timeoutMs?: number
}

/** Step 2: bytes already submitted are refused unread; anything else is read and its analysis kept. */
export async function readReceipt(db: DB, asker: Asker, bytes: Buffer, opts: ReadOptions = {}): Promise<AnalysisRecord> {
  if (bytes.length > 0 && (await sameImageSubmitted(db, sha256(bytes)))) throw submissionRefusals.duplicate()
  return analyzeAndStore(db, {
    userId: asker.userId,
    image: bytes,
    analyze: opts.analyze ?? analyzerFor(asker.userId),
    analyzeEmail: opts.analyzeEmail,
    now: asker.now,
    timeoutMs: opts.timeoutMs,
  })
}

/**
 * Step 3, also for an analysis read before (the scan page's form step): the same bytes or trip from
 * this account, a claimed e-receipt, a date outside the window, or the day's actions used up.
 * The submission checks all of it again.
 */
export async function analysisRefusal(
  db: DB,
  input: { userId: number; imageHash: string; analysis: StoredAnalysis; maxAgeDays: number; now?: Date },
): Promise<Refusal | null> {
  const now = input.now ?? new Date()
  const limit = await dailyLimitRefusal(db, input.userId, now)
  if (limit) return limit
  const sameTrip =
    (await findSameReceipts(db, receiptContent(input.analysis))).some((r) => r.userId === input.userId) ||
    (await sameTripMomentOfUser(db, input.userId, input.analysis.tripMoment))
  if (sameTrip || (await sameImageSubmitted(db, input.imageHash))) return submissionRefusals.duplicate()
  const ereceipt = eReceiptFacts(input.analysis)
  const claimed = ereceipt ? await eReceiptRefusal(db, input.userId, ereceipt) : null
  if (claimed === 'duplicate') return submissionRefusals.duplicate()
  if (claimed === 'mailbox') return submissionRefusals.mailbox(MAILBOX_TAKEN_MESSAGE)
  if (input.analysis.purchaseDate) {
    const window = checkPurchaseDate(input.analysis.purchaseDate, now, input.maxAgeDays, { travel: input.analysis.travelDate === true })
    if (!window.ok) return new Refusal(window.code, 400, window.reason, { title: 'Not eligible' })
  }
  return null
}

export type Intake = AnalysisRecord & { refusal: Refusal | null }

/** Steps 2 and 3, once admitted: the bytes read and stored, and what would refuse them now. */
export async function readAndCheck(db: DB, asker: Asker, bytes: Buffer, opts: ReadOptions = {}): Promise<Intake> {
  const record = await readReceipt(db, asker, bytes, opts)
  const refusal = await analysisRefusal(db, {
    userId: asker.userId,
    imageHash: record.imageHash,
    analysis: record.analysis,
    maxAgeDays: getEnv().RECEIPT_MAX_AGE_DAYS,
    now: asker.now,
  })
  return { ...record, refusal }
}

/** The one submission path: a stored analysis and the user's values, with the settings of this server. */
export function submitAnalysis(
  db: DB,
  input: { userId: number; analysisId: number; values: UserValues; origin?: ReceiptOrigin; now?: Date },
): Promise<SubmitResult> {
  const env = getEnv()
  return submitReceipt(db, {
    ...input,
    maxAgeDays: env.RECEIPT_MAX_AGE_DAYS,
    inviteeAutoApprovalsPerDay: env.INVITEE_AUTO_APPROVALS_PER_DAY,
    passport: getPassportCheck(),
    maturing: maturingSettings(env),
  })
}

/**
 * Forwarded e-receipts (issue 21): every user has a personal address `<token>@INBOUND_DOMAIN`. Mail
 * to it arrives by the SMTP listener (smtp.server.ts, the envelope's recipients) or a mail
 * provider's webhook (api.inbound-email.ts, the recipient its signature covers) and is credited to
 * the address's owner exactly as an upload would be.
 */
import { randomCode } from '~/utils/random.server'
import type { DB } from '#db/db.server'
import { dailyLimitRefusal } from '~/receipts/early.server'
import { analyzeAndStore } from '~/receipts/analyses.server'
import { submitReceipt, type SubmitResult } from '~/receipts/receipts.server'
import { type StoredAnalysis } from '~/receipts/stored-analysis'
import { toCents } from '~/receipts/submission'
import { sniffImageFormat } from '~/ocr/photo.server'
import { getEnv } from '~/utils/env.server'
import { checkRateLimits, rateLimits, tooManyRequestsMessage } from '~/utils/rate-limit.server'
import { getPassportCheck } from '~/chain/passport.server'
import { EReceiptError } from './errors'
import { looksLikeEmail } from './message.server'

const TOKEN_PREFIX = 'r-'

export function inboundDomain(): string | null {
  return getEnv().INBOUND_DOMAIN ?? null
}

/** The user's forwarding address, made on first request; null when forwarding is not set up. */
export async function getInboundAddress(db: DB, userId: number, now = new Date()): Promise<string | null> {
  const domain = inboundDomain()
  if (!domain) return null
  const existing = await db.selectFrom('inbound_addresses').select('token').where('user_id', '=', userId).executeTakeFirst()
  if (existing) return `${existing.token}@${domain}`
  // 60 random bits in lower case: unguessable, short enough to type, case-insensitive as mail is.
  const token = TOKEN_PREFIX + randomCode(12, 'abcdefghijkmnpqrstuvwxyz23456789')
  await db
    .insertInto('inbound_addresses')
    .values({ token, user_id: userId, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
  const row = await db.selectFrom('inbound_addresses').select('token').where('user_id', '=', userId).executeTakeFirstOrThrow()
  return `${row.token}@${domain}`
}

/** The owner of a forwarding address, or null (another domain, unknown token). */
export async function userForInboundAddress(db: DB, address: string): Promise<number | null> {
  const domain = inboundDomain()
  const match = /^<?([^@<>\s]+)@([^@<>\s]+?)>?$/.exec(address.trim().toLowerCase())
  if (!domain || !match || match[2] !== domain) return null
  // Sub-addressing ("r-abc+uber@…") reaches the same mailbox.
  const token = match[1].split('+')[0]
  const row = await db.selectFrom('inbound_addresses').select('user_id').where('token', '=', token).executeTakeFirst()
  return row?.user_id ?? null
}

export type InboundResult =
  | { ok: true; userId: number; receiptId: number; status: 'approved' | 'pending_review' }
  | { ok: false; status: number; error: string }

const NO_RECIPIENT = 'This message is not addressed to a ReCircle forwarding address.'

/** Credit a forwarded e-mail to the owner of the first known recipient address. */
export async function receiveForwardedEmail(db: DB, input: { recipients: string[]; raw: Buffer; now?: Date }): Promise<InboundResult> {
  let userId: number | null = null
  for (const recipient of input.recipients) {
    userId = await userForInboundAddress(db, recipient)
    if (userId !== null) break
  }
  if (userId === null) return { ok: false, status: 404, error: NO_RECIPIENT }
  if (sniffImageFormat(input.raw) !== null || !looksLikeEmail(input.raw)) return { ok: false, status: 400, error: new EReceiptError('malformed').message }
  const limit = await dailyLimitRefusal(db, userId, input.now)
  if (limit) return { ok: false, status: 429, error: limit.message }
  // Forwarded mail is analysed like an upload, so it counts against the same per-user limit.
  const rate = await checkRateLimits(db, [rateLimits.analysisByUser(userId)], input.now)
  if (!rate.ok) return { ok: false, status: 429, error: tooManyRequestsMessage(rate.retryAfterSeconds) }
  let stored: Awaited<ReturnType<typeof analyzeAndStore>>
  try {
    stored = await analyzeAndStore(db, { userId, image: input.raw, analyze: notAPhoto, now: input.now })
  } catch (error) {
    if (error instanceof EReceiptError) return { ok: false, status: error.status, error: error.message }
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
    purchaseDate: analysis.purchaseDate ?? now.toISOString().slice(0, 10),
    serviceId: null,
  }
}

/** Forwarded mail is never a photo: analyzeAndStore reads e-mails itself and refuses anything else. */
const notAPhoto = async (): Promise<StoredAnalysis> => {
  throw new EReceiptError('malformed')
}

/**
 * The mail provider's inbound webhook (issue 29): what the signature covers, how fresh it must be,
 * and how a delivery is answered once. Like the inbound routes of common mail providers, the
 * provider signs a timestamp and a delivery token together with the recipient, and here the body
 * too (its sha256), so a captured delivery can be neither re-addressed nor re-posted later:
 *
 *   X-Inbound-Timestamp  Unix seconds when this attempt was sent
 *   X-Inbound-Token      the delivery id: unique per message, the same on every retry of it
 *   X-Inbound-Recipient  the envelope recipient (the rider's forwarding address)
 *   X-Inbound-Signature  hex HMAC-SHA256 under INBOUND_WEBHOOK_SECRET of
 *                        "<timestamp>\n<token>\n<recipient>\n<hex sha256 of the body>"
 */
import crypto from 'node:crypto'
import { z } from 'zod'
import { Refusal, refused, type Refused } from '~/utils/refusal'
import type { DB } from '#db/db.server'

/** A delivery signed longer ago than this (or this far ahead of our clock) is refused. */
export const WEBHOOK_MAX_AGE_SECONDS = 5 * 60
/** A first attempt that has not answered in this long is taken to have died; a retry runs it again. */
export const DELIVERY_STALE_SECONDS = 60

export const WEBHOOK_HEADERS = {
  timestamp: 'X-Inbound-Timestamp',
  token: 'X-Inbound-Token',
  recipient: 'X-Inbound-Recipient',
  signature: 'X-Inbound-Signature',
} as const

export type WebhookDelivery = { token: string; recipient: string; timestamp: number }

export type WebhookCheck = { ok: true; delivery: WebhookDelivery } | Refused<401>

const unsigned = (message: string) => new Refusal('unsigned_delivery', 401, message)

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/

export function signedPayload(input: { timestamp: number | string; token: string; recipient: string; body: Buffer }): string {
  const bodyHash = crypto.createHash('sha256').update(input.body).digest('hex')
  return `${input.timestamp}\n${input.token}\n${input.recipient}\n${bodyHash}`
}

/** What a provider (or a test) sends: the four headers for `body` to `recipient`. */
export function signDelivery(input: { secret: string; body: Buffer; recipient: string; token: string; timestamp: number }): Record<string, string> {
  const signature = crypto.createHmac('sha256', input.secret).update(signedPayload(input)).digest('hex')
  return {
    [WEBHOOK_HEADERS.timestamp]: String(input.timestamp),
    [WEBHOOK_HEADERS.token]: input.token,
    [WEBHOOK_HEADERS.recipient]: input.recipient,
    [WEBHOOK_HEADERS.signature]: signature,
  }
}

/** The headers' signature over timestamp, token, recipient and body, in constant time, and fresh. */
export function checkDelivery(headers: Headers, body: Buffer, secret: string, now = new Date()): WebhookCheck {
  const timestamp = headers.get(WEBHOOK_HEADERS.timestamp)?.trim() ?? ''
  const token = headers.get(WEBHOOK_HEADERS.token)?.trim() ?? ''
  const recipient = headers.get(WEBHOOK_HEADERS.recipient)?.trim() ?? ''
  const given = (headers.get(WEBHOOK_HEADERS.signature) ?? '').trim().replace(/^sha256=/i, '')
  if (!/^\d{1,12}$/.test(timestamp) || !TOKEN.test(token) || !recipient || recipient.length > 320 || !/^[0-9a-f]{64}$/i.test(given)) {
    return refused(unsigned(`Invalid or missing signature: send ${Object.values(WEBHOOK_HEADERS).join(', ')}`))
  }
  const expected = crypto.createHmac('sha256', secret).update(signedPayload({ timestamp, token, recipient, body })).digest()
  if (!crypto.timingSafeEqual(expected, Buffer.from(given, 'hex'))) return refused(unsigned('Invalid or missing signature'))
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > WEBHOOK_MAX_AGE_SECONDS) {
    return refused(unsigned('This delivery was signed more than 5 minutes ago: send it again with a new timestamp and signature'))
  }
  return { ok: true, delivery: { token, recipient, timestamp: Number(timestamp) } }
}

/** `retryAfter`: a temporary answer (429, 503): kept for no retry, so the provider's retry runs afresh. */
export type DeliveryAnswer = { status: number; body: Record<string, unknown>; retryAfter?: number }

const storedAnswer = z.record(z.unknown())

/** The same recipient and body: a retry of the delivery, as opposed to another message under its id. */
function deliveryHash(recipient: string, body: Buffer) {
  return crypto.createHash('sha256').update(recipient.toLowerCase()).update('\n').update(body).digest('hex')
}

/**
 * Answer a delivery once. The first attempt claims the token (a unique key) and runs `handle`; a
 * retry of the same delivery gets the first answer again, a retry while it runs is asked to come
 * back, and another message under a used token is refused. A temporary answer (503, 429) keeps nothing,
 * so the provider's retry runs it afresh; an attempt that died is taken over after a minute.
 */
export async function answerOnce(
  db: DB,
  input: { delivery: WebhookDelivery; body: Buffer; now?: Date },
  handle: () => Promise<DeliveryAnswer>,
): Promise<DeliveryAnswer & { replayed?: boolean }> {
  const now = input.now ?? new Date()
  const hash = deliveryHash(input.delivery.recipient, input.body)
  const claimed = await claim(db, input.delivery.token, hash, now)
  if (claimed !== 'claimed') return claimed
  let answer: DeliveryAnswer
  try {
    answer = await handle()
  } catch (error) {
    await release(db, input.delivery.token)
    throw error
  }
  if (answer.status >= 500 || answer.retryAfter !== undefined) {
    await release(db, input.delivery.token)
    return answer
  }
  await db
    .updateTable('inbound_deliveries')
    .set({ status: answer.status, response_json: JSON.stringify(answer.body), updated_at: new Date().toISOString() })
    .where('token', '=', input.delivery.token)
    .execute()
  return answer
}

async function claim(db: DB, token: string, hash: string, now: Date): Promise<'claimed' | (DeliveryAnswer & { replayed: true })> {
  const stamp = now.toISOString()
  const inserted = await db
    .insertInto('inbound_deliveries')
    .values({ token, request_hash: hash, status: null, response_json: null, created_at: stamp, updated_at: stamp })
    .onConflict((oc) => oc.column('token').doNothing())
    .returning('token')
    .executeTakeFirst()
  if (inserted) return 'claimed'
  const row = await db.selectFrom('inbound_deliveries').selectAll().where('token', '=', token).executeTakeFirst()
  if (!row) return claim(db, token, hash, now) // released in between: try again
  if (row.request_hash !== hash) {
    return { status: 409, body: { error: 'This delivery id was already used for another message' }, replayed: true }
  }
  if (row.status !== null && row.response_json !== null) return { status: row.status, body: storedAnswer.parse(JSON.parse(row.response_json)), replayed: true }
  const stale = new Date(now.getTime() - DELIVERY_STALE_SECONDS * 1000).toISOString()
  const taken = await db
    .updateTable('inbound_deliveries')
    .set({ updated_at: stamp })
    .where('token', '=', token)
    .where('status', 'is', null)
    .where('updated_at', '<', stale)
    .executeTakeFirst()
  if (Number(taken.numUpdatedRows) === 1) return 'claimed'
  return { status: 503, body: { error: 'This delivery is being processed: try again shortly' }, replayed: true }
}

async function release(db: DB, token: string) {
  await db.deleteFrom('inbound_deliveries').where('token', '=', token).where('status', 'is', null).execute()
}

/** Housekeeping: a delivery id is kept long past any provider's retries (days), then forgotten. */
export async function purgeOldDeliveries(db: DB, now = new Date(), keepDays = 7): Promise<number> {
  const cutoff = new Date(now.getTime() - keepDays * 86_400_000).toISOString()
  const result = await db.deleteFrom('inbound_deliveries').where('created_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}

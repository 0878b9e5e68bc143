/**
 * Forwarding addresses (issue 21): every user has a personal address `<token>@INBOUND_DOMAIN`. Mail
 * to it arrives by the SMTP listener (smtp.server.ts, the envelope's recipients) or a mail
 * provider's webhook (api.inbound-email.ts, the recipient its signature covers) and is credited to
 * the address's owner exactly as an upload would be (app/receipts/forwarded.server.ts).
 */
import { randomCode } from '~/utils/random.server'
import type { DB } from '#db/db.server'
import { getEnv } from '~/utils/env.server'

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

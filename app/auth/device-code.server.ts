import crypto from 'node:crypto'
import { createCookie, type Cookie } from '@remix-run/node'
import type { DB } from '#db/db.server'
import type { DeviceCodeRow } from '#db/schema'
import { getEnv } from '~/utils/env.server'
import { DEVICE_CODE_TTL_MS, deviceCodeState, makeUserCode, type DeviceCodeState, type DeviceCodeStatus } from './device-code'

/** Rows are kept a day past their ten minutes, so a late visitor is told the code expired (decision 108). */
const KEEP_AFTER_EXPIRY_MS = 24 * 60 * 60_000
const USER_AGENT_MAX_LENGTH = 400

export type DeviceCode = {
  userCode: string
  status: DeviceCodeStatus
  userId: number | null
  userAgent: string | null
  address: string | null
  redirectTo: string
  createdAt: string
  expiresAt: string
}

function toDeviceCode(row: DeviceCodeRow): DeviceCode {
  return {
    userCode: row.user_code,
    status: row.status,
    userId: row.user_id,
    userAgent: row.requester_user_agent,
    address: row.requester_address,
    redirectTo: row.redirect_to,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }
}

/** Only this is stored: the secret is 256 random bits, so a plain sha256 cannot be reversed or guessed. */
export function hashDeviceSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex')
}

/** A new pending code for the asking browser; the secret goes into its cookie and nowhere else. */
export async function createDeviceCode(
  db: DB,
  input: { userAgent: string | null; address: string | null; redirectTo: string; now?: Date },
): Promise<{ secret: string; userCode: string; expiresAt: string }> {
  const now = input.now ?? new Date()
  const secret = crypto.randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + DEVICE_CODE_TTL_MS).toISOString()
  // A user code already taken (about one in 10^7 with a thousand live codes) is drawn again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const userCode = makeUserCode((max) => crypto.randomInt(max))
    const inserted = await db
      .insertInto('device_codes')
      .values({
        secret_hash: hashDeviceSecret(secret),
        user_code: userCode,
        status: 'pending',
        requester_user_agent: input.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
        requester_address: input.address,
        redirect_to: input.redirectTo,
        created_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .onConflict((oc) => oc.column('user_code').doNothing())
      .returning('user_code')
      .executeTakeFirst()
    if (inserted) return { secret, userCode, expiresAt }
  }
  throw new Error('No free user code after 5 draws')
}

export async function getDeviceCodeBySecret(db: DB, secret: string): Promise<DeviceCode | null> {
  const row = await db.selectFrom('device_codes').selectAll().where('secret_hash', '=', hashDeviceSecret(secret)).executeTakeFirst()
  return row ? toDeviceCode(row) : null
}

export async function getDeviceCodeByUserCode(db: DB, userCode: string): Promise<DeviceCode | null> {
  const row = await db.selectFrom('device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst()
  return row ? toDeviceCode(row) : null
}

/** Confirm or deny a pending, unexpired code for this wallet; one conditional UPDATE, so it is decided once. */
export async function decideDeviceCode(
  db: DB,
  input: { userCode: string; userId: number; approve: boolean; now?: Date },
): Promise<boolean> {
  const now = (input.now ?? new Date()).toISOString()
  const result = await db
    .updateTable('device_codes')
    .set({ status: input.approve ? 'approved' : 'denied', user_id: input.userId, decided_at: now })
    .where('user_code', '=', input.userCode)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export type RedeemResult = { ok: true; userId: number; redirectTo: string } | { ok: false; state: Exclude<DeviceCodeState, 'approved'> | null }

/** The asking browser's "Continue": an approved, unexpired code becomes used, atomically, so it signs in once. */
export async function redeemDeviceCode(db: DB, secret: string, now = new Date()): Promise<RedeemResult> {
  const secretHash = hashDeviceSecret(secret)
  const used = await db
    .updateTable('device_codes')
    .set({ status: 'used', used_at: now.toISOString() })
    .where('secret_hash', '=', secretHash)
    .where('status', '=', 'approved')
    .where('expires_at', '>', now.toISOString())
    .returning(['user_id', 'redirect_to'])
    .executeTakeFirst()
  if (used?.user_id != null) return { ok: true, userId: used.user_id, redirectTo: used.redirect_to }
  const code = await getDeviceCodeBySecret(db, secret)
  const state = code ? deviceCodeState(code, now) : null
  // Approved but not updated: another request redeemed it a moment ago.
  return { ok: false, state: state === 'approved' ? 'used' : state }
}

/** Housekeeping: codes a day past their expiry. */
export async function purgeExpiredDeviceCodes(db: DB, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - KEEP_AFTER_EXPIRY_MS).toISOString()
  const result = await db.deleteFrom('device_codes').where('expires_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}

let current: { secret: string; cookie: Cookie } | undefined

/**
 * The asking browser's device secret: httpOnly, SameSite=Lax, only sent to the code page. It outlives
 * the code as long as the row does, so a late Continue is told the code expired; signing in clears it.
 */
function deviceCookie(): Cookie {
  const secret = getEnv().SESSION_SECRET
  if (current?.secret !== secret) {
    const cookie = createCookie('__device', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/connect-wallet',
      secrets: [secret],
      maxAge: (DEVICE_CODE_TTL_MS + KEEP_AFTER_EXPIRY_MS) / 1000,
    })
    current = { secret, cookie }
  }
  return current.cookie
}

const isHttps = (request: Request) => new URL(request.url).protocol === 'https:'

export async function readDeviceSecret(request: Request): Promise<string | null> {
  const value = await deviceCookie().parse(request.headers.get('Cookie'))
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null
}

export function deviceSecretCookie(request: Request, secret: string): Promise<string> {
  return deviceCookie().serialize(secret, { secure: isHttps(request) })
}

export function clearDeviceSecretCookie(request: Request): Promise<string> {
  return deviceCookie().serialize('', { maxAge: 0, expires: new Date(0), secure: isHttps(request) })
}

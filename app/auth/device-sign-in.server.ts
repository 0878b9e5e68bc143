import type { DB } from '#db/db.server'
import { safeRedirectTo } from '~/utils/redirect'
import { getRateLimitRefusal, rateLimits, UNKNOWN_IP } from '~/utils/rate-limit.server'
import { DEVICE_CONTINUE_MESSAGES, type AskingBrowser, describeAskedAt, describeNetworkAddress, describeUserAgent, deviceCodeState, entryRefusal, formatUserCode } from './device-code'
import { createDeviceCode, decideDeviceCode, getDeviceCodeByUserCode, redeemDeviceCode } from './device-code.server'
import { createSession } from './session.server'

// Sign in with a code (issue 40, decision 108): the three steps, each with its rate limits.

export type DeviceRefusal = { ok: false; status: 400 | 429; message: string; headers?: Record<string, string> }

/** The asking browser wants a code: its secret is for its cookie. */
export async function askForDeviceCode(
  db: DB,
  input: { ip: string; userAgent: string | null; redirectTo: string | undefined; now?: Date },
): Promise<{ ok: true; secret: string } | DeviceRefusal> {
  const limited = await getRateLimitRefusal(db, [rateLimits.deviceCodeByIp(input.ip)], input.now)
  if (limited) return { ok: false, status: 429, message: limited.message, headers: limited.headers }
  const { secret } = await createDeviceCode(db, {
    userAgent: input.userAgent,
    address: input.ip === UNKNOWN_IP ? null : input.ip,
    redirectTo: safeRedirectTo(input.redirectTo),
    now: input.now,
  })
  return { ok: true, secret }
}

export type EntryResult = { ok: true; asking: AskingBrowser } | { ok: true; decided: 'approved' | 'denied' } | (DeviceRefusal & { field?: true })

/**
 * A code typed on /device by a signed-in wallet: looked up (intent lookup), then confirmed or
 * denied. Every entry counts against the wallet and the address, and an existing code against itself.
 */
export async function enterDeviceCode(
  db: DB,
  input: { userId: number; ip: string; userCode: string; intent: 'lookup' | 'approve' | 'deny'; now?: Date },
): Promise<EntryResult> {
  const now = input.now ?? new Date()
  const limited = await getRateLimitRefusal(db, [rateLimits.deviceEntryByUser(input.userId), rateLimits.deviceEntryByIp(input.ip)], now)
  if (limited) return { ok: false, status: 429, message: limited.message, headers: limited.headers }
  const code = await getDeviceCodeByUserCode(db, input.userCode)
  const perCode = code ? await getRateLimitRefusal(db, [rateLimits.deviceEntryByCode(code.userCode)], now) : null
  if (perCode) return { ok: false, status: 429, message: perCode.message, headers: perCode.headers }
  const refusal = entryRefusal(code ? deviceCodeState(code, now) : null)
  if (refusal || !code) return { ok: false, status: 400, field: true, message: refusal ?? '' }
  if (input.intent === 'lookup') {
    const asking = { userCode: formatUserCode(code.userCode), browser: describeUserAgent(code.userAgent), askedAt: describeAskedAt(code.createdAt, now), address: describeNetworkAddress(code.address) }
    return { ok: true, asking }
  }
  const approve = input.intent === 'approve'
  const decided = await decideDeviceCode(db, { userCode: code.userCode, userId: input.userId, approve, now })
  if (!decided) return { ok: false, status: 400, field: true, message: entryRefusal('used')! }
  return { ok: true, decided: approve ? 'approved' : 'denied' }
}

/** "Continue" on the asking browser: a confirmed code opens a session exactly as a certificate does. */
export async function continueDeviceSignIn(
  db: DB,
  request: Request,
  input: { ip: string; secret: string | null; now?: Date },
): Promise<{ ok: true; cookie: string; redirectTo: string } | DeviceRefusal> {
  const limited = await getRateLimitRefusal(db, [rateLimits.deviceContinueByIp(input.ip)], input.now)
  if (limited) return { ok: false, status: 429, message: limited.message, headers: limited.headers }
  const result = input.secret ? await redeemDeviceCode(db, input.secret, input.now) : { ok: false as const, state: null }
  if (!result.ok) return { ok: false, status: 400, message: DEVICE_CONTINUE_MESSAGES[result.state ?? 'none'] }
  const cookie = await createSession(db, request, result.userId, input.now)
  return { ok: true, cookie, redirectTo: safeRedirectTo(result.redirectTo) }
}

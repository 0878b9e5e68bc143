import { isIPv4, isIPv6 } from 'node:net'
import { json } from '@remix-run/node'
import type { DB } from '#db/db.server'
import { getEnv } from './env.server'

/** `limit` requests per `windowMs` for `key`; a limit of 0 (or less) is off. */
export type RateLimit = { key: string; limit: number; windowMs: number }
export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number }

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * Count one request in the current fixed window (aligned to the epoch, so a day is a UTC day).
 * A single upsert increments and returns the count, so several processes share it exactly.
 */
export async function checkRateLimit(db: DB, input: RateLimit & { now?: Date }): Promise<RateLimitResult> {
  if (input.limit <= 0) return { ok: true }
  const now = (input.now ?? new Date()).getTime()
  const start = Math.floor(now / input.windowMs) * input.windowMs
  const row = await db
    .insertInto('rate_limits')
    .values({
      key: input.key,
      window_start: new Date(start).toISOString(),
      count: 1,
      expires_at: new Date(start + input.windowMs).toISOString(),
    })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_limits.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow()
  if (row.count <= input.limit) return { ok: true }
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + input.windowMs - now) / 1000)) }
}

/** Each limit in turn; the first one exceeded answers (the later ones are not counted). RATE_LIMITS_DISABLED=1: all off. */
export async function checkRateLimits(db: DB, limits: RateLimit[], now?: Date): Promise<RateLimitResult> {
  if (getEnv().RATE_LIMITS_DISABLED) return { ok: true }
  for (const limit of limits) {
    const result = await checkRateLimit(db, { ...limit, now })
    if (!result.ok) return result
  }
  return { ok: true }
}

/** Housekeeping: counters of windows that have ended. */
export async function deleteExpiredRateLimits(db: DB, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('expires_at', '<=', now.toISOString()).executeTakeFirst()
  return Number(result.numDeletedRows)
}

export function tooManyRequestsMessage(retryAfterSeconds: number): string {
  const s = Math.max(1, Math.ceil(retryAfterSeconds))
  if (s < 120) return `Too many requests. Please try again in ${s} ${s === 1 ? 'second' : 'seconds'}.`
  if (s < 2 * 3600) return `Too many requests. Please try again in ${Math.ceil(s / 60)} minutes.`
  return `Too many requests. Please try again in ${Math.ceil(s / 3600)} hours.`
}

export type RateLimitRefusal = { status: 429; message: string; retryAfterSeconds: number; headers: Record<string, string> }

/** Form routes: null when within the limits, otherwise what the page shows and the 429 headers. */
export async function getRateLimitRefusal(db: DB, limits: RateLimit[], now?: Date): Promise<RateLimitRefusal | null> {
  const result = await checkRateLimits(db, limits, now)
  if (result.ok) return null
  return {
    status: 429,
    message: tooManyRequestsMessage(result.retryAfterSeconds),
    retryAfterSeconds: result.retryAfterSeconds,
    headers: { 'Retry-After': String(result.retryAfterSeconds) },
  }
}

/** API routes: throws a 429 JSON `{ error, message }` with Retry-After when a limit is exceeded. */
export async function requireWithinRateLimits(db: DB, limits: RateLimit[], now?: Date): Promise<void> {
  const refusal = await getRateLimitRefusal(db, limits, now)
  if (refusal) {
    throw json({ error: refusal.message, message: refusal.message }, { status: 429, headers: refusal.headers })
  }
}

export const UNKNOWN_IP = 'unknown'

/**
 * The client address Express put in the load context (scripts/server.ts): the X-Forwarded-For
 * entry the nearest trusted proxy appended (TRUST_PROXY proxies), otherwise the socket's. 'unknown' without one
 * (route tests). IPv6 clients are grouped by /64, the block one subscriber usually holds.
 */
export function clientIpFrom(context: unknown): string {
  const ip = (context as { clientIp?: unknown } | null | undefined)?.clientIp
  return typeof ip === 'string' && ip !== '' && ip !== UNKNOWN_IP ? ipKey(ip) : UNKNOWN_IP
}

/**
 * Per-IP limits are skipped when the address is unknown (no load context: route tests, another
 * server adapter): one shared 'unknown' bucket would throttle every client at once. The per-user
 * and per-wallet limits still apply.
 */
function perIp(ip: string, limit: number) {
  return ip === UNKNOWN_IP ? 0 : limit
}

export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1]
  if (isIPv4(ip) || !isIPv6(ip)) return ip
  let groups = ip.toLowerCase().split(':')
  if (ip.includes('::')) {
    const [head, tail] = ip.toLowerCase().split('::')
    const left = head ? head.split(':') : []
    const right = tail ? tail.split(':') : []
    groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  }
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`
}

/** The configured limits (env, read on each call so tests can change them). */
export const rateLimits = {
  challengeByIp: (ip: string): RateLimit => ({ key: `challenge:ip:${ip}`, limit: perIp(ip, getEnv().RATE_LIMIT_CHALLENGE_PER_IP_PER_MINUTE), windowMs: MINUTE }),
  certificateByIp: (ip: string): RateLimit => ({ key: `certificate:ip:${ip}`, limit: perIp(ip, getEnv().RATE_LIMIT_CERTIFICATE_PER_IP_PER_MINUTE), windowMs: MINUTE }),
  certificateByWallet: (address: string): RateLimit => ({
    key: `certificate:wallet:${address.toLowerCase()}`,
    limit: getEnv().RATE_LIMIT_CERTIFICATE_PER_WALLET_PER_MINUTE,
    windowMs: MINUTE,
  }),
  feedbackByIp: (ip: string): RateLimit => ({ key: `feedback:ip:${ip}`, limit: perIp(ip, getEnv().RATE_LIMIT_FEEDBACK_PER_IP_PER_HOUR), windowMs: HOUR }),
  feedbackByUser: (userId: number): RateLimit => ({ key: `feedback:user:${userId}`, limit: getEnv().RATE_LIMIT_FEEDBACK_PER_USER_PER_HOUR, windowMs: HOUR }),
  analysisByUser: (userId: number): RateLimit => ({ key: `analysis:user:${userId}`, limit: getEnv().RATE_LIMIT_ANALYSIS_PER_USER_PER_HOUR, windowMs: HOUR }),
  analysisByIp: (ip: string): RateLimit => ({ key: `analysis:ip:${ip}`, limit: perIp(ip, getEnv().RATE_LIMIT_ANALYSIS_PER_IP_PER_HOUR), windowMs: HOUR }),
  storeSubmissionByUser: (userId: number): RateLimit => ({
    key: `store-submission:user:${userId}`,
    limit: getEnv().RATE_LIMIT_STORE_SUBMISSION_PER_USER_PER_DAY,
    windowMs: DAY,
  }),
  deviceCodeByIp: (ip: string): RateLimit => ({ key: `device-code:ip:${ip}`, limit: perIp(ip, getEnv().RATE_LIMIT_DEVICE_CODE_PER_IP_PER_HOUR), windowMs: HOUR }),
  deviceEntryByIp: (ip: string): RateLimit => ({ key: `device-entry:ip:${ip}`, limit: perIp(ip, getEnv().RATE_LIMIT_DEVICE_ENTRY_PER_IP_PER_HOUR), windowMs: HOUR }),
  deviceEntryByUser: (userId: number): RateLimit => ({ key: `device-entry:user:${userId}`, limit: getEnv().RATE_LIMIT_DEVICE_ENTRY_PER_USER_PER_HOUR, windowMs: HOUR }),
  /** Counted only for a code that exists: a key per guessed code would be a row per guess. A code lives 10 minutes. */
  deviceEntryByCode: (userCode: string): RateLimit => ({ key: `device-entry:code:${userCode}`, limit: getEnv().RATE_LIMIT_DEVICE_ENTRY_PER_CODE, windowMs: 10 * MINUTE }),
  deviceContinueByIp: (ip: string): RateLimit => ({
    key: `device-continue:ip:${ip}`,
    limit: perIp(ip, getEnv().RATE_LIMIT_DEVICE_CONTINUE_PER_IP_PER_MINUTE),
    windowMs: MINUTE,
  }),
  thumbnailByUser: (userId: number): RateLimit => ({ key: `thumbnail:user:${userId}`, limit: getEnv().RATE_LIMIT_THUMBNAIL_PER_USER_PER_MINUTE, windowMs: MINUTE }),
}

/** The claimed signer of a wallet certificate (before it is verified), for the per-wallet limit. */
export function certificateSigner(certificate: unknown): string | null {
  const signer = (certificate as { signer?: unknown } | null | undefined)?.signer
  return typeof signer === 'string' && /^0x[0-9a-f]{40}$/i.test(signer) ? signer.toLowerCase() : null
}

/** The analysis limits of POST /api/receipts/validate and the scan page (one shared count). */
export function analysisLimits(userId: number, context: unknown): RateLimit[] {
  return [rateLimits.analysisByUser(userId), rateLimits.analysisByIp(clientIpFrom(context))]
}

/** The certificate limits of POST /api/auth/certificate and the wallet form (one shared count). */
export function certificateLimits(certificate: unknown, context: unknown): RateLimit[] {
  const signer = certificateSigner(certificate)
  return [rateLimits.certificateByIp(clientIpFrom(context)), ...(signer ? [rateLimits.certificateByWallet(signer)] : [])]
}

import crypto from 'node:crypto'
import { json, redirect } from '@remix-run/node'
import type { DB } from '#db/db.server'
import { attachReferralFromRequest } from '~/referrals/referrals.server'
import { findOrCreateUser, type User } from '~/users/users.server'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { CHALLENGE_TTL_MS, challengeContent, checkCertificateFields } from './certificate'
import { verifyCertificateSignature } from './certificate.server'
import { createSession, getSessionUser } from './session.server'

export async function createChallenge(db: DB, now = new Date()) {
  const nonce = crypto.randomBytes(16).toString('hex')
  const content = challengeContent(nonce)
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString()
  await db
    .insertInto('auth_challenges')
    .values({ nonce, content, expires_at: expiresAt, created_at: now.toISOString() })
    .execute()
  // Old challenges are useless after expiry; keep the table small.
  await db.deleteFrom('auth_challenges').where('expires_at', '<', new Date(now.getTime() - 86_400_000).toISOString()).execute()
  return { content, expiresAt }
}

export type SignInResult = { ok: true; user: User; created: boolean } | { ok: false; error: string }

/** Every check of the certificate contract; the nonce is consumed last, atomically, so it works once. */
export async function signInWithCertificate(
  db: DB,
  input: unknown,
  ctx: { requestHostname: string; allowedDomains: readonly string[]; now?: Date },
): Promise<SignInResult> {
  const now = ctx.now ?? new Date()
  const check = checkCertificateFields(input, { now, requestHostname: ctx.requestHostname, allowedDomains: ctx.allowedDomains })
  if (!check.ok) return check
  if (!verifyCertificateSignature(check.cert)) return { ok: false, error: 'Certificate signature does not verify' }
  const consumed = await db
    .updateTable('auth_challenges')
    .set({ used_at: now.toISOString() })
    .where('nonce', '=', check.nonce)
    .where('content', '=', check.cert.payload.content)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst()
  if (Number(consumed.numUpdatedRows) !== 1) return { ok: false, error: 'Unknown or expired sign-in challenge' }
  const { user, created } = await findOrCreateUser(db, check.cert.signer, now)
  return { ok: true, user, created }
}

export function requestHostname(request: Request) {
  return new URL(request.url).hostname.toLowerCase()
}

/** One look-up per page view: the root's and the page's loaders run for the same GET request. */
const usersByRequest = new WeakMap<Request, Promise<User | null>>()

export function getOptionalUser(request: Request): Promise<User | null> {
  // Only GET and HEAD share it: after an action the loaders must see what the action changed.
  if (request.method !== 'GET' && request.method !== 'HEAD') return lookUpUser(request)
  let user = usersByRequest.get(request)
  if (!user) {
    user = lookUpUser(request)
    usersByRequest.set(request, user)
  }
  return user
}

function lookUpUser(request: Request): Promise<User | null> {
  return getSessionUser(getDb(), request)
}

/** Pages: redirect to the connect page; API routes pass `api: true` to get a 401 JSON answer. */
export async function requireUser(request: Request, opts: { api?: boolean } = {}): Promise<User> {
  const user = await getOptionalUser(request)
  if (user) return user
  if (opts.api) throw json({ error: 'Not signed in' }, { status: 401 })
  const url = new URL(request.url)
  const redirectTo = `${url.pathname}${url.search}`
  throw redirect(`/connect-wallet?${new URLSearchParams({ redirectTo })}`)
}

export function isAdmin(user: Pick<User, 'walletAddress'> | null): boolean {
  return !!user && getEnv().ADMIN_WALLETS.includes(user.walletAddress.toLowerCase())
}

export async function requireAdmin(request: Request, opts: { api?: boolean } = {}): Promise<User> {
  const user = await requireUser(request, opts)
  if (!isAdmin(user)) {
    throw opts.api ? json({ error: 'Admins only' }, { status: 403 }) : new Response('Admins only', { status: 403 })
  }
  return user
}

/** `{id}` in an API path must be the session's own user (decision 007 §1). */
export async function requireSelf(request: Request, idParam: string | undefined): Promise<User> {
  const user = await requireUser(request, { api: true })
  const id = Number(idParam)
  if (!Number.isInteger(id) || id !== user.id) throw json({ error: 'Forbidden' }, { status: 403 })
  return user
}

/** The one sign-in path for the JSON API and the HTML forms: verify, then open a session. */
export async function signInRequest(request: Request, certificateInput: unknown) {
  const db = getDb()
  const result = await signInWithCertificate(db, certificateInput, {
    requestHostname: requestHostname(request),
    allowedDomains: getEnv().APP_DOMAINS,
  })
  if (!result.ok) return result
  // A brand-new account takes the invitation code kept by /join (never an existing one).
  if (result.created) await attachReferralFromRequest(db, request, result.user)
  const cookie = await createSession(db, request, result.user.id)
  return { ...result, cookie }
}

import crypto from 'node:crypto'
import { createCookie, redirect, type Cookie } from '@remix-run/node'
import { preparedQuery, type DB } from '#db/db.server'
import { toUser, type User } from '~/users/users.server'
import { getEnv } from '~/utils/env.server'

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000

let current: { secret: string; cookie: Cookie; idByHeader: Map<string, string | null> } | undefined

/** The session cookie, made once per secret (making one costs as much as reading it). */
function sessionCookie() {
  const secret = getEnv().SESSION_SECRET
  if (current?.secret !== secret) {
    const cookie = createCookie('__session', { httpOnly: true, sameSite: 'lax', path: '/', secrets: [secret], maxAge: SESSION_TTL_MS / 1000 })
    current = { secret, cookie, idByHeader: new Map() }
  }
  return current
}

/** Verified Cookie headers kept (a browser sends the same header with each page it loads): about 6 MB. */
const VERIFIED_HEADERS_KEPT = 10_000
const VERIFIED_HEADER_MAX_LENGTH = 500

function isHttps(request: Request) {
  return new URL(request.url).protocol === 'https:'
}

/**
 * The session id from a correctly signed cookie. Verifying a header always gives the same answer for
 * the same secret, so answers are remembered per header (the oldest dropped past the limit); whether
 * the session still lives is asked of the database every time.
 */
async function readSessionId(request: Request): Promise<string | null> {
  const header = request.headers.get('Cookie')
  if (!header) return null
  const { cookie, idByHeader } = sessionCookie()
  let id = idByHeader.get(header)
  if (id === undefined) {
    const value = await cookie.parse(header)
    id = typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? value : null
    if (header.length <= VERIFIED_HEADER_MAX_LENGTH) {
      if (idByHeader.size >= VERIFIED_HEADERS_KEPT) idByHeader.delete(idByHeader.keys().next().value!)
      idByHeader.set(header, id)
    }
  }
  return id
}

/** The signed-in user, session and user row read in one query; null without a live session. */
export async function getSessionUser(db: DB, request: Request, now = new Date()): Promise<User | null> {
  const id = await readSessionId(request)
  if (!id) return null
  const [row] = await liveSessionUser(db, id, now.toISOString())
  return row ? toUser(row) : null
}

const liveSessionUser = preparedQuery((db: DB, id: string, now: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', now),
)

export async function createSession(db: DB, request: Request, userId: number, now = new Date()): Promise<string> {
  const id = crypto.randomBytes(32).toString('hex')
  await db
    .insertInto('sessions')
    .values({
      id,
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    })
    .execute()
  return sessionCookie().cookie.serialize(id, { secure: isHttps(request) })
}

export async function destroySession(db: DB, request: Request): Promise<string> {
  const id = await readSessionId(request)
  if (id) await db.deleteFrom('sessions').where('id', '=', id).execute()
  return sessionCookie().cookie.serialize('', { maxAge: 0, expires: new Date(0), secure: isHttps(request) })
}

export function redirectWithCookie(to: string, cookie: string) {
  return redirect(to, { headers: { 'Set-Cookie': cookie } })
}

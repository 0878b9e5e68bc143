import crypto from 'node:crypto'
import { createCookie, redirect } from '@remix-run/node'
import type { DB } from '#db/db.server'
import { toUser, type User } from '~/users/users.server'
import { getEnv } from '~/utils/env.server'

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000

function sessionCookie() {
  return createCookie('__session', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secrets: [getEnv().SESSION_SECRET],
    maxAge: SESSION_TTL_MS / 1000,
  })
}

function isHttps(request: Request) {
  return new URL(request.url).protocol === 'https:'
}

async function readSessionId(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get('Cookie'))
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? value : null
}

/** The signed-in user, session and user row read in one query; null without a live session. */
export async function getSessionUser(db: DB, request: Request, now = new Date()): Promise<User | null> {
  const id = await readSessionId(request)
  if (!id) return null
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', now.toISOString())
    .executeTakeFirst()
  return row ? toUser(row) : null
}

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
  return sessionCookie().serialize(id, { secure: isHttps(request) })
}

export async function destroySession(db: DB, request: Request): Promise<string> {
  const id = await readSessionId(request)
  if (id) await db.deleteFrom('sessions').where('id', '=', id).execute()
  return sessionCookie().serialize('', { maxAge: 0, expires: new Date(0), secure: isHttps(request) })
}

export function redirectWithCookie(to: string, cookie: string) {
  return redirect(to, { headers: { 'Set-Cookie': cookie } })
}

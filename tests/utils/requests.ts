import { createChallenge, signInWithCertificate } from '../../app/auth/auth.server'
import { createSession } from '../../app/auth/session.server'
import { getDb } from '../../app/utils/db.server'
import { createTestWallet, identificationCert, type TestWallet } from './wallet'

export const BASE_URL = 'http://localhost:3000'

export function jsonRequest(path: string, body: unknown, init: RequestInit = {}) {
  return new Request(BASE_URL + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) },
    body: JSON.stringify(body),
    ...init,
  })
}

export function formRequest(path: string, fields: Record<string, string>, cookie?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' }
  if (cookie) headers.Cookie = cookie
  return new Request(BASE_URL + path, { method: 'POST', headers, body: new URLSearchParams(fields).toString() })
}

export function getRequest(path: string, cookie?: string) {
  return new Request(BASE_URL + path, { headers: cookie ? { Cookie: cookie } : {} })
}

/** Cookie header value ("name=value") from a Set-Cookie header. */
export function cookieFrom(setCookie: string | null) {
  if (!setCookie) throw new Error('No Set-Cookie header')
  return setCookie.split(';')[0]
}

/** Sign a fresh wallet in through the real certificate path; returns the user and a Cookie header. */
export async function signInNewUser(wallet: TestWallet = createTestWallet()) {
  const db = getDb()
  const { content } = await createChallenge(db)
  const cert = identificationCert(wallet, content, 'localhost')
  const result = await signInWithCertificate(db, cert, { requestHostname: 'localhost', allowedDomains: [] })
  if (!result.ok) throw new Error(result.error)
  const request = new Request(BASE_URL)
  const cookie = cookieFrom(await createSession(db, request, result.user.id))
  return { user: result.user, cookie, wallet }
}

/** A response body as loose JSON for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function bodyOf(res: Response): Promise<any> {
  return res.json()
}

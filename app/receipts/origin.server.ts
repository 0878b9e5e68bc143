/**
 * Where a receipt came from, for staff (issue 31): the browser install (a random first-party id in
 * the `rc_install` cookie, mirrored in localStorage by components/install-id.tsx) and the client
 * address. Both are stored as keyed hashes: staff see that two wallets share one, never the value.
 */
import crypto from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { getEnv } from '~/utils/env.server'
import { clientIpFrom, UNKNOWN_IP } from '~/utils/rate-limit.server'
import { INSTALL_COOKIE, isInstallId } from '~/utils/install-id'

export type ReceiptOrigin = { installHash: string | null; addressHash: string | null }

function keyedHash(kind: string, value: string) {
  return crypto.createHmac('sha256', getEnv().SESSION_SECRET).update(`${kind}:${value}`).digest('base64url').slice(0, 22)
}

/**
 * The id travels bare (`rc_install=<id>`, two years, readable by the page's script): the browser
 * keeper reads and writes it so, and so were the cookies set before. createCookie wraps a value as
 * base64 JSON, so this codec takes the wrapping off on the way out and puts it on on the way in.
 */
const installCookie = createCookie(INSTALL_COOKIE, {
  path: '/',
  sameSite: 'lax',
  maxAge: 63072000,
  encode: (wrapped) => JSON.parse(atob(wrapped)) as string,
  decode: (bare) => btoa(JSON.stringify(bare)),
})

export async function readInstallId(request: Request): Promise<string | null> {
  const value: unknown = await installCookie.parse(request.headers.get('Cookie'))
  return isInstallId(value) ? value : null
}

export async function receiptOrigin(request: Request, context: unknown): Promise<ReceiptOrigin> {
  const install = await readInstallId(request)
  const ip = clientIpFrom(context)
  return { installHash: install ? keyedHash('install', install) : null, addressHash: ip === UNKNOWN_IP ? null : keyedHash('address', ip) }
}

/** A Set-Cookie for a new install id when the request has none (pages without JavaScript get one too). */
export async function installCookieHeader(request: Request): Promise<string | null> {
  if (await readInstallId(request)) return null
  return installCookie.serialize(crypto.randomBytes(16).toString('base64url'), { secure: new URL(request.url).protocol === 'https:' })
}

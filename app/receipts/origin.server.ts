/**
 * Where a receipt came from, for staff (issue 31): the browser install (a random first-party id in
 * the `rc_install` cookie, mirrored in localStorage by components/install-id.tsx) and the client
 * address. Both are stored as keyed hashes: staff see that two wallets share one, never the value.
 */
import crypto from 'node:crypto'
import { getEnv } from '~/utils/env.server'
import { clientIpFrom, UNKNOWN_IP } from '~/utils/rate-limit.server'
import { INSTALL_COOKIE, isInstallId } from '~/utils/install-id'

export type ReceiptOrigin = { installHash: string | null; addressHash: string | null }

function keyedHash(kind: string, value: string) {
  return crypto.createHmac('sha256', getEnv().SESSION_SECRET).update(`${kind}:${value}`).digest('base64url').slice(0, 22)
}

export function readInstallId(request: Request): string | null {
  for (const part of (request.headers.get('Cookie') ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === INSTALL_COOKIE) {
      const value = rest.join('=')
      return isInstallId(value) ? value : null
    }
  }
  return null
}

export function receiptOrigin(request: Request, context: unknown): ReceiptOrigin {
  const install = readInstallId(request)
  const ip = clientIpFrom(context)
  return { installHash: install ? keyedHash('install', install) : null, addressHash: ip === UNKNOWN_IP ? null : keyedHash('address', ip) }
}

/** A Set-Cookie for a new install id when the request has none (pages without JavaScript get one too). */
export function installCookieHeader(request: Request): string | null {
  if (readInstallId(request)) return null
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : ''
  return `${INSTALL_COOKIE}=${crypto.randomBytes(16).toString('base64url')}; Path=/; Max-Age=63072000; SameSite=Lax${secure}`
}

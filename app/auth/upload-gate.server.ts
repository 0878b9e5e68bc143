/**
 * Who may send a receipt-sized body (issue 38): 30 unauthenticated 7 MB posts at once had been read
 * whole, 164 MB, before the route answered 401. The Express layer (scripts/server.ts) asks this with
 * the request's headers alone, before it reads a byte of the body: a photo upload needs a live
 * session; the inbound webhook needs to be configured and to carry its four headers, fresh (their
 * signature, over the body too, is checked by the route once the body is read).
 */
import { WEBHOOK_HEADERS, WEBHOOK_MAX_AGE_SECONDS } from '~/ereceipts/webhook.server'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { getSessionUser } from './session.server'

export type UploadGate =
  | { ok: true }
  | { ok: false; status: 401 | 404; error: string }
  /** A page's form without a session: where the page itself would send it. */
  | { ok: false; status: 303; location: string }

const WEBHOOK_PATH = /^\/api\/inbound-email\/?$/i

/** `url` is the request's URL; `headers` its headers. Nothing here reads the body. */
export async function gateUpload(url: URL, headers: Headers, now = new Date()): Promise<UploadGate> {
  if (WEBHOOK_PATH.test(url.pathname)) return gateWebhook(headers, now)
  const user = await getSessionUser(getDb(), new Request(url, { headers: { Cookie: headers.get('Cookie') ?? '' } }), now)
  if (user) return { ok: true }
  if (url.pathname.toLowerCase().startsWith('/api/')) return { ok: false, status: 401, error: 'Not signed in' }
  // Back to the page itself afterwards, never to Remix's data request for it.
  const page = new URLSearchParams(url.search)
  page.delete('_data')
  const search = page.toString()
  return { ok: false, status: 303, location: `/connect-wallet?${new URLSearchParams({ redirectTo: `${url.pathname}${search ? `?${search}` : ''}` })}` }
}

function gateWebhook(headers: Headers, now: Date): UploadGate {
  const env = getEnv()
  if (!env.INBOUND_WEBHOOK_SECRET || !env.INBOUND_DOMAIN) return { ok: false, status: 404, error: 'Inbound e-mail is not configured on this server' }
  const timestamp = headers.get(WEBHOOK_HEADERS.timestamp)?.trim() ?? ''
  const signed = Object.values(WEBHOOK_HEADERS).every((name) => (headers.get(name) ?? '').trim() !== '')
  if (!signed || !/^\d{1,12}$/.test(timestamp)) {
    return { ok: false, status: 401, error: `Invalid or missing signature: send ${Object.values(WEBHOOK_HEADERS).join(', ')}` }
  }
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > WEBHOOK_MAX_AGE_SECONDS) {
    return { ok: false, status: 401, error: 'This delivery was signed more than 5 minutes ago: send it again with a new timestamp and signature' }
  }
  return { ok: true }
}

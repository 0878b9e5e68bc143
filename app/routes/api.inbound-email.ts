import { json, type ActionFunctionArgs } from '@remix-run/node'
import { receiveForwardedEmail, recipientsOf, verifyWebhookSignature } from '~/ereceipts/inbound.server'
import { MAX_EMAIL_BYTES } from '~/ereceipts/message.server'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

/**
 * Issue 21: a mail provider's inbound route posts the raw MIME message here, with the hex
 * HMAC-SHA256 of the body under INBOUND_WEBHOOK_SECRET in `X-Inbound-Signature` and, when it knows
 * it, the envelope recipient in `X-Envelope-To`. The receipt is credited to the address's owner.
 */
export async function action({ request }: ActionFunctionArgs) {
  const secret = getEnv().INBOUND_WEBHOOK_SECRET
  if (!secret || !getEnv().INBOUND_DOMAIN) return json({ error: 'Inbound e-mail is not configured on this server' }, { status: 404 })
  const body = Buffer.from(await request.arrayBuffer())
  if (!verifyWebhookSignature(body, request.headers.get('X-Inbound-Signature'), secret)) {
    return json({ error: 'Invalid or missing signature' }, { status: 401 })
  }
  if (body.length === 0) return json({ error: 'The request body must be the raw e-mail' }, { status: 400 })
  if (body.length > MAX_EMAIL_BYTES) return json({ error: 'This e-mail is too large. E-receipts must be under 5 MB.' }, { status: 413 })
  const result = await receiveForwardedEmail(getDb(), { recipients: await recipientsOf(body, request.headers.get('X-Envelope-To')), raw: body })
  if (!result.ok) {
    const headers: Record<string, string> = result.status === 503 ? { 'Retry-After': '30' } : {}
    return json({ error: result.error }, { status: result.status, headers })
  }
  return json({ receiptId: result.receiptId, status: result.status }, { status: 201 })
}

import { json, type ActionFunctionArgs } from '@remix-run/node'
import { receiveForwardedEmail } from '~/receipts/forwarded.server'
import { MAX_EMAIL_BYTES } from '~/ereceipts/message.server'
import { answerOnce, checkDelivery } from '~/ereceipts/webhook.server'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

/**
 * A mail provider's inbound route posts the raw MIME message here, signed over a timestamp, a
 * delivery token, the recipient and the body (app/ereceipts/webhook.server.ts names the headers).
 * The receipt is credited to the owner of the signed recipient address; a delivery is answered
 * once, and a retry of it gets the same answer.
 */
export async function action({ request }: ActionFunctionArgs) {
  const secret = getEnv().INBOUND_WEBHOOK_SECRET
  if (!secret || !getEnv().INBOUND_DOMAIN) return json({ error: 'Inbound e-mail is not configured on this server' }, { status: 404 })
  const body = Buffer.from(await request.arrayBuffer())
  const check = checkDelivery(request.headers, body, secret)
  if (!check.ok) return json({ error: check.error }, { status: check.status })
  if (body.length === 0) return json({ error: 'The request body must be the raw e-mail' }, { status: 400 })
  if (body.length > MAX_EMAIL_BYTES) return json({ error: 'This e-mail is too large. E-receipts must be under 5 MB.' }, { status: 413 })
  const answer = await answerOnce(getDb(), { delivery: check.delivery, body }, async () => {
    const result = await receiveForwardedEmail(getDb(), { recipients: [check.delivery.recipient], raw: body })
    // A provider's forwarding confirmation is kept for the address's owner; its code and link stay out of the answer.
    if (result.ok && result.kind === 'confirmation') return { status: 200, body: { confirmation: result.provider } }
    if (result.ok) return { status: 201, body: { receiptId: result.receiptId, status: result.status } }
    // Past the owner's rate limit: 429 with Retry-After, which providers' inbound routes retry.
    return { status: result.status, body: { error: result.error }, ...(result.retryAfter !== undefined ? { retryAfter: result.retryAfter } : {}) }
  })
  const retryAfter = answer.retryAfter ?? (answer.status === 503 ? 30 : undefined)
  const headers: Record<string, string> = retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {}
  return json(answer.body, { status: answer.status, headers })
}

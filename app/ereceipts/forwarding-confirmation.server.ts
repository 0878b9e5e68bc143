/**
 * A mail provider's forwarding confirmation (issue 39, decision 110): the mail Gmail sends to a
 * forwarding address before it forwards anything, with a code and a link. Recognised by its exact
 * system sender (forwarding-providers.ts), then proven by the provider's own DKIM signature with
 * the e-receipts' rules (dkim.server.ts: the provider's domain as d=, From signed and aligned, the
 * whole body, a key of 1024 bits or more). A mail that names the sender without that signature is
 * forged and refused. The link is never followed here, and never logged.
 */
import { verifyReceiptSignature, type TxtResolver } from './dkim.server'
import { EReceiptError } from './errors'
import { forwardingProviderFor, readConfirmation, type ForwardingProvider } from './forwarding-providers'
import { duplicatedHeader, duplicatedMimeHeader, looksLikeEmail, messageText, parseMessage, type ParsedMessage } from './message.server'

export type ForwardingConfirmation = {
  provider: ForwardingProvider
  /** sha256 of the verified signature: one mail, one confirmation. */
  signatureId: string
  code: string | null
  link: string | null
  /** The mailbox that asks to forward, as the signed text names it. */
  account: string | null
  /** Every address the signed text names (the forwarding address it was meant for among them). */
  addressesNamed: string[]
}

/**
 * The confirmation in `raw`, verified; null when `raw` is not from a provider's forwarding system
 * (any other mail: a receipt, or something to be refused as one). Throws `forged_confirmation` for
 * a mail from that sender its provider did not sign, and the retryable DNS refusals as they are.
 */
export async function readForwardingConfirmation(
  raw: Buffer,
  opts: { resolver: TxtResolver; now?: Date; deadline?: number },
): Promise<ForwardingConfirmation | null> {
  if (!looksLikeEmail(raw)) return null
  let message: ParsedMessage
  try {
    message = await parseMessage(raw)
  } catch {
    // Not readable as a confirmation; the receipt path refuses it with the reason.
    return null
  }
  const provider = forwardingProviderFor(message.fromAddress)
  if (!provider) return null
  if (duplicatedHeader(message.email) || duplicatedMimeHeader(message.email)) throw new EReceiptError('forged_confirmation', { provider: provider.id })
  let signature
  try {
    signature = await verifyReceiptSignature(raw, { senders: [provider], resolver: opts.resolver, now: opts.now, deadline: opts.deadline })
  } catch (error) {
    if (error instanceof EReceiptError && error.status === 503) throw error
    throw new EReceiptError('forged_confirmation', { provider: provider.id, why: error instanceof EReceiptError ? error.code : 'error' })
  }
  const text = [message.email.text ?? '', messageText(message.email)].join('\n')
  const hrefs = [...(message.email.html ?? '').matchAll(/href\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1].replace(/&amp;/g, '&'))
  const signedSubject = signature.signedHeaders.includes('subject') ? (message.email.subject ?? null) : null
  const fields = readConfirmation(provider, { text, hrefs, signedSubject })
  const addressesNamed = [...new Set((text.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) ?? []).map((a) => a.toLowerCase()))]
  return { provider, signatureId: signature.signatureId, ...fields, addressesNamed }
}

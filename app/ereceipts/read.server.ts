/**
 * The e-mail reader: an uploaded or forwarded e-mail → the signed text of the original receipt and
 * what its DKIM signature proves (issue 21). It finds the original (unwrapping a forward sent as an
 * attachment), refuses a repeated header, verifies the signature of a registered sender, and reports
 * only what the signature covers: the Subject, To and Date count only when signed. What the text
 * means (a trip? which fields?) is for the receipt rules (app/analysis/email-analysis.server.ts).
 */
import crypto from 'node:crypto'
import { verifyReceiptSignature, type TxtResolver } from './dkim.server'
import { EReceiptError } from './errors'
import { duplicatedHeader, duplicatedMimeHeader, findOriginal, messageText, parseMessage } from './message.server'
import { senderFor, type SenderEntry } from './sender-domains'

export type EmailReadOptions<T extends SenderEntry> = {
  senders: readonly T[]
  resolver: TxtResolver
  now?: Date
  /** Epoch ms past which no key is looked up any more: the analysis time limit photos have too. */
  deadline?: number
}

export type EmailReading<T extends SenderEntry> = {
  /** The receipt's text as a reader sees it (the HTML part laid out as text). */
  text: string
  /** The registered sender whose domain signed. */
  sender: T
  /** The d= domain, e.g. "uber.com" or "mgt.uber.com". */
  domain: string
  /** sha256 of the signature bytes: one e-mail, one key. */
  signatureId: string
  signedHeaders: string[]
  /** x= passed (crypto verified; accepted for a receipt inside the window). */
  signatureExpired: boolean
  /** The Subject when the signature covers it, else null. */
  signedSubject: string | null
  /** The Date header when the signature covers it and it parses (ISO), else null. */
  signedSentAt: string | null
  /** The first To address when the signature covers To, else null: an unsigned To can be anyone's. */
  signedRecipient: string | null
  /** Whether there is a To at all, signed or not. */
  hasRecipient: boolean
  /** As printed, for staff (none of these decide anything). */
  subject: string | null
  from: string | null
  sentAt: string | null
  /** The original arrived attached to a forward. */
  forwarded: boolean
  verifyMs: number
}

export async function readEmail<T extends SenderEntry>(raw: Buffer, opts: EmailReadOptions<T>): Promise<EmailReading<T>> {
  const t0 = performance.now()
  const outer = await parseMessage(raw)
  const original = await findOriginal(outer, (m) => m.fromDomain !== null && senderFor(opts.senders, m.fromDomain) !== null)
  const repeated = duplicatedHeader(original.email)
  if (repeated) throw new EReceiptError('duplicate_header', { header: repeated })
  const mimeRepeated = duplicatedMimeHeader(original.email)
  if (mimeRepeated) throw new EReceiptError('malformed', { header: mimeRepeated })
  const signature = await verifyReceiptSignature(original.raw, opts)
  const signed = (name: string) => signature.signedHeaders.includes(name)
  const recipient = original.email.to?.flatMap((a) => ('address' in a && a.address ? [a.address] : []))[0] ?? null
  const date = original.email.date ?? null
  return {
    text: messageText(original.email),
    sender: signature.sender,
    domain: signature.domain,
    signatureId: signature.signatureId,
    signedHeaders: signature.signedHeaders,
    signatureExpired: signature.expired,
    signedSubject: signed('subject') ? (original.email.subject ?? null) : null,
    signedSentAt: signed('date') && date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString() : null,
    signedRecipient: signed('to') ? recipient : null,
    hasRecipient: recipient !== null,
    subject: original.email.subject ?? null,
    from: original.fromAddress,
    sentAt: date,
    forwarded: original !== outer,
    verifyMs: performance.now() - t0,
  }
}

/** Mailboxes are kept only as a hash: enough to bind one to a wallet, not to show it again. */
export function mailboxHash(address: string): string {
  return crypto.createHash('sha256').update(`recircle-mailbox:${address.trim().toLowerCase()}`).digest('hex')
}

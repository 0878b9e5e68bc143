/**
 * An e-mail → its analysis (issue 21): find the original receipt message, verify its sender's
 * DKIM signature, then read the fields from the signed text with the same extraction rules as a
 * photo. The service comes from the verified domain, never from the text.
 */
import crypto from 'node:crypto'
import { extractReceipt } from '~/receipts/extract'
import { findReferenceNumber } from '~/receipts/reference'
import { toAnalysis } from '~/receipts/analyze.server'
import type { EReceiptFacts, FreshAnalysis } from '~/receipts/stored-analysis'
import { getEnv } from '~/utils/env.server'
import { createResolver, verifyReceiptSignature, type TxtResolver } from './dkim.server'
import { EReceiptError } from './errors'
import { duplicatedHeader, duplicatedMimeHeader, findOriginal, messageText, parseMessage } from './message.server'
import { parseSenderConfig, senderFor, senderTable, type SenderTable } from './senders'
import { classifyMessage } from './trip-kind'
import { judgeEReceipt } from './verdict'

export type EReceiptOptions = {
  senders?: SenderTable
  resolver?: TxtResolver
  now?: Date
  /** Epoch ms past which no key is looked up any more: the analysis time limit photos have too. */
  deadline?: number
}

let defaults: { env: object; senders: SenderTable; resolver: TxtResolver } | null = null

/** The sender table and resolver from the environment (ERECEIPT_SENDERS, DNS_SERVERS), built once per environment. */
export function eReceiptDefaults() {
  const env = getEnv()
  if (defaults?.env !== env) {
    defaults = { env, senders: senderTable(parseSenderConfig(env.ERECEIPT_SENDERS)), resolver: createResolver(env.DNS_SERVERS) }
  }
  return defaults
}

export async function analyzeEReceipt(raw: Buffer, opts: EReceiptOptions = {}): Promise<FreshAnalysis> {
  const t0 = performance.now()
  const senders = opts.senders ?? eReceiptDefaults().senders
  const resolver = opts.resolver ?? eReceiptDefaults().resolver
  const outer = await parseMessage(raw)
  const original = await findOriginal(outer, (m) => m.fromDomain !== null && senderFor(senders, m.fromDomain) !== null)
  const repeated = duplicatedHeader(original.email)
  if (repeated) throw new EReceiptError('duplicate_header', { header: repeated })
  const mimeRepeated = duplicatedMimeHeader(original.email)
  if (mimeRepeated) throw new EReceiptError('malformed', { header: mimeRepeated })
  const signature = await verifyReceiptSignature(original.raw, { senders, resolver, now: opts.now, deadline: opts.deadline })
  const t1 = performance.now()

  const text = messageText(original.email)
  const lines = text.split(/\r?\n/).filter((l) => l.trim()).map((l) => ({ text: l, confidence: 100 }))
  // The service is the verified signer's, never a name the text prints; car rentals still need an
  // EV shown in the signed text.
  const fields = extractReceipt({ text: lines.map((l) => l.text).join('\n'), lines, confidence: 100 }, { vendor: signature.vendor })
  if (fields.totalAmount === null && fields.purchaseDate === null) throw new EReceiptError('not_a_receipt')
  // The subject counts only when signed: an unsigned one could be rewritten to look like a trip.
  const subject = signature.signedHeaders.includes('subject') ? (original.email.subject ?? null) : null
  const kind = classifyMessage({ subject, text })
  if (kind.kind !== 'trip') throw new EReceiptError(kind.kind === 'not_a_trip' ? 'not_a_receipt' : kind.kind, { evidence: kind.evidence })

  // Only a signed To names the rider's mailbox: an unsigned one can be rewritten to anyone's.
  const recipientSigned = signature.signedHeaders.includes('to')
  const recipient = original.email.to?.flatMap((a) => ('address' in a && a.address ? [a.address] : []))[0] ?? null
  const dateSigned = signature.signedHeaders.includes('date') && original.email.date ? original.email.date : null
  const verdict = judgeEReceipt(fields, {
    signedSentAt: dateSigned && !Number.isNaN(Date.parse(dateSigned)) ? new Date(dateSigned).toISOString() : null,
    recipientSigned: recipient !== null && recipientSigned,
  })
  const reference = findReferenceNumber(text)
  const ereceipt: EReceiptFacts = {
    domain: signature.domain,
    signatureId: signature.signatureId,
    tripKey: reference ? `${signature.vendor.name}:${reference}` : null,
    recipientHash: recipient && recipientSigned ? mailboxHash(recipient) : null,
    signatureExpired: signature.expired,
    signedHeaders: signature.signedHeaders,
    subject: original.email.subject ?? null,
    from: original.fromAddress,
    sentAt: original.email.date ?? null,
    forwarded: original !== outer,
  }
  const totalMs = Math.round(performance.now() - t0)
  const timings = { validateMs: Math.round(t1 - t0), preprocessMs: 0, ocrMs: 0, extractMs: totalMs - Math.round(t1 - t0), totalMs }
  return {
    ...toAnalysis(fields, verdict, { text }, timings, { reader: 'email', other: null }),
    verifiedSender: signature.domain,
    ereceipt,
  }
}

/** Mailboxes are kept only as a hash: enough to bind one to a wallet, not to show it again. */
export function mailboxHash(address: string): string {
  return crypto.createHash('sha256').update(`recircle-mailbox:${address.trim().toLowerCase()}`).digest('hex')
}

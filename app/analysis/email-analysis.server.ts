/**
 * An e-mail → its analysis (issue 21): the e-mail reader (app/ereceipts/read.server.ts) proves who
 * sent it and hands over the signed text; here the same extraction rules as a photo read its fields,
 * the trip rule decides whether it is a completed trip at all (decision 102), and the e-receipt
 * verdict decides. The service is the verified signer's, never a name the text prints.
 */
import { createResolver, type TxtResolver } from '~/ereceipts/dkim.server'
import { EReceiptError } from '~/ereceipts/errors'
import { mailboxHash, readEmail } from '~/ereceipts/read.server'
import { getEnv } from '~/utils/env.server'
import { toAnalysis, tripMomentOf } from './to-analysis'
import { judgeEReceipt } from './email-verdict'
import { extractReceipt, hasTotal, type ExtractedReceipt } from './extract'
import { findReferenceNumber } from './reference'
import { parseSenderConfig, senderTable, type SenderTable } from './senders'
import type { EReceiptFacts, FreshAnalysis } from './stored-analysis'
import { classifyMessage } from './trip-kind'
import type { Vendor } from './vendors'

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

/**
 * An e-mail's text → its fields by the extraction rules, refused unless it is a completed trip
 * (decision 102). `vendor` when the sender is known (a verified signer); else it is searched for as
 * on a photo. The inline forward's reading uses it too (inline-forward.server.ts).
 */
export function emailFields(text: string, known: { vendor?: Vendor; subject: string | null }): ExtractedReceipt {
  const lines = text.split(/\r?\n/).filter((l) => l.trim()).map((l) => ({ text: l, confidence: 100 }))
  // Car rentals still need an EV shown in the text.
  const fields = extractReceipt({ text: lines.map((l) => l.text).join('\n'), lines, confidence: 100 }, { vendor: known.vendor })
  if (!hasTotal(fields) && fields.purchaseDate === null) throw new EReceiptError('not_a_receipt')
  const kind = classifyMessage({ subject: known.subject, text })
  if (kind.kind !== 'trip') throw new EReceiptError(kind.kind === 'not_a_trip' ? 'not_a_receipt' : kind.kind, { evidence: kind.evidence })
  return fields
}

export async function analyzeEReceipt(raw: Buffer, opts: EReceiptOptions = {}): Promise<FreshAnalysis> {
  const t0 = performance.now()
  const reading = await readEmail(raw, {
    senders: opts.senders ?? eReceiptDefaults().senders,
    resolver: opts.resolver ?? eReceiptDefaults().resolver,
    now: opts.now,
    deadline: opts.deadline,
  })
  const vendor = reading.sender.vendor
  const text = reading.text
  const fields = emailFields(text, { vendor, subject: reading.signedSubject })

  const verdict = judgeEReceipt(fields, { signedSentAt: reading.signedSentAt, recipientSigned: reading.signedRecipient !== null })
  const reference = findReferenceNumber(text)
  const ereceipt: EReceiptFacts = {
    domain: reading.domain,
    signatureId: reading.signatureId,
    tripKey: reference ? `${vendor.name}:${reference}` : null,
    tripMoment: tripMomentOf(vendor.name, text),
    // Only a signed To names the rider's mailbox.
    recipientHash: reading.signedRecipient ? mailboxHash(reading.signedRecipient) : null,
    signatureExpired: reading.signatureExpired,
    signedHeaders: reading.signedHeaders,
    subject: reading.subject,
    from: reading.from,
    sentAt: reading.sentAt,
    forwarded: reading.forwarded,
  }
  const totalMs = Math.round(performance.now() - t0)
  const validateMs = Math.round(reading.verifyMs)
  const timings = { validateMs, preprocessMs: 0, ocrMs: 0, extractMs: totalMs - validateMs, totalMs }
  return {
    ...toAnalysis(fields, verdict, { text }, timings, { reader: 'email', other: null }),
    verifiedSender: reading.domain,
    ereceipt,
  }
}

/**
 * An inline forward → a photo-like analysis (issue 39, decision 110). Phone mail apps (the Gmail
 * app, iPhone Mail, the Outlook app) forward a receipt by quoting its text in a new message, which
 * drops the service's DKIM signature: nothing in it can be verified. It is read anyway, with the
 * e-mail's extraction and trip rules (email-analysis.server.ts `emailFields`), and kept as an
 * analysis with no verified sender and no e-receipt facts, so the submission treats it as it treats
 * a photo: paid at once only to a wallet with standing, never claimed as a verified e-receipt.
 */
import { EReceiptError } from '~/ereceipts/errors'
import { messageText, parseMessage } from '~/ereceipts/message.server'
import { eReceiptDefaults, emailFields } from './email-analysis.server'
import { judgeInlineForward, quotedOriginal } from './inline-forward'
import { senderFor, type SenderTable } from './senders'
import type { FreshAnalysis } from './stored-analysis'
import { toAnalysis } from './to-analysis'

export async function analyzeInlineForward(raw: Buffer, opts: { senders?: SenderTable } = {}): Promise<FreshAnalysis & { inlineForward: true }> {
  const t0 = performance.now()
  const outer = await parseMessage(raw)
  const quoted = quotedOriginal(messageText(outer.email))
  if (!quoted || !quoted.text) throw new EReceiptError('not_a_receipt')
  // The quoted From names the service only as printed; it picks the extraction's vendor, as a
  // logo does on a photo, and proves nothing.
  const sender = quoted.fromDomain ? senderFor(opts.senders ?? eReceiptDefaults().senders, quoted.fromDomain) : null
  const fields = emailFields(quoted.text, { vendor: sender?.vendor, subject: quoted.subject })
  const verdict = judgeInlineForward(fields)
  const totalMs = Math.round(performance.now() - t0)
  const timings = { validateMs: 0, preprocessMs: 0, ocrMs: 0, extractMs: totalMs, totalMs }
  return { ...toAnalysis(fields, verdict, { text: quoted.text }, timings, { reader: 'email', other: null }), inlineForward: true }
}

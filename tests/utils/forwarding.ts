/**
 * Mail that reaches a rider's forwarding address when they set up automatic forwarding (issue 39):
 * Gmail's forwarding confirmation, signed by google.com with a test key the local DNS server
 * publishes (a forged one unsigned or signed by another domain), and a receipt relayed by Gmail's
 * automatic forwarding: the original unchanged under the headers Gmail adds.
 */
import crypto from 'node:crypto'
import MailComposer from 'nodemailer/lib/mail-composer/index.js'
import type { DkimDns } from './dkim-dns'
import { publishKey, signMessage, testKey } from './ereceipts'

export const GOOGLE_SELECTOR = '20230601'

export type ConfirmationOptions = {
  /** The forwarding address Gmail was given (the rider's ReCircle address). */
  to: string
  /** The Gmail account that asks to forward. */
  account?: string
  code?: string
  link?: string
  /** Who signs: google.com (genuine), another domain, or nobody. */
  signedBy?: string | null
  from?: string
}

export function confirmationLink(): string {
  return `https://mail-settings.google.com/mail/vf-%5BANGjdJ_${crypto.randomBytes(18).toString('base64url')}%5D-${crypto.randomBytes(8).toString('hex')}`
}

/** Gmail's forwarding confirmation as Gmail words it (text and HTML), signed by `signedBy`. */
export async function gmailConfirmation(dns: DkimDns, opts: ConfirmationOptions): Promise<Buffer> {
  const account = opts.account ?? 'sam.rider@gmail.com'
  const code = opts.code ?? String(100_000_000 + crypto.randomInt(899_999_999))
  const link = opts.link ?? confirmationLink()
  const text = [
    `${account} has requested to automatically forward mail to your email`,
    `address ${opts.to}.`,
    `Confirmation code: ${code}`,
    '',
    `To allow ${account} to automatically forward mail to your address,`,
    'please click the link below to confirm the request:',
    '',
    link,
    '',
    'If you click the link and it appears to be broken, please copy and paste it',
    'into a new browser window. If you aren\'t able to access the link, you',
    `can send the confirmation code ${code} to ${account}.`,
    '',
    'Thanks for using Gmail!',
    '',
    'Sincerely,',
    '',
    'The Gmail Team',
    '',
    `If you do not approve of this request, no further action is required.`,
    `${account} cannot automatically forward messages to your email address`,
    'unless you confirm the request by clicking the link above.',
  ].join('\n')
  const html = `<p>${account} has requested to automatically forward mail to your email address <b>${opts.to}</b>.<br>Confirmation code: ${code}</p>
<p>To allow ${account} to automatically forward mail to your address, please click the link below to confirm the request:</p>
<p><a href="${link.replace(/&/g, '&amp;')}">${link}</a></p><p>Thanks for using Gmail!</p><p>Sincerely,<br>The Gmail Team</p>`
  const composer = new MailComposer({
    from: opts.from ?? 'Gmail Team <forwarding-noreply@google.com>',
    to: opts.to,
    subject: `(#${code}) Gmail Forwarding Confirmation - Receive Mail from ${account}`,
    date: new Date(),
    messageId: `<${crypto.randomUUID()}@google.com>`,
    text,
    html,
  })
  const raw = await composer.compile().build()
  const signer = opts.signedBy === undefined ? 'google.com' : opts.signedBy
  if (signer === null) return raw
  const keys = testKey(signer)
  publishKey(dns, signer, GOOGLE_SELECTOR, keys)
  return signMessage(raw, {
    domain: signer,
    selector: GOOGLE_SELECTOR,
    privateKey: keys.privateKey,
    headerList: ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type'],
  })
}

/**
 * A receipt as Gmail's automatic forwarding relays it to `to`: the original bytes, signature and
 * all, under the trace headers Gmail adds (no new From, To or Subject, no new DKIM signature).
 */
export function autoForwarded(original: Buffer, opts: { mailbox: string; to: string }): Buffer {
  const added = [
    `Received: by 2002:a05:7300:5b8f:b0:1a1:2b3c:4d5e with SMTP id p15csp123456dyd; ${new Date().toUTCString()}`,
    `X-Forwarded-To: ${opts.to}`,
    `X-Forwarded-For: ${opts.mailbox} ${opts.to}`,
    `Delivered-To: ${opts.mailbox}`,
    `ARC-Seal: i=1; a=rsa-sha256; t=${Math.floor(Date.now() / 1000)}; cv=none; d=google.com; s=arc-20240605; b=${crypto.randomBytes(64).toString('base64')}`,
    `ARC-Authentication-Results: i=1; mx.google.com; dkim=pass header.i=@uber.com; spf=pass; dmarc=pass`,
    `Return-Path: <${opts.mailbox.replace('@', `+caf_=${opts.to.replace('@', '=')}@`)}>`,
  ]
  return Buffer.concat([Buffer.from(`${added.join('\r\n')}\r\n`), original])
}

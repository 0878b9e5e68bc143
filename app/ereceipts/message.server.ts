/**
 * An uploaded or forwarded e-mail → the original receipt message (issue 21). Bounds every input
 * before and while parsing (postal-mime's nesting and header limits), unwraps a receipt forwarded as
 * an attachment, and tells an inline forward (whose signature is lost) from a receipt.
 */
import PostalMime, { type Email } from 'postal-mime'
import { htmlToText } from 'html-to-text'
import { EReceiptError } from './errors'

/** Same cap as a photo: an e-receipt is a few dozen kilobytes. */
export const MAX_EMAIL_BYTES = 5 * 1024 * 1024
/** The top-level header section; real receipts carry 5–20 KB (long Received and ARC chains). */
export const MAX_HEADER_BYTES = 64 * 1024
const MAX_NESTING = 16
const MAX_PARTS = 40
/** A forward of a forward of the receipt at most. */
const MAX_UNWRAP = 2

export type ParsedMessage = {
  raw: Buffer
  email: Email
  fromAddress: string | null
  fromDomain: string | null
}

const KNOWN_HEADER = /^(?:from|received|dkim-signature|return-path|delivered-to|mime-version|date|message-id|to|subject|x-[\w-]+|arc-[\w-]+|authentication-results):/im

/** Magic-free sniff: an RFC 5322 message starts with header fields ("Name: value"). */
export function looksLikeEmail(buf: Buffer): boolean {
  const head = buf.subarray(0, 4096).toString('latin1')
  // A first header field longer than the sniffed part (issue 39: a 70 KB one) is still an e-mail,
  // to be refused as one ("its header section is too large"), not as a picture.
  if (!/[\r\n]/.test(head) && new RegExp(KNOWN_HEADER.source, 'i').test(head)) return true
  if (!/^(?:[\x21-\x39\x3b-\x7e]+:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*){2,}/.test(head)) return false
  return KNOWN_HEADER.test(head)
}

/** Bytes before the blank line that ends the header section (the whole message when there is none). */
export function headerSectionLength(raw: Buffer): number {
  const crlf = raw.indexOf('\r\n\r\n')
  const lf = raw.indexOf('\n\n')
  const ends = [crlf, lf].filter((i) => i >= 0)
  return ends.length ? Math.min(...ends) : raw.length
}

export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  if (raw.length > MAX_EMAIL_BYTES) throw new EReceiptError('too_large')
  if (headerSectionLength(raw) > MAX_HEADER_BYTES) throw new EReceiptError('headers_too_large')
  let email: Email
  try {
    email = await PostalMime.parse(raw, {
      forceRfc822Attachments: true,
      attachmentEncoding: 'arraybuffer',
      maxNestingDepth: MAX_NESTING,
      maxHeadersSize: MAX_HEADER_BYTES * 2,
    })
  } catch {
    throw new EReceiptError('malformed')
  }
  if (email.attachments.length > MAX_PARTS) throw new EReceiptError('too_many_parts')
  if (!email.from?.address && email.headers.every((h) => h.key !== 'from')) throw new EReceiptError('malformed')
  // A group ("undisclosed: ;") has no address of its own.
  const from = email.from && 'address' in email.from ? (email.from.address ?? null) : null
  const fromAddress = from?.toLowerCase() ?? null
  return { raw, email, fromAddress, fromDomain: domainOf(fromAddress) }
}

export function domainOf(address: string | null | undefined): string | null {
  const at = address?.lastIndexOf('@') ?? -1
  return address && at > 0 ? address.slice(at + 1).toLowerCase().replace(/[>\s]+$/, '') : null
}

/** Attached messages (a receipt forwarded "as attachment"), outermost first. */
function attachedMessages(email: Email): Buffer[] {
  return email.attachments
    .filter((a) => a.mimeType === 'message/rfc822' || /\.eml$/i.test(a.filename ?? ''))
    .map((a) => (typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : Buffer.from(a.content as ArrayBuffer)))
}

const INLINE_FORWARD = /-{2,}\s*Forwarded message\s*-{2,}|Begin forwarded message:|-{2,}\s*Original Message\s*-{2,}|^\s*From:.*\r?\n\s*(?:Sent|Date):/im

/**
 * The message that carries the sender's signature: the upload itself when its sender is `accept`ed,
 * otherwise the first attached message that is. An inline forward gets its own error.
 */
export async function findOriginal(outer: ParsedMessage, accept: (m: ParsedMessage) => boolean): Promise<ParsedMessage> {
  let candidates: ParsedMessage[] = [outer]
  for (let depth = 0; depth <= MAX_UNWRAP; depth++) {
    const hit = candidates.find(accept)
    if (hit) return hit
    const next: ParsedMessage[] = []
    for (const message of candidates) {
      for (const raw of attachedMessages(message.email)) next.push(await parseMessage(raw))
    }
    if (next.length === 0) break
    candidates = next
  }
  if (INLINE_FORWARD.test(messageText(outer.email))) throw new EReceiptError('inline_forward')
  throw new EReceiptError('unknown_sender', { domain: outer.fromDomain })
}

/** The message's text as a reader sees it: the HTML part laid out as text, else the plain part. */
export function messageText(email: Email): string {
  if (email.html) {
    return htmlToText(email.html, {
      wordwrap: false,
      // Receipts lay out label and amount in table cells: keep a row on one line.
      selectors: [
        { selector: 'table', format: 'dataTable' },
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
      ],
      limits: { maxInputLength: MAX_EMAIL_BYTES },
    })
  }
  return email.text ?? ''
}

/** RFC 5322 allows one of each; a second From/To/Subject/Date is how a signed header gets shadowed. */
export function duplicatedHeader(email: Email): string | null {
  return repeated(email, ['from', 'to', 'subject', 'date'])
}

/**
 * RFC 2045 allows one of each too. With two, DKIM canonicalises the last copy and the MIME parser
 * reads the first, so the text we read need not be the text that was signed.
 */
export function duplicatedMimeHeader(email: Email): string | null {
  return repeated(email, ['content-type', 'content-transfer-encoding', 'mime-version'])
}

function repeated(email: Email, names: string[]): string | null {
  return names.find((name) => email.headers.filter((h) => h.key === name).length > 1) ?? null
}

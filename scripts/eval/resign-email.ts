/**
 * For evaluating the e-mail reader offline (eval-receipts.ts --resign): real DKIM keys cannot be
 * looked up without the network, so each e-mail is signed again with a fresh test key for its own
 * From domain, published on a local DNS server (tests/utils/dkim-dns.ts). Its own DKIM-Signature
 * fields are removed first; the new signature covers the same header fields, with the same t= and
 * x=, as the sender's aligned signature did. This checks the reading only, never a signature.
 */
import { domainOf, findOriginal, parseMessage } from '~/ereceipts/message.server'
import { domainWithin, senderFor } from '~/ereceipts/sender-domains'
import type { SenderTable } from '~/analysis/senders'
import type { DkimDns } from '../../tests/utils/dkim-dns'
import { publishKey, signMessage, testKey } from '../../tests/utils/ereceipts'

export const RESIGN_SELECTOR = 'eval'

/** Header fields signed when the e-mail carried no signature to copy them from. */
const DEFAULT_SIGNED_HEADERS = ['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type']

export type Resigned = {
  raw: Buffer
  /** The d= of the new signature, or null when the e-mail has no From domain (left unsigned). */
  domain: string | null
  /** The original was attached to a forward: only it is signed and returned. */
  unwrapped: boolean
}

type Field = { name: string; text: string }

/** The top-level header section as fields (each with its folded lines) and the rest of the message. */
function splitHeader(raw: Buffer): { fields: Field[]; eol: string; body: Buffer } {
  const crlf = raw.indexOf('\r\n\r\n')
  const lf = raw.indexOf('\n\n')
  const useCrlf = crlf >= 0 && (lf < 0 || crlf <= lf)
  const end = useCrlf ? crlf : lf >= 0 ? lf : raw.length
  const eol = useCrlf ? '\r\n' : '\n'
  const lines = raw.subarray(0, end).toString('latin1').split(/\r?\n/)
  const fields: Field[] = []
  for (const line of lines) {
    if (/^[ \t]/.test(line) && fields.length > 0) fields[fields.length - 1].text += eol + line
    else fields.push({ name: line.slice(0, Math.max(0, line.indexOf(':'))).trim().toLowerCase(), text: line })
  }
  return { fields, eol, body: raw.subarray(end) }
}

/** The tags of one DKIM-Signature field: { d, s, h, t, x, ... }. */
export function signatureTags(fieldText: string): Record<string, string> {
  const value = fieldText.slice(fieldText.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ')
  const tags: Record<string, string> = {}
  for (const part of value.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0) tags[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).replace(/\s+/g, '')
  }
  return tags
}

/** The message without its top-level DKIM-Signature fields, and the tags of those it had. */
export function stripDkimSignatures(raw: Buffer): { raw: Buffer; signatures: Array<Record<string, string>> } {
  const { fields, eol, body } = splitHeader(raw)
  const kept = fields.filter((f) => f.name !== 'dkim-signature')
  const signatures = fields.filter((f) => f.name === 'dkim-signature').map((f) => signatureTags(f.text))
  return { raw: Buffer.concat([Buffer.from(kept.map((f) => f.text).join(eol), 'latin1'), body]), signatures }
}

const aligned = (a: string, b: string) => domainWithin(a, b) || domainWithin(b, a)

/**
 * Signs `raw` again for its From domain (the attached original of a forward, when the reader would
 * read that one), with a key published on `dns` under RESIGN_SELECTOR.
 */
export async function resignEmail(raw: Buffer, dns: DkimDns, senders: SenderTable): Promise<Resigned> {
  let message = raw
  let unwrapped = false
  let fromDomain: string | null = null
  try {
    const outer = await parseMessage(raw)
    const original = await findOriginal(outer, (m) => m.fromDomain !== null && senderFor(senders, m.fromDomain) !== null)
    unwrapped = original !== outer
    message = original.raw
    fromDomain = original.fromDomain
  } catch {
    // Not from a registered sender (or unreadable): sign it as it is; the reader says why not.
    fromDomain = domainOf(/^from:.*<([^>]+)>|^from:\s*(\S+@\S+)/im.exec(raw.toString('latin1'))?.slice(1).find(Boolean) ?? null)
  }
  const stripped = stripDkimSignatures(message)
  if (!fromDomain) return { raw: stripped.raw, domain: null, unwrapped }
  // Copy what the sender's own (aligned) signature covered, so an unsigned Date or To stays unsigned.
  const own = stripped.signatures.find((s) => s.d && aligned(s.d.toLowerCase(), fromDomain))
  const domain = own?.d ? own.d.toLowerCase() : fromDomain
  const headerList = own?.h ? [...new Set(own.h.split(':').map((h) => h.trim().toLowerCase()).filter(Boolean))] : DEFAULT_SIGNED_HEADERS
  if (!headerList.includes('from')) headerList.unshift('from')
  const seconds = (tag: string | undefined) => (tag && /^\d+$/.test(tag) ? new Date(Number(tag) * 1000) : undefined)
  const keys = testKey(`resign:${domain}`)
  publishKey(dns, domain, RESIGN_SELECTOR, keys)
  const signed = await signMessage(stripped.raw, {
    domain,
    selector: RESIGN_SELECTOR,
    privateKey: keys.privateKey,
    headerList,
    signTime: seconds(own?.t),
    expires: seconds(own?.x),
  })
  return { raw: signed, domain, unwrapped }
}

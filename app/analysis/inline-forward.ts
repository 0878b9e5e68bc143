/**
 * Pure (issue 39): a receipt forwarded inline, as every phone mail app forwards, → the original's
 * quoted text, and the verdict on what was read from it. Its text is the rider's copy, not the
 * service's signed one, so it is judged like a photo (decision 110): never a verified e-receipt,
 * checked by staff while the wallet has no standing.
 *
 * The forward blocks of the three phone apps (and their desktop cousins):
 *   Gmail app      "---------- Forwarded message ---------" then From:, Date:, Subject:, To:
 *   iPhone Mail    "Begin forwarded message:" then From:, Subject:, Date:, To: (quoted with ">" in HTML)
 *   Outlook app    a rule of underscores, then From:, Sent:, To:, Subject:
 */
import { ERECEIPT_REASONS } from './email-verdict'
import { hasTotal, type ExtractedReceipt } from './extract'
import type { Verdict } from './verdict'

export const INLINE_FORWARD_REASON = 'Forwarded inline: its sender could not be verified.'

export type QuotedOriginal = {
  /** The quoted From, as the rider's app printed it (anyone can type it). */
  from: string | null
  fromDomain: string | null
  subject: string | null
  date: string | null
  /** The original's text, below its header block. */
  text: string
}

const MARKERS = [/^-{2,}\s*Forwarded message\s*-{2,}/i, /^Begin forwarded message:?/i, /^-{2,}\s*Original Message\s*-{2,}/i, /^_{8,}$/]
const HEADER = /^(From|Sent|Date|To|Cc|Subject|Reply-To)\s*:\s*(.*)$/i

/** A quoted line as the reader sees it: without "> " quoting, bold stars and outer spaces. */
function clean(line: string): string {
  return line
    .replace(/^(?:\s*>)+\s?/, '')
    .replace(/\u00a0/g, ' ')
    .replace(/^\*([A-Za-z-]+:)\*/, '$1')
    .trim()
}

/** The original quoted in an inline forward, or null when the text has no forward block. */
export function quotedOriginal(text: string): QuotedOriginal | null {
  const lines = text.split(/\r?\n/).map(clean)
  let start = lines.findIndex((l) => MARKERS.some((m) => m.test(l)))
  if (start >= 0) start += 1
  else {
    // Outlook without its rule: "From:" followed closely by "Sent:" or "Date:".
    start = lines.findIndex((l, i) => /^From\s*:/i.test(l) && lines.slice(i + 1, i + 4).some((n) => /^(Sent|Date)\s*:/i.test(n)))
    if (start < 0) return null
  }
  const headers: Record<string, string> = {}
  let i = start
  while (i < lines.length && lines[i] === '') i++
  for (; i < lines.length; i++) {
    const match = HEADER.exec(lines[i])
    if (!match) break
    const name = match[1].toLowerCase()
    if (!(name in headers)) headers[name] = match[2].trim()
  }
  if (!headers.from) return null
  const from = headers.from
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(from)?.[1] ?? /([^\s<>()"]+@[^\s<>()"]+)/.exec(from)?.[1] ?? null
  const at = address?.lastIndexOf('@') ?? -1
  return {
    from,
    fromDomain: address && at > 0 ? address.slice(at + 1).toLowerCase().replace(/[.>]+$/, '') : null,
    subject: headers.subject ?? null,
    date: headers.date ?? headers.sent ?? null,
    text: lines.slice(i).join('\n').trim(),
  }
}

/**
 * What was read from an inline forward, judged like a clean photo of the receipt: an eligible
 * service with a total and a date may be approved (for a wallet with standing: the submission
 * decides), anything short of that goes to staff, and a merchant that is no transport is refused.
 * The reason that it is unverified comes last, so a refusal's own reason stays first.
 */
export function judgeInlineForward(fields: ExtractedReceipt): Verdict {
  const vendor = fields.vendor
  const base = { isValid: true }
  if (vendor && vendor.kind !== 'transport' && vendor.kind !== 'car_rental') {
    return {
      ...base,
      confidence: 1,
      isAcceptable: false,
      needsManualReview: false,
      reasons: [`${vendor.name} is not a sustainable transport service: only rides, transit, electric vehicle rentals and e-scooter or bike trips earn B3TR.`, INLINE_FORWARD_REASON],
    }
  }
  const reasons: string[] = []
  if (!vendor) reasons.push('The transport service could not be recognised: sent to manual review')
  else if (fields.category === null) reasons.push(ERECEIPT_REASONS.notElectric)
  // A lone priced amount is no total (hasTotal): forwarded text names its total, as a sender's mail does.
  if (!hasTotal(fields)) reasons.push(ERECEIPT_REASONS.noTotal)
  if (fields.purchaseDate === null) reasons.push(ERECEIPT_REASONS.noDate)
  const ok = reasons.length === 0
  return { ...base, confidence: ok ? 1 : 0.5, isAcceptable: ok, needsManualReview: !ok, reasons: [...reasons, INLINE_FORWARD_REASON] }
}

/**
 * Pure (issue 32): what the user can do about a refusal. A retry button only where a retry can
 * help: a busy reader or a DNS hiccup (later), a photo that did not read (another photo). A forged
 * or unverifiable e-mail, an ineligible receipt or the daily limit are not fixed by retrying: they
 * say what to do instead.
 */
export type RefusalAction = 'retry' | 'retake' | 'none'
/** `link`: a page that helps with what `instead` says, shown as a button beside Try Again. */
export type RefusalAdvice = { action: RefusalAction; title: string; instead: string | null; link?: { href: string; label: string } }

// The spec's text for an analysis that can be tried again (spec 1 §8).
export const RETRYABLE_TITLE = 'Could not analyze receipt. Please try again.'

const PHOTO_CODES = new Set(['missing', 'invalid_type', 'too_large', 'too_small', 'unreadable', 'malformed'])
const UNVERIFIABLE_EMAIL = new Set([
  'unsigned',
  'bad_signature',
  'weak_key',
  'partial_body',
  'from_not_signed',
  'not_aligned',
  'duplicate_header',
  'too_many_signatures',
  'too_many_parts',
  'headers_too_large',
  'inline_forward',
])
const NOT_A_TRIP = new Set(['not_a_receipt', 'food_order', 'trip_summary', 'not_a_payment', 'fee_only', 'pass_purchase'])

export function refusalAdvice(code: string | null | undefined, status: number): RefusalAdvice {
  if (code === 'daily_limit') return { action: 'none', title: 'Daily Action Limit Reached', instead: 'You can send more receipts after the daily reset.' }
  if (code === 'unknown_sender') {
    return {
      action: 'none',
      title: 'E-receipt not accepted',
      instead: 'Photograph the receipt instead. The E-receipts page lists the services whose e-mails we can verify.',
      link: { href: '/e-receipts', label: 'Supported e-receipts' },
    }
  }
  if (code && UNVERIFIABLE_EMAIL.has(code)) {
    return { action: 'none', title: 'E-receipt not accepted', instead: 'Save the original receipt e-mail from your inbox as an .eml file and upload it, or photograph the receipt instead.' }
  }
  if (code && NOT_A_TRIP.has(code)) return { action: 'none', title: 'Not a trip receipt', instead: null }
  if (code === 'mailbox_taken' || code === 'mailbox') return { action: 'none', title: 'Linked to another wallet', instead: 'Contact support to move the mailbox to this wallet.' }
  if (code === 'duplicate') return { action: 'none', title: 'Already submitted', instead: 'Scan a different receipt.' }
  if (code && PHOTO_CODES.has(code)) return { action: 'retake', title: RETRYABLE_TITLE, instead: null }
  // Busy readers, DNS, rate limits and the unexpected: the same request can succeed later.
  if (status === 429 || status >= 500) return { action: 'retry', title: RETRYABLE_TITLE, instead: null }
  return { action: 'retake', title: RETRYABLE_TITLE, instead: null }
}

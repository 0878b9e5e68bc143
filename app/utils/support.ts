// Where "contact support" leads (issue 32): the support mailbox when SUPPORT_EMAIL is set, else the
// feedback form opened as an issue, which always reaches the team (decision 061). Pure.

/** The feedback form as an issue report: Help's "Chat with Support". */
export const SUPPORT_FORM_HREF = '/feedback?type=issue'

export function supportMailto(email: string): string {
  return `mailto:${email}?subject=${encodeURIComponent('ReCircle support')}`
}

export function supportHref(email: string | null | undefined): string {
  return email ? supportMailto(email) : SUPPORT_FORM_HREF
}

const SUPPORT_PHRASE = /contact support/i

/**
 * A message split around its first "contact support", so a view can make those words the link:
 * null when the message does not mention it.
 */
export function splitAtSupport(text: string): { before: string; phrase: string; after: string } | null {
  const match = SUPPORT_PHRASE.exec(text)
  if (!match) return null
  return { before: text.slice(0, match.index), phrase: match[0], after: text.slice(match.index + match[0].length) }
}

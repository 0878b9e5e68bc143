/**
 * Pure (issue 39, decision 110): the mail providers whose forwarding confirmations ReCircle
 * recognises, and how to read one. A provider is listed only with the exact system sender and the
 * signing domain seen in real samples: its signing domain also signs its users' own mail, so the
 * sender address is what tells the provider's forwarding system from a user of it.
 *
 * Found (decision 110): Gmail sends "(#123456789) Gmail Forwarding Confirmation - Receive Mail from
 * <account>" from forwarding-noreply@google.com, with "Confirmation code: 123456789" and a link on
 * mail-settings.google.com ("/mail/vf-…") in the body. Outlook.com and iCloud Mail send no mail to
 * the forwarding address; Yahoo Mail (paid plans) and Proton Mail (paid plans) send one, but no
 * sample of its sender and signature was found, so theirs are not recognised.
 */
import type { SenderEntry } from './sender-domains'

export type ForwardingProvider = SenderEntry & {
  id: string
  name: string
  /** The provider's forwarding system's From addresses, exactly. */
  senders: readonly string[]
  /** Hosts a confirmation link may point at (https only). */
  linkHosts: readonly string[]
  /** The code in the body; `subjectCode` in the Subject, read only when the signature covers it. */
  code: RegExp
  subjectCode: RegExp
  /** The mailbox asking to forward, in the body. */
  account: RegExp
  /** How long the confirmation is shown: the provider's own validity was not published. */
  validForMs: number
}

export const FORWARDING_PROVIDERS: readonly ForwardingProvider[] = [
  {
    id: 'gmail',
    name: 'Gmail',
    domains: ['google.com'],
    senders: ['forwarding-noreply@google.com'],
    linkHosts: ['mail-settings.google.com', 'mail.google.com'],
    code: /confirmation code:?\s*(\d{6,12})\b/i,
    subjectCode: /\(#(\d{6,12})\)/,
    account: /([^\s<>()"']+@[^\s<>()"']+)\s+has requested to automatically forward mail/i,
    validForMs: 72 * 3600_000,
  },
]

/** The provider whose forwarding system this From address is, or null (any other mail). */
export function forwardingProviderFor(from: string | null): ForwardingProvider | null {
  const address = from?.trim().toLowerCase() ?? ''
  return FORWARDING_PROVIDERS.find((p) => p.senders.includes(address)) ?? null
}

export type ConfirmationFields = { code: string | null; link: string | null; account: string | null }

/**
 * The code, the link and the asking mailbox in a confirmation's signed text. `hrefs`: the links of
 * its HTML part. A link counts only on https and one of the provider's hosts; none is guessed.
 */
export function readConfirmation(provider: ForwardingProvider, input: { text: string; hrefs: string[]; signedSubject: string | null }): ConfirmationFields {
  const code = provider.code.exec(input.text)?.[1] ?? (input.signedSubject ? (provider.subjectCode.exec(input.signedSubject)?.[1] ?? null) : null)
  const candidates = [...(input.text.match(/https:\/\/[^\s<>"')\]]+/g) ?? []), ...input.hrefs]
  const link = candidates.map((l) => l.replace(/[.,]+$/, '')).find((l) => allowedLink(provider, l)) ?? null
  const account = provider.account.exec(input.text)?.[1]?.replace(/[.,]+$/, '') ?? null
  return { code, link, account }
}

export function allowedLink(provider: ForwardingProvider, link: string): boolean {
  try {
    const url = new URL(link)
    return url.protocol === 'https:' && provider.linkHosts.includes(url.hostname) && !url.username && !url.password
  } catch {
    return false
  }
}

/** "sam.rider@gmail.com" → "s…r@gmail.com": enough for the owner to recognise, little for anyone else. */
export function accountHint(account: string | null): string | null {
  const at = account?.lastIndexOf('@') ?? -1
  if (!account || at <= 0) return null
  const local = account.slice(0, at)
  const shown = local.length <= 2 ? `${local[0]}…` : `${local[0]}…${local[local.length - 1]}`
  return `${shown}@${account.slice(at + 1).toLowerCase()}`
}

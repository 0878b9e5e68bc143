/**
 * Pure (issue 39): what the e-receipt guide builds from the supported senders. A mail rule that
 * forwards receipts automatically matches the services' sending domains, the same table the DKIM
 * check trusts (analysis/senders.ts and ERECEIPT_SENDERS), so the guide never names a sender the
 * server would refuse, and names every one it would take.
 */

export type SupportedSender = { name: string; domains: string[] }

/** Every signing domain, once, in a stable order. */
export function senderDomains(senders: SupportedSender[]): string[] {
  return [...new Set(senders.flatMap((s) => s.domains.map((d) => d.toLowerCase())))].sort()
}

/** Gmail's search (and filter) for mail from any of them: `from:(uber.com OR lyftmail.com OR li.me)`. */
export function gmailFilterQuery(senders: SupportedSender[]): string {
  return `from:(${senderDomains(senders).join(' OR ')})`
}

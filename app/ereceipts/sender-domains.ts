/** Pure: which registered sender a DKIM signing domain falls under. */

export type SenderEntry = { readonly domains: readonly string[] }

/** `mgt.uber.com` is within `uber.com`; `notuber.com` and `uber.com.evil.io` are not. */
export function domainWithin(domain: string, registered: string): boolean {
  const d = domain.toLowerCase().replace(/\.$/, '')
  return d === registered || d.endsWith(`.${registered}`)
}

/** The entry a signing domain speaks for, or null. */
export function senderEntry<T extends SenderEntry>(table: readonly T[], domain: string): T | null {
  return table.find((entry) => entry.domains.some((r) => domainWithin(domain, r))) ?? null
}

/** The entry a signing domain speaks for, with the registered domain it falls under. */
export function senderFor<T extends SenderEntry>(table: readonly T[], domain: string): (T & { registered: string }) | null {
  const entry = senderEntry(table, domain)
  const registered = entry?.domains.find((r) => domainWithin(domain, r))
  return entry && registered ? { ...entry, registered } : null
}

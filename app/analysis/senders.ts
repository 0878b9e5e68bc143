/**
 * Pure: which DKIM signing domains speak for which transport service (issue 21). The e-mail reader
 * matches signing domains against this table (app/ereceipts/sender-domains.ts). A verified
 * e-receipt takes its service from this table, never from what the e-mail's text claims.
 *
 * Only domains confirmed by a published receipt sample are built in (decisions 090, 119); operators add
 * others with ERECEIPT_SENDERS ("Bird=bird.co;Zipcar=zipcar.com,mail.zipcar.com").
 */
import { findVendorByName, type Vendor } from '~/analysis/vendors'

export type SenderTable = ReadonlyArray<{ vendor: Vendor; domains: readonly string[] }>

/** Vendor name (as in VENDORS) → domains that sign its receipts; subdomains count too. */
export const BUILT_IN_SENDERS: Readonly<Record<string, readonly string[]>> = {
  // Receipts come from noreply@uber.com, signed by uber.com (some by mgt.uber.com).
  Uber: ['uber.com'],
  // Receipts come from no-reply@lyftmail.com, signed by lyftmail.com.
  Lyft: ['lyftmail.com'],
  // Receipts come from no-reply@li.me, signed by li.me.
  Lime: ['li.me'],
  // Ride and scooter receipts come from receipts@bolt.eu (decision 119: a real Spanish scooter
  // ride's receipt, and the Gmail queries of several public Bolt receipt readers). A signature must
  // align with that From domain. Bolt Food mails come from bolt.eu too: the food words refuse them.
  Bolt: ['bolt.eu'],
}

export class SenderConfigError extends Error {}

/** "Name=domain,domain;Name2=domain" → entries; a name must be an eligible transport vendor. */
export function parseSenderConfig(value: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const entry of value.split(';').map((s) => s.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=')
    if (eq <= 0) throw new SenderConfigError(`'${entry}' must read Name=domain[,domain]`)
    const name = entry.slice(0, eq).trim()
    const domains = entry.slice(eq + 1).split(',').map((d) => d.trim().toLowerCase()).filter(Boolean)
    const vendor = findVendorByName(name)
    if (!vendor || (vendor.kind !== 'transport' && vendor.kind !== 'car_rental')) {
      throw new SenderConfigError(`'${name}' is not a known transport service`)
    }
    if (domains.length === 0 || domains.some((d) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d))) {
      throw new SenderConfigError(`'${entry}' must list domain names`)
    }
    out[vendor.name] = [...(out[vendor.name] ?? []), ...domains]
  }
  return out
}

export function senderTable(extra: Record<string, string[]> = {}): SenderTable {
  const merged: Record<string, string[]> = {}
  for (const [name, domains] of [...Object.entries(BUILT_IN_SENDERS), ...Object.entries(extra)]) {
    merged[name] = [...new Set([...(merged[name] ?? []), ...domains])]
  }
  return Object.entries(merged).map(([name, domains]) => ({ vendor: findVendorByName(name)!, domains }))
}

export { domainWithin, senderFor } from '~/ereceipts/sender-domains'

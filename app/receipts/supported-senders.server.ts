import { getEnv } from '~/utils/env.server'
import { parseSenderConfig, senderTable } from '~/analysis/senders'

/** The services whose signed e-receipts this server accepts: the built-in table plus ERECEIPT_SENDERS. */
export function supportedSenders(): Array<{ name: string; domains: string[] }> {
  let extra: Record<string, string[]> = {}
  try {
    extra = parseSenderConfig(getEnv().ERECEIPT_SENDERS)
  } catch {
    // A bad table fails the process at start (scripts/load-env.ts); here the built-in one still holds.
  }
  return senderTable(extra)
    .map((s) => ({ name: s.vendor.name, domains: [...s.domains] }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

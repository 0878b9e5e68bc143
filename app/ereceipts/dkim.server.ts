/**
 * DKIM verification of an e-mail (issue 21) with mailauth, plus the policy a payout needs on
 * top of "the signature verifies": a registered signing domain, From and the whole body covered,
 * From aligned with d=, a key of 1024 bits or more. Never hand-written cryptography.
 */
import { Resolver } from 'node:dns/promises'
import mailauth from 'mailauth'
import { EReceiptError } from './errors'
import { headerSectionLength } from './message.server'
import { senderEntry, senderFor, type SenderEntry } from './sender-domains'

export type TxtResolver = (name: string, rrtype: string) => Promise<unknown>

/** The system resolver, or the servers in DNS_SERVERS ("host:port", comma-separated). */
export function createResolver(servers: string[] = []): TxtResolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  if (servers.length) resolver.setServers(servers)
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<unknown>
}

export type VerifiedSignature<T extends SenderEntry = SenderEntry> = {
  /** The registered sender whose domain signed. */
  sender: T
  /** The d= domain, e.g. "uber.com" or "mgt.uber.com". */
  domain: string
  /** sha256 of the signature bytes: one e-mail, one key. */
  signatureId: string
  /** Lower-case names of the header fields the signature covers. */
  signedHeaders: string[]
  /** x= passed (crypto verified, accepted for a receipt inside the window). */
  expired: boolean
  signedAt: string | null
}

type DkimResult = {
  id?: string
  signingDomain?: string
  status: { result: string; comment?: string | false; aligned?: string | false; underSized?: number; policy?: Record<string, string> }
  signingHeaders?: { keys: string }
  canonBodyLengthLimited?: boolean
  canonBodyLengthLimit?: number
  canonBodyLengthTotal?: number
  signTime?: string | null
}

/**
 * Signatures read on one message. Real receipts carry one to three (the sender's, its mail
 * provider's, a forwarder's); mailauth looks up a key for each one, one after another.
 */
export const MAX_SIGNATURES = 5

/** DKIM-Signature fields in the message's own header section (not in an attached message). */
export function countSignatures(raw: Buffer): number {
  return (raw.subarray(0, headerSectionLength(raw)).toString('latin1').match(/^dkim-signature[ \t]*:/gim) ?? []).length
}

class LookupRefused extends Error {
  readonly code = 'ENOTFOUND'
}

/**
 * The resolver mailauth is given: it looks up keys of registered senders only (a signature by any
 * other domain never decides, so its key is not worth a query), and none past the deadline.
 */
function guardedResolver(opts: { senders: readonly SenderEntry[]; resolver: TxtResolver; deadline: number }) {
  const state = { timedOut: false }
  const resolver: TxtResolver = async (name, rrtype) => {
    const domain = /\._domainkey\.(.+)$/i.exec(name)?.[1]
    if (!domain || !senderFor(opts.senders, domain)) throw new LookupRefused(`not a registered sender: ${name}`)
    if (!Number.isFinite(opts.deadline)) return opts.resolver(name, rrtype)
    const left = opts.deadline - Date.now()
    if (left <= 0) {
      state.timedOut = true
      throw new LookupRefused('past the time limit')
    }
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        state.timedOut = true
        reject(Object.assign(new Error('DNS lookup past the time limit'), { code: 'ETIMEOUT' }))
      }, left)
    })
    try {
      return await Promise.race([opts.resolver(name, rrtype), late])
    } finally {
      clearTimeout(timer)
    }
  }
  return { resolver, state }
}

/** The signature that speaks for a registered service, checked against every rule; throws why not. */
export async function verifyReceiptSignature<T extends SenderEntry>(
  raw: Buffer,
  opts: { senders: readonly T[]; resolver: TxtResolver; now?: Date; deadline?: number },
): Promise<VerifiedSignature<T>> {
  if (countSignatures(raw) > MAX_SIGNATURES) throw new EReceiptError('too_many_signatures')
  const guarded = guardedResolver({ senders: opts.senders, resolver: opts.resolver, deadline: opts.deadline ?? Infinity })
  const result = (await mailauth.dkimVerify(raw, {
    resolver: guarded.resolver as never,
    minBitLength: 1024,
    curTime: opts.now ?? new Date(),
  })) as unknown as { results: DkimResult[] }
  if (guarded.state.timedOut) throw new EReceiptError('timed_out')
  const candidates = result.results.filter((r) => r.signingDomain && senderFor(opts.senders, r.signingDomain))
  if (candidates.length === 0) throw new EReceiptError('unsigned')
  let failure: EReceiptError | null = null
  for (const r of candidates) {
    const outcome = judge(r)
    if (outcome instanceof EReceiptError) {
      // A DNS hiccup on a signature that might have passed decides over a plain failure elsewhere.
      if (!failure || outcome.code === 'dns_unavailable') failure = outcome
      continue
    }
    return {
      sender: senderEntry(opts.senders, r.signingDomain!)!,
      domain: r.signingDomain!.toLowerCase(),
      signatureId: r.id!,
      signedHeaders: outcome.signedHeaders,
      expired: outcome.expired,
      signedAt: r.signTime ?? null,
    }
  }
  throw failure ?? new EReceiptError('bad_signature')
}

function judge(r: DkimResult): EReceiptError | { signedHeaders: string[]; expired: boolean } {
  const { result, comment } = r.status
  if (result === 'temperror') return new EReceiptError('dns_unavailable')
  if (result === 'policy') return new EReceiptError('weak_key')
  // mailauth checks the signature first and only then marks an expired x= as neutral "expired".
  const expired = result === 'neutral' && comment === 'expired'
  if (result !== 'pass' && !expired) return new EReceiptError('bad_signature')
  const signedHeaders = (r.signingHeaders?.keys ?? '').split(':').map((k) => k.trim().toLowerCase()).filter(Boolean)
  if (!signedHeaders.includes('from')) return new EReceiptError('from_not_signed')
  if (r.canonBodyLengthLimited && (r.status.underSized ?? 0) > 0) return new EReceiptError('partial_body')
  if (r.canonBodyLengthLimited && (r.canonBodyLengthLimit ?? 0) < (r.canonBodyLengthTotal ?? Infinity)) {
    return new EReceiptError('partial_body')
  }
  if (!r.status.aligned) return new EReceiptError('not_aligned')
  return { signedHeaders, expired }
}

import { z } from 'zod'

/** Pure certificate field checks; the signature itself is verified in certificate.server.ts. */

export const CHALLENGE_TTL_MS = 5 * 60 * 1000
export const CERT_CLOCK_SKEW_S = 5 * 60

export const certificateSchema = z.object({
  purpose: z.string(),
  payload: z.object({ type: z.string(), content: z.string().max(2000) }),
  domain: z.string().max(255),
  timestamp: z.number().int().nonnegative(),
  signer: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'signer must be an address'),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'signature must be 65 bytes of hex'),
})

export type SignedCertificate = z.infer<typeof certificateSchema>

export function challengeContent(nonce: string): string {
  return [
    'Sign in to ReCircle',
    '',
    'Signing proves that you own this wallet. It costs nothing and sends no transaction.',
    '',
    `Nonce: ${nonce}`,
  ].join('\n')
}

export function nonceFromContent(content: string): string | null {
  const match = /^Nonce: ([0-9a-f]{32})$/m.exec(content)
  return match ? match[1] : null
}

export type CertificateCheck =
  | { ok: true; cert: SignedCertificate; nonce: string }
  | { ok: false; error: string }

/** Host name without port, lower-cased; IPv6 brackets kept as URL gives them. */
export function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase()
  } catch {
    return host.toLowerCase()
  }
}

const BARE_HOST = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/i

/**
 * The certificate's domain as a lower-case host name without its port, or null unless it is a bare
 * `host[:port]`: URL parsing would read `evil.com@localhost` or `localhost/evil.com` as localhost.
 */
export function bareHostname(domain: string): string | null {
  const match = BARE_HOST.exec(domain)
  if (!match || (match[2] !== undefined && Number(match[2]) > 65535)) return null
  return match[1].toLowerCase()
}

export function checkCertificateFields(
  input: unknown,
  ctx: { now: Date; requestHostname: string; allowedDomains: readonly string[] },
): CertificateCheck {
  const parsed = certificateSchema.safeParse(input)
  if (!parsed.success) return { ok: false, error: 'Invalid certificate: missing or malformed fields' }
  const cert = parsed.data
  if (cert.purpose !== 'identification') return { ok: false, error: 'Invalid certificate purpose' }
  if (cert.payload.type !== 'text') return { ok: false, error: 'Invalid certificate payload' }
  const nowS = Math.floor(ctx.now.getTime() / 1000)
  if (Math.abs(nowS - cert.timestamp) > CERT_CLOCK_SKEW_S) {
    return { ok: false, error: 'Certificate timestamp is too far from the current time' }
  }
  const domain = bareHostname(cert.domain)
  const allowed = new Set([ctx.requestHostname.toLowerCase(), ...ctx.allowedDomains.map((d) => d.toLowerCase())])
  if (domain === null || !allowed.has(domain)) return { ok: false, error: 'Certificate was signed for another domain' }
  const nonce = nonceFromContent(cert.payload.content)
  if (!nonce) return { ok: false, error: 'Unknown or expired sign-in challenge' }
  return { ok: true, cert, nonce }
}

import { checkCertificateFields } from '~/auth/certificate'
import { verifyCertificateSignature } from '~/auth/certificate.server'
import { isWalletTestContent, type WalletTestCheck, type WalletTestVerification } from './wallet-test'

/**
 * The sign-in certificate checks (fields, purpose, timestamp, domain, signature) on a wallet-test
 * certificate. Nothing is consumed and nobody is signed in.
 */
export function verifyWalletTestCertificate(
  input: unknown,
  ctx: { now: Date; requestHostname: string; allowedDomains: readonly string[] },
): WalletTestVerification {
  const checks: WalletTestCheck[] = []
  const fields = checkCertificateFields(input, ctx)
  if (!fields.ok) {
    checks.push({ name: 'Certificate fields, timestamp and domain', ok: false, detail: fields.error })
    return { ok: false, checks, error: fields.error }
  }
  const { cert } = fields
  checks.push({
    name: 'Certificate fields, timestamp and domain',
    ok: true,
    detail: `identification certificate for ${cert.domain}, signed at ${new Date(cert.timestamp * 1000).toISOString()}`,
  })
  if (!isWalletTestContent(cert.payload.content)) {
    const error = 'Not a wallet-test message: only certificates from the wallet test are checked here'
    checks.push({ name: 'Wallet-test message', ok: false, detail: error })
    return { ok: false, checks, error }
  }
  checks.push({ name: 'Wallet-test message', ok: true, detail: 'the test message (cannot be used to sign in)' })
  const signed = verifyCertificateSignature(cert)
  const detail = signed ? `signed by ${cert.signer.toLowerCase()}` : 'Certificate signature does not verify'
  checks.push({ name: 'Signature', ok: signed, detail })
  return {
    ok: signed,
    checks,
    signer: cert.signer.toLowerCase(),
    domain: cert.domain,
    timestamp: cert.timestamp,
    error: signed ? undefined : detail,
  }
}

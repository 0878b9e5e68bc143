import { Certificate } from 'thor-devkit'
import type { SignedCertificate } from './certificate'

/** thor-devkit throws on any mismatch; every throw means "not verified". */
export function verifyCertificateSignature(cert: SignedCertificate): boolean {
  try {
    // Only the known fields: thor-devkit signs the whole object, extra keys would change the hash.
    Certificate.verify({
      purpose: cert.purpose,
      payload: { type: cert.payload.type, content: cert.payload.content },
      domain: cert.domain,
      timestamp: cert.timestamp,
      signer: cert.signer,
      signature: cert.signature,
    })
    return true
  } catch {
    return false
  }
}

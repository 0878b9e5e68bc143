import { Certificate, address, blake2b256, secp256k1 } from 'thor-devkit'
import { describe, expect, test } from 'vitest'
import { checkCertificateFields, challengeContent } from './certificate'
import { verifyCertificateSignature } from './certificate.server'
import { encodeCertificate, signCertificate, walletFromPrivateKey } from './test-wallet.client'

// The browser test wallet signs with @noble; the server verifies with thor-devkit. Both must agree
// byte for byte, for any key and any challenge.
describe('the test wallet signs exactly like thor-devkit', () => {
  const keys = Array.from({ length: 12 }, () => secp256k1.generatePrivateKey())

  test.each(keys.map((key, i) => ({ i, key })))('key $i', ({ key }) => {
    const wallet = walletFromPrivateKey(new Uint8Array(key))
    expect(wallet.address).toBe(address.fromPublicKey(secp256k1.derivePublicKey(key)))

    const cert = {
      purpose: 'identification',
      payload: { type: 'text', content: challengeContent(Buffer.from(key.subarray(0, 16)).toString('hex')) },
      domain: 'localhost',
      timestamp: 1_780_000_000,
      signer: wallet.address.toUpperCase().replace('0X', '0x'),
    }
    expect(encodeCertificate(cert)).toBe(Certificate.encode(cert))
    const signature = signCertificate(cert, wallet.privateKey)
    // RFC 6979 nonces and low s on both sides: the very same 65 bytes.
    expect(signature).toBe('0x' + secp256k1.sign(blake2b256(Certificate.encode(cert)), key).toString('hex'))
    expect(() => Certificate.verify({ ...cert, signature })).not.toThrow()
    expect(verifyCertificateSignature({ ...cert, signature })).toBe(true)
  })

  test('the server accepts its certificate fields like any wallet', () => {
    const wallet = walletFromPrivateKey(new Uint8Array(secp256k1.generatePrivateKey()))
    const now = new Date()
    const cert = {
      purpose: 'identification',
      payload: { type: 'text', content: challengeContent('0123456789abcdef0123456789abcdef') },
      domain: 'localhost',
      timestamp: Math.floor(now.getTime() / 1000),
      signer: wallet.address,
    }
    const signed = { ...cert, signature: signCertificate(cert, wallet.privateKey) }
    expect(checkCertificateFields(signed, { now, requestHostname: 'localhost', allowedDomains: [] })).toMatchObject({ ok: true })
  })
})

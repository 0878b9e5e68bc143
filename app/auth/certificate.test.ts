import { describe, expect, it } from 'vitest'
import { createTestWallet, identificationCert, signCertificate } from '../../tests/utils/wallet'
import { challengeContent, checkCertificateFields, hostnameOf, nonceFromContent } from './certificate'
import { verifyCertificateSignature } from './certificate.server'

const NOW = new Date('2026-11-21T12:00:00Z')
const NONCE = '0123456789abcdef0123456789abcdef'
const CONTENT = challengeContent(NONCE)
const ctx = { now: NOW, requestHostname: 'localhost', allowedDomains: ['recircle.app'] }
const wallet = createTestWallet()
const valid = identificationCert(wallet, CONTENT, 'localhost', NOW)

describe('checkCertificateFields', () => {
  it('accepts a well-formed identification certificate and extracts the nonce', () => {
    const result = checkCertificateFields(valid, ctx)
    expect(result).toMatchObject({ ok: true, nonce: NONCE })
  })

  it.each([
    ['a configured domain', { domain: 'recircle.app' }, true],
    ['the request host with a port', { domain: 'localhost:3000' }, true],
    ['an upper-case domain', { domain: 'LOCALHOST' }, true],
    ['another domain', { domain: 'evil.example' }, false],
    ['a look-alike domain', { domain: 'recircle.app.evil.example' }, false],
    ['a configured domain with a port', { domain: 'recircle.app:8443' }, true],
    ['userinfo before the host', { domain: 'evil.com@localhost' }, false],
    ['a path after the host', { domain: 'localhost/evil.com' }, false],
    ['a query after the host', { domain: 'localhost?x' }, false],
    ['a fragment after the host', { domain: 'localhost#x' }, false],
    ['a port that is not a number', { domain: 'localhost:abc' }, false],
    ['a port above 65535', { domain: 'localhost:70000' }, false],
    ['an empty port', { domain: 'localhost:' }, false],
    ['a scheme', { domain: 'http://localhost' }, false],
    ['a backslash', { domain: 'evil.com\\localhost' }, false],
    ['an empty domain', { domain: '' }, false],
    ['whitespace', { domain: '   ' }, false],
    ['surrounding whitespace', { domain: ' localhost ' }, false],
    ['an IPv6 literal', { domain: '[::1]' }, false],
    ['a trailing newline', { domain: 'localhost\n' }, false],
    ['purpose transaction', { purpose: 'agreement' }, false],
    ['payload type other than text', { payload: { type: 'json', content: CONTENT } }, false],
    ['a timestamp 6 minutes old', { timestamp: Math.floor(NOW.getTime() / 1000) - 360 }, false],
    ['a timestamp 6 minutes ahead', { timestamp: Math.floor(NOW.getTime() / 1000) + 360 }, false],
    ['a timestamp 4 minutes old', { timestamp: Math.floor(NOW.getTime() / 1000) - 240 }, true],
    ['a timestamp in milliseconds', { timestamp: NOW.getTime() }, false],
    ['content without a nonce', { payload: { type: 'text', content: 'Sign in please' } }, false],
    ['a signer that is not an address', { signer: '0x1234' }, false],
    ['a short signature', { signature: '0xabcd' }, false],
  ])('%s → ok=%s', (_name, change, ok) => {
    expect(checkCertificateFields({ ...valid, ...change }, ctx).ok).toBe(ok)
  })

  it.each(['purpose', 'payload', 'domain', 'timestamp', 'signer', 'signature'])('rejects a missing %s', (field) => {
    const cert: Record<string, unknown> = { ...valid }
    delete cert[field]
    expect(checkCertificateFields(cert, ctx)).toEqual({ ok: false, error: expect.any(String) })
  })

  it.each([null, undefined, 'string', 42, []])('rejects %j', (input) => {
    expect(checkCertificateFields(input, ctx).ok).toBe(false)
  })
})

describe('verifyCertificateSignature', () => {
  it('verifies a certificate signed by its signer', () => {
    expect(verifyCertificateSignature(valid)).toBe(true)
  })

  it('accepts an upper-case signer address (thor-devkit lower-cases it)', () => {
    expect(verifyCertificateSignature({ ...valid, signer: valid.signer.toUpperCase().replace('0X', '0x') })).toBe(true)
  })

  it.each([
    ['changed content', { payload: { type: 'text', content: challengeContent('f'.repeat(32)) } }],
    ['changed domain', { domain: 'recircle.app' }],
    ['changed timestamp', { timestamp: valid.timestamp + 1 }],
    ['changed purpose', { purpose: 'agreement' }],
    ['another signer', { signer: createTestWallet().address }],
    ['flipped signature byte', { signature: valid.signature.slice(0, 10) + (valid.signature[10] === 'a' ? 'b' : 'a') + valid.signature.slice(11) }],
    ['a signature from another key', { signature: signCertificate(createTestWallet(), { ...valid, signer: valid.signer }).signature }],
    ['garbage signature of the right length', { signature: '0x' + 'ff'.repeat(65) }],
  ])('rejects %s', (_name, change) => {
    expect(verifyCertificateSignature({ ...valid, ...change })).toBe(false)
  })
})

describe('helpers', () => {
  it('round-trips the nonce through the challenge text', () => {
    expect(nonceFromContent(challengeContent(NONCE))).toBe(NONCE)
    expect(nonceFromContent('Nonce: xyz')).toBeNull()
  })
  it.each([
    ['localhost:3000', 'localhost'],
    ['Example.COM', 'example.com'],
    ['[::1]:3000', '[::1]'],
  ])('hostnameOf(%s) = %s', (host, expected) => {
    expect(hostnameOf(host)).toBe(expected)
  })
})

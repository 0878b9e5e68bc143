import { secp256k1 } from '@noble/curves/secp256k1'
import { blake2b } from '@noble/hashes/blake2b'
import { keccak_256 } from '@noble/hashes/sha3'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { TEST_WALLET_STORAGE_KEY, WALLET_MESSAGES, WalletError, readStoredTestWallet, type SignedCertificate } from './wallet.client'

/**
 * Issue 11: a wallet for trying ReCircle without VeWorld. The key is made in this browser and kept
 * in its localStorage; it signs the same identification certificate a real wallet signs, and the
 * server checks it the same way. The connect card loads this module with import(), so its crypto
 * code is only downloaded by someone who taps "Use a test wallet".
 *
 * The signing is thor-devkit's (`Certificate.encode`, `blake2b256`, `secp256k1.sign`, checked
 * byte for byte in test-wallet.test.ts) written with @noble, because thor-devkit's secp256k1
 * module imports Node's crypto, which the browser build does not polyfill.
 */

export type TestWalletKey = { privateKey: Uint8Array; address: string }

export function walletFromPrivateKey(privateKey: Uint8Array): TestWalletKey {
  const publicKey = secp256k1.getPublicKey(privateKey, false)
  return { privateKey, address: '0x' + bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12)) }
}

/** thor-devkit's `Certificate.encode`: keys sorted at every level, signer in lower case. */
export function encodeCertificate(cert: Omit<SignedCertificate, 'signature'>): string {
  return stableJson({ ...cert, signer: cert.signer.toLowerCase() })
}

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`
}

/** 65 bytes r‖s‖v over blake2b-256 of the encoded certificate, as thor-devkit signs. */
export function signCertificate(cert: Omit<SignedCertificate, 'signature'>, privateKey: Uint8Array): string {
  const hash = blake2b(utf8ToBytes(encodeCertificate(cert)), { dkLen: 32 })
  const sig = secp256k1.sign(hash, privateKey)
  return '0x' + bytesToHex(sig.toCompactRawBytes()) + sig.recovery.toString(16).padStart(2, '0')
}

function loadOrCreateKey(): TestWalletKey {
  const stored = readStoredTestWallet()
  if (stored) return walletFromPrivateKey(hexToBytes(stored.privateKey))
  // 32 bytes from the browser's CSPRNG, reduced to a valid secp256k1 key by @noble.
  const wallet = walletFromPrivateKey(secp256k1.utils.randomPrivateKey())
  try {
    localStorage.setItem(TEST_WALLET_STORAGE_KEY, JSON.stringify({ privateKey: bytesToHex(wallet.privateKey), address: wallet.address }))
  } catch {
    // Storage refused (private mode, quota): a key that would be lost on reload is no account.
    throw new WalletError(WALLET_MESSAGES.testWalletStorage)
  }
  return wallet
}

/** Signs the server's challenge like Connex's `vendor.sign('cert')`: the domain is this page's host. */
export function signWithTestWallet(content: string): SignedCertificate {
  const wallet = loadOrCreateKey()
  const unsigned = {
    purpose: 'identification',
    payload: { type: 'text', content },
    domain: location.hostname,
    timestamp: Math.floor(Date.now() / 1000),
    signer: wallet.address,
  }
  return { ...unsigned, signature: signCertificate(unsigned, wallet.privateKey) }
}

import { Certificate, address, blake2b256, secp256k1 } from 'thor-devkit'
import { challengeContent } from '../../app/auth/certificate'

export type TestWallet = { privateKey: Buffer; address: string }

export function walletFromKey(privateKey: Buffer): TestWallet {
  return { privateKey, address: address.fromPublicKey(secp256k1.derivePublicKey(privateKey)) }
}

export function createTestWallet(): TestWallet {
  return walletFromKey(secp256k1.generatePrivateKey())
}

/** A fixed admin key so ADMIN_WALLETS can name it in every worker. */
export const ADMIN_WALLET = walletFromKey(Buffer.from('11'.repeat(32), 'hex'))

/**
 * New wallets (issue 31), from fixed keys so every process knows them: the browser suite's fake
 * node (tests/e2e/global-setup.ts) counts every wallet as a VeBetter Passport person except these,
 * so only these start without standing. The suite's database lasts the whole run: each is used by
 * one place only. [0] and [1]: tests/e2e/standing.e2e.ts (JavaScript on and off); [2] and [3]:
 * seedScreens in tests/e2e/screens.ts (the new wallet's Scan page and the review page's group).
 */
export const NEW_WALLETS: readonly TestWallet[] = ['31', '32', '33', '34'].map((byte) => walletFromKey(Buffer.from(byte.repeat(32), 'hex')))

export type UnsignedCert = Omit<Certificate, 'signature'>

export function signCertificate(wallet: TestWallet, cert: Omit<UnsignedCert, 'signer'> & { signer?: string }) {
  const unsigned: Certificate = { ...cert, signer: cert.signer ?? wallet.address }
  const signature = '0x' + secp256k1.sign(blake2b256(Certificate.encode(unsigned)), wallet.privateKey).toString('hex')
  return { ...unsigned, signature }
}

export function identificationCert(wallet: TestWallet, content: string, domain: string, now = new Date()) {
  return signCertificate(wallet, {
    purpose: 'identification',
    payload: { type: 'text', content },
    domain,
    timestamp: Math.floor(now.getTime() / 1000),
  })
}

export { challengeContent }

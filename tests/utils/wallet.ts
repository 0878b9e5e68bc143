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

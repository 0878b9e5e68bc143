import { networkFromGenesisId, TESTNET_GENESIS_ID } from '~/chain/networks'
import { isPhoneBrowser } from './veworld-link'

/** Connex's certificate answer: VeWorld's `signCert` and Connex's `vendor.sign('cert')`. */
type CertResponse = { annex: { domain: string; timestamp: number; signer: string }; signature: string }
type CertMessage = { purpose: 'identification'; payload: { type: 'text'; content: string } }

// VeWorld exposes no genesisId: the network is chosen by newConnexSigner(genesisId) (issue 22).
type VeChainProvider = {
  isVeWorld?: boolean
  newConnexSigner: (genesisId: string) => { signCert: (msg: CertMessage, options?: object) => Promise<CertResponse> }
}

// `window.connex` (a Connex 1 wallet: Sync, older VeChain wallets) is declared by @vechain/connex.
declare global {
  interface Window {
    vechain?: VeChainProvider
  }
}

export class WalletError extends Error {}

export const WALLET_MESSAGES = {
  notDetected: 'VeWorld wallet not detected. Please use VeWorld browser or install VeWorld extension.',
  notAvailable: 'VeWorld APIs not available. Please ensure VeWorld is unlocked and try again.',
  wrongNetwork: 'Wrong network. Switch to VeChain testnet.',
  cancelled: 'Connection cancelled. Please try again and approve the connection request.',
  noAddress: 'Failed to get wallet address from certificate',
  failed: 'Failed to connect wallet',
  testWalletStorage: 'This browser would not keep the test wallet. Allow this site to store data and try again.',
} as const

export type SignedCertificate = {
  purpose: string
  payload: { type: string; content: string }
  domain: string
  timestamp: number
  signer: string
  signature: string
}

/** The test wallet (issue 11, test-wallet.client.ts) keeps its key here, in this browser only. */
export const TEST_WALLET_STORAGE_KEY = 'recircle.testWallet'

export function readStoredTestWallet(): { privateKey: string; address: string } | null {
  try {
    const value = JSON.parse(localStorage.getItem(TEST_WALLET_STORAGE_KEY) ?? 'null') as unknown
    if (!value || typeof value !== 'object') return null
    const { privateKey, address } = value as Record<string, unknown>
    if (typeof privateKey !== 'string' || !/^[0-9a-f]{64}$/.test(privateKey)) return null
    if (typeof address !== 'string' || !/^0x[0-9a-f]{40}$/.test(address)) return null
    return { privateKey, address }
  } catch {
    return null
  }
}

export function detectWallet(): 'veworld' | 'connex' | null {
  if (typeof window === 'undefined') return null
  if (window.vechain && typeof window.vechain.newConnexSigner === 'function') return 'veworld'
  if (window.connex?.vendor) return 'connex'
  return null
}

/** Wait briefly for a wallet that injects itself after page load (10 tries, 500 ms apart). */
export async function waitForWallet(tries = 10, intervalMs = 500) {
  for (let i = 0; i < tries; i++) {
    const kind = detectWallet()
    if (kind) return kind
    await new Promise((r) => setTimeout(r, intervalMs))
  }
  return null
}

function checkNetwork(genesisId: string | undefined) {
  if (genesisId && networkFromGenesisId(genesisId) !== 'testnet') throw new WalletError(WALLET_MESSAGES.wrongNetwork)
}

/**
 * Ask the wallet to sign the server's challenge and return the certificate the server verifies.
 * VeWorld (in-app browser or extension) is asked directly through the `window.vechain` it injects;
 * anything else goes through Connex, downloaded only now: an injected Connex 1 wallet (Sync), or
 * else Sync2 through Connex's wallet buddy (the desktop app, or its web wallet in a new window).
 */
export async function signChallenge(content: string): Promise<SignedCertificate> {
  const kind = await waitForWallet(3, 300)
  const message: CertMessage = { purpose: 'identification', payload: { type: 'text', content } }
  let response: CertResponse
  try {
    if (kind === 'veworld') {
      const vechain = window.vechain!
      response = await vechain.newConnexSigner(TESTNET_GENESIS_ID).signCert(message, {})
    } else if (kind === null && isPhoneBrowser(navigator.userAgent)) {
      // Phones have no Sync2: the page offers "Open in VeWorld" instead (issue 22).
      throw new WalletError(WALLET_MESSAGES.notDetected)
    } else {
      response = await signWithConnex(message, kind === 'connex' ? 'sync' : 'sync2')
    }
  } catch (error) {
    if (error instanceof WalletError) throw error
    const text = error instanceof Error ? error.message : String(error)
    if (/reject|cancel|denied|closed/i.test(text)) throw new WalletError(WALLET_MESSAGES.cancelled)
    if (/network|genesis/i.test(text)) throw new WalletError(WALLET_MESSAGES.wrongNetwork)
    throw new WalletError(text || WALLET_MESSAGES.failed)
  }
  if (!response?.annex?.signer || !response.signature) throw new WalletError(WALLET_MESSAGES.noAddress)
  return {
    purpose: message.purpose,
    payload: message.payload,
    domain: response.annex.domain,
    timestamp: response.annex.timestamp,
    signer: response.annex.signer,
    signature: response.signature,
  }
}

async function signWithConnex(message: CertMessage, signer: 'sync' | 'sync2'): Promise<CertResponse> {
  if (signer === 'sync') {
    const genesisId = window.connex?.thor?.genesis?.id
    if (!genesisId) throw new WalletError(WALLET_MESSAGES.notAvailable)
    checkNetwork(genesisId)
  }
  let Connex: typeof import('@vechain/connex').default
  try {
    Connex = (await import('@vechain/connex')).default
  } catch {
    throw new WalletError(WALLET_MESSAGES.failed)
  }
  try {
    return await new Connex.Vendor(TESTNET_GENESIS_ID, signer).sign('cert', message).request()
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error)
    // Sync2's helper could not be downloaded (it fails with the script's error event) or its
    // window was blocked: there is no wallet to ask.
    if (signer === 'sync2' && /\[object Event\]|failed to open wallet window/i.test(text)) {
      throw new WalletError(WALLET_MESSAGES.notDetected)
    }
    throw error
  }
}

export async function fetchChallenge(): Promise<string> {
  const res = await fetch('/api/auth/challenge', { method: 'POST', credentials: 'same-origin' })
  if (!res.ok) throw new WalletError(`${res.status}: ${(await res.text()) || res.statusText}`)
  const body = (await res.json()) as { content: string }
  return body.content
}

import { networkFromGenesisId, TESTNET_GENESIS_ID } from '~/chain/networks'

/** Connex's certificate answer: VeWorld's `signCert` and the legacy `connex.vendor.sign('cert')`. */
type CertResponse = { annex: { domain: string; timestamp: number; signer: string }; signature: string }
type CertMessage = { purpose: 'identification'; payload: { type: 'text'; content: string } }

type VeChainProvider = {
  isVeWorld?: boolean
  genesisId?: string
  newConnexSigner: (genesisId: string) => { signCert: (msg: CertMessage, options?: object) => Promise<CertResponse> }
}
type LegacyConnex = {
  thor?: { genesis?: { id?: string } }
  vendor: { sign: (kind: 'cert', msg: CertMessage) => { request: () => Promise<CertResponse> } }
}

declare global {
  interface Window {
    vechain?: VeChainProvider
    connex?: LegacyConnex
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
} as const

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

/** Ask the wallet to sign the server's challenge and return the certificate the server verifies. */
export async function signChallenge(content: string) {
  const kind = await waitForWallet(3, 300)
  if (!kind) throw new WalletError(WALLET_MESSAGES.notDetected)
  const message: CertMessage = { purpose: 'identification', payload: { type: 'text', content } }
  let response: CertResponse
  try {
    if (kind === 'veworld') {
      const vechain = window.vechain!
      checkNetwork(vechain.genesisId)
      response = await vechain.newConnexSigner(TESTNET_GENESIS_ID).signCert(message, {})
    } else {
      const connex = window.connex!
      checkNetwork(connex.thor?.genesis?.id)
      response = await connex.vendor.sign('cert', message).request()
    }
  } catch (error) {
    if (error instanceof WalletError) throw error
    const text = error instanceof Error ? error.message : String(error)
    if (/reject|cancel|denied/i.test(text)) throw new WalletError(WALLET_MESSAGES.cancelled)
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

export async function fetchChallenge(): Promise<string> {
  const res = await fetch('/api/auth/challenge', { method: 'POST', credentials: 'same-origin' })
  if (!res.ok) throw new WalletError(`${res.status}: ${(await res.text()) || res.statusText}`)
  const body = (await res.json()) as { content: string }
  return body.content
}

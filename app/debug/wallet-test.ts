/** The wallet test's message: a certificate like sign-in's, which can never be used to sign in. */
export const WALLET_TEST_TITLE = 'ReCircle wallet test'

/**
 * Carries a `Nonce:` line so the sign-in field checks apply unchanged, but starts differently from
 * a sign-in challenge: sign-in only accepts the exact content of a challenge the server issued.
 */
export function walletTestContent(nonce: string): string {
  return [
    WALLET_TEST_TITLE,
    '',
    'This signature only tests your wallet. It does not sign you in and sends no transaction.',
    '',
    `Nonce: ${nonce}`,
  ].join('\n')
}

export function isWalletTestContent(content: string): boolean {
  return content.startsWith(`${WALLET_TEST_TITLE}\n`)
}

/** 16 random bytes as hex (Web Crypto: the browser and Node alike). */
export function randomNonce(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

export type WalletTestCheck = { name: string; ok: boolean; detail: string }
export type WalletTestVerification = {
  ok: boolean
  checks: WalletTestCheck[]
  signer?: string
  domain?: string
  timestamp?: number
  error?: string
}

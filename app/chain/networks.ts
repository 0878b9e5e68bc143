export const TESTNET_GENESIS_ID = '0x000000000b2bce3c70bc649a02749e8687721b09ed2e15997f466536b20bb127'
export const MAINNET_GENESIS_ID = '0x00000000851caf3cfdb6e899cf5958bfb1ac3413d346d43539627e6be7ec1b4a'
/** Testnet chain tag (last byte of the genesis id): 0x27 = 39. */
export const TESTNET_CHAIN_TAG = 0x27

export type NetworkName = 'testnet' | 'mainnet' | 'unknown'

export function networkFromGenesisId(genesisId: string | null | undefined): NetworkName {
  const id = (genesisId ?? '').toLowerCase()
  if (id === TESTNET_GENESIS_ID) return 'testnet'
  if (id === MAINNET_GENESIS_ID) return 'mainnet'
  return 'unknown'
}

export const EXPLORER_TX_URL = 'https://explore-testnet.vechain.org/transactions/'

export function explorerTxUrl(txHash: string) {
  return EXPLORER_TX_URL + (txHash.startsWith('0x') ? txHash : `0x${txHash}`)
}

/** A real on-chain hash: 0x + 32 bytes. Anything else is off-chain or pending (decision 030). */
export function isRealTxHash(txHash: string | null | undefined): txHash is string {
  return typeof txHash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(txHash)
}

export function shortAddress(address: string, head = 6, tail = 4) {
  if (address.length <= head + tail) return address
  return `${address.slice(0, head)}...${address.slice(-tail)}`
}

export const EXPLORER_ACCOUNT_URL = 'https://explore-testnet.vechain.org/accounts/'

export function explorerAccountUrl(address: string) {
  return EXPLORER_ACCOUNT_URL + address
}

import { HDNode, address as addressUtil, mnemonic, secp256k1 } from 'thor-devkit'
import type { Env } from '~/utils/env.server'
import { TESTNET_CONTRACTS } from './contracts'
import { TESTNET_GENESIS_ID } from './networks'

/** Where the chain is and which contracts ReCircle reads: known with or without a payout key. */
export type ChainConfig = {
  nodeUrl: string
  genesisId: string
  /** Last byte of the genesis id (0x27 on the test network). */
  chainTag: number
  poolAddress: string
  appsAddress: string
  b3trAddress: string
  /** VeBetter Passport (issue 22). */
  passportAddress: string
  /** null until VEBETTER_APP_ID is set. */
  appId: string | null
}

/** What the payout worker needs on top: the distributor's key, never stored in the database. */
export type PayoutConfig = ChainConfig & {
  appId: string
  privateKey: Buffer
  distributor: string
  intervalMs: number
  expirationBlocks: number
  confirmations: number
  maxSignings: number
  /** How long a worker holds a payout row; a crashed worker's row is taken over after this. */
  leaseMs: number
}

export function chainConfigFromEnv(env: Env): ChainConfig {
  const genesisId = env.THOR_GENESIS_ID ?? TESTNET_GENESIS_ID
  return {
    nodeUrl: env.THOR_NODE_URL.replace(/\/+$/, ''),
    genesisId,
    chainTag: parseInt(genesisId.slice(-2), 16),
    // Unset: the testnet's published VeBetterDAO contracts.
    poolAddress: env.X2EARN_REWARDS_POOL_ADDRESS ?? TESTNET_CONTRACTS.x2EarnRewardsPool,
    appsAddress: env.X2EARN_APPS_ADDRESS ?? TESTNET_CONTRACTS.x2EarnApps,
    b3trAddress: env.B3TR_TOKEN_ADDRESS ?? TESTNET_CONTRACTS.b3tr,
    passportAddress: env.VEBETTER_PASSPORT_ADDRESS ?? TESTNET_CONTRACTS.veBetterPassport,
    appId: env.VEBETTER_APP_ID ?? null,
  }
}

/** null when payouts are not configured: claims are then recorded and wait ("Awaiting payout"). */
export function payoutConfigFromEnv(env: Env): PayoutConfig | null {
  const chain = chainConfigFromEnv(env)
  const privateKey = distributorKey(env)
  if (!privateKey || !chain.appId) return null
  return {
    ...chain,
    appId: chain.appId,
    privateKey,
    distributor: addressUtil.fromPublicKey(secp256k1.derivePublicKey(privateKey)).toLowerCase(),
    intervalMs: env.PAYOUT_INTERVAL_MS,
    expirationBlocks: env.PAYOUT_TX_EXPIRATION_BLOCKS,
    confirmations: env.PAYOUT_CONFIRMATIONS,
    maxSignings: env.PAYOUT_MAX_SIGNINGS,
    leaseMs: env.PAYOUT_LEASE_MS,
  }
}

function distributorKey(env: Env): Buffer | null {
  if (env.PAYOUT_PRIVATE_KEY) {
    const key = Buffer.from(env.PAYOUT_PRIVATE_KEY, 'hex')
    if (!isValidKey(key)) throw new Error('Invalid environment configuration:\n  PAYOUT_PRIVATE_KEY: not a valid secp256k1 key')
    return key
  }
  if (env.PAYOUT_MNEMONIC.length > 0) {
    if (!mnemonic.validate(env.PAYOUT_MNEMONIC)) throw new Error('Invalid environment configuration:\n  PAYOUT_MNEMONIC: not a valid BIP-39 mnemonic')
    // VeChain's derivation path (m/44'/818'/0'/0), first account, as VeWorld and Sync2 derive it.
    const node = HDNode.fromMnemonic(env.PAYOUT_MNEMONIC).derive(0)
    if (!node.privateKey) throw new Error("Invalid environment configuration:\n  PAYOUT_MNEMONIC: no private key could be derived")
    return node.privateKey
  }
  return null
}

function isValidKey(key: Buffer): boolean {
  try {
    secp256k1.derivePublicKey(key)
    return true
  } catch {
    return false
  }
}

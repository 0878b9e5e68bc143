import { keccak256 } from 'thor-devkit'
import type { PayoutConfig } from '../../app/chain/config.server'
import { TESTNET_CONTRACTS } from '../../app/chain/contracts'
import { TESTNET_GENESIS_ID } from '../../app/chain/networks'
import { createThorClient } from '../../app/chain/thor.server'
import { claimAllTokens } from '../../app/claims/claims.server'
import { getBalanceMilli, recordEntry } from '../../app/rewards/ledger.server'
import { findOrCreateUser } from '../../app/users/users.server'
import { getDb } from '../../app/utils/db.server'
import type { WorkerContext } from '../../app/payouts/worker.server'
import { createFakeThor, type FakeThorOptions } from '../mocks/fake-thor'
import { server } from '../mocks/index'
import { createTestWallet, walletFromKey } from './wallet'

/** A fixed distributor for tests (never a real key). */
export const DISTRIBUTOR = walletFromKey(Buffer.from('d7'.repeat(32), 'hex'))
export const APP_ID = '0x' + keccak256('ReCircle test app').toString('hex')
export const B3TR = 10n ** 18n
export const THOR = 'https://thor.test'

export function payoutConfig(overrides: Partial<PayoutConfig> = {}): PayoutConfig {
  return {
    nodeUrl: THOR,
    genesisId: TESTNET_GENESIS_ID,
    chainTag: 0x27,
    poolAddress: TESTNET_CONTRACTS.x2EarnRewardsPool,
    appsAddress: TESTNET_CONTRACTS.x2EarnApps,
    b3trAddress: TESTNET_CONTRACTS.b3tr,
    passportAddress: TESTNET_CONTRACTS.veBetterPassport,
    appId: APP_ID,
    privateKey: DISTRIBUTOR.privateKey,
    distributor: DISTRIBUTOR.address,
    intervalMs: 10_000,
    expirationBlocks: 180,
    confirmations: 1,
    maxSignings: 3,
    leaseMs: 60_000,
    ...overrides,
  }
}

/** A fake node with a registered, funded app whose distributor has gas, answering on https://thor.test. */
export function fakeChain(options: FakeThorOptions = {}) {
  const fake = createFakeThor({
    url: THOR,
    apps: { [APP_ID]: { distributors: [DISTRIBUTOR.address], availableFunds: 10_000n * B3TR } },
    poolB3tr: 10_000n * B3TR,
    accounts: { [DISTRIBUTOR.address]: { vet: 100n * B3TR, vtho: 5_000n * B3TR } },
    ...options,
  })
  server.use(...fake.handlers)
  return fake
}

/** A test clock the worker reads, moved by hand so back-offs and leases are deterministic. */
export function testClock(start = new Date()) {
  let now = start.getTime()
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) }
}

export function workerContext(clock: { now: () => Date }, overrides: Partial<WorkerContext> & { config?: PayoutConfig } = {}): WorkerContext {
  return {
    db: getDb(),
    thor: createThorClient({ baseUrl: THOR, timeoutMs: 2_000 }),
    config: payoutConfig(),
    workerId: `test-${Math.random().toString(16).slice(2)}`,
    now: clock.now,
    ...overrides,
  }
}

/** A user who earned `amountMilli` from `receipts` receipts and claimed it all. */
export async function userWithClaim(amountMilli = 19_000, receipts = 1) {
  const db = getDb()
  const wallet = createTestWallet()
  const { user } = await findOrCreateUser(db, wallet.address, new Date())
  const each = Math.floor(amountMilli / receipts)
  for (let i = 0; i < receipts; i++) {
    await recordEntry(db, {
      user_id: user.id,
      type: 'receipt_verification',
      amount_milli: i === receipts - 1 ? amountMilli - each * (receipts - 1) : each,
      description: 'Receipt reward',
      status: 'completed',
      tx_hash: null,
      idempotency_key: `test-receipt:${user.id}:${i}`,
      receipt_id: null,
      store_submission_id: null,
      referral_id: null,
    })
  }
  const claim = await claimAllTokens(db, { userId: user.id, amountMilli })
  if (!claim.ok) throw new Error(claim.error)
  return { user, wallet, claimId: claim.claimId, payoutId: claim.payoutId, amountMilli }
}

export async function payoutRow(id: number) {
  return getDb().selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function claimRow(id: number) {
  return getDb().selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function balance(userId: number) {
  return getBalanceMilli(getDb(), userId)
}

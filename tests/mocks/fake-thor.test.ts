import { http, passthrough } from 'msw'
import { address, secp256k1, Transaction } from 'thor-devkit'
import { describe, expect, it } from 'vitest'
import { decodeRevertReason, events, fn } from '../../app/chain/abi'
import { TESTNET_CONTRACTS } from '../../app/chain/contracts'
import { TESTNET_GENESIS_ID } from '../../app/chain/networks'
import { buildProof, createFakeThor, DISTRIBUTE_GAS, legacyGasPrice, type FakeThor, type FakeThorOptions } from './fake-thor'
import { startFakeThorServer } from './fake-thor-server'
import { server } from './index'

const BASE = 'https://thor.test'
const B3TR = 10n ** 18n
const APP_ID = '0x' + 'a1'.repeat(32)
const OTHER_APP_ID = '0x' + 'b2'.repeat(32)
const POOL = TESTNET_CONTRACTS.x2EarnRewardsPool
const RECEIVER = '0x' + '42'.repeat(20)
const DISTRIBUTOR_KEY = secp256k1.generatePrivateKey()
const DISTRIBUTOR = address.fromPublicKey(secp256k1.derivePublicKey(DISTRIBUTOR_KEY))
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

function newFake(options: FakeThorOptions = {}) {
  const fake = createFakeThor({
    apps: { [APP_ID]: { distributors: [DISTRIBUTOR], availableFunds: 100n * B3TR } },
    poolB3tr: 1_000n * B3TR,
    accounts: { [DISTRIBUTOR]: { vet: 5n * B3TR, vtho: 1_000n * B3TR } },
    ...options,
  })
  server.use(...fake.handlers)
  return fake
}

type DistributeArgs = {
  appId: string
  amount: bigint
  receiver: string
  proofTypes: string[]
  proofValues: string[]
  impactCodes: string[]
  impactValues: number[]
  description: string
}

function distributeClause(args: Partial<DistributeArgs> = {}) {
  const a: DistributeArgs = {
    appId: APP_ID,
    amount: 3n * B3TR,
    receiver: RECEIVER,
    proofTypes: ['image'],
    proofValues: ['https://recircle.test/r/1'],
    impactCodes: ['carbon', 'water'],
    impactValues: [1200, 30],
    description: 'Recycled 3 bottles',
    ...args,
  }
  const data = fn.distributeRewardWithProof.encode(a.appId, a.amount, a.receiver, a.proofTypes, a.proofValues, a.impactCodes, a.impactValues, a.description)
  return { to: POOL, value: 0, data }
}

let nonce = 1
function signTx(fake: FakeThor, clauses: Transaction.Clause[], body: Partial<Transaction.LegacyBody> = {}, key = DISTRIBUTOR_KEY) {
  const tx = new Transaction({
    chainTag: fake.chainTag,
    blockRef: fake.blockRef(),
    expiration: 32,
    clauses,
    gasPriceCoef: 128,
    gas: 300_000,
    dependsOn: null,
    nonce: nonce++,
    ...body,
  })
  tx.signature = secp256k1.sign(tx.signingHash(), key)
  return { id: tx.id as string, raw: '0x' + tx.encode().toString('hex'), tx }
}

async function get(path: string, base = BASE) {
  const res = await fetch(base + path)
  expect(res.status).toBe(200)
  return res.json()
}

async function send(raw: string, base = BASE) {
  const res = await fetch(base + '/transactions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ raw }) })
  return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() }
}

async function call(clauses: Array<{ to: string; value?: number; data: string }>, caller?: string) {
  const res = await fetch(BASE + '/accounts/*?revision=best', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ clauses, caller }),
  })
  expect(res.status).toBe(200)
  return (await res.json()) as Array<{ data: string; events: Array<{ address: string; topics: string[]; data: string }>; gasUsed: number; reverted: boolean; vmError: string }>
}

describe('blocks', () => {
  it('answers best, 0, finalized, numbers and ids as Thor does', async () => {
    const fake = newFake({ startBlock: 1000, finalityLagBlocks: 3 })
    const best = await get('/blocks/best')
    expect(best).toMatchObject({ number: 1000, isTrunk: true, isFinalized: false, transactions: [], gasLimit: expect.any(Number) })
    expect(best.id).toMatch(/^0x000003e8[0-9a-f]{56}$/)
    expect(best.id).toBe(fake.bestBlock().id)

    const genesis = await get('/blocks/0')
    expect(genesis.id).toBe(TESTNET_GENESIS_ID)
    expect(genesis.isFinalized).toBe(true)

    const finalized = await get('/blocks/finalized')
    expect(finalized.number).toBe(997)
    expect(finalized.isFinalized).toBe(true)

    const previous = await get('/blocks/999')
    expect(best.parentID).toBe(previous.id)
    expect(best.timestamp - previous.timestamp).toBe(10)
    expect(await get(`/blocks/${previous.id}`)).toEqual(previous)

    expect(await get('/blocks/1001')).toBeNull()
    expect(await get('/blocks/0x000003e9' + 'ab'.repeat(28))).toBeNull()
    expect((await fetch(BASE + '/blocks/nonsense')).status).toBe(400)

    fake.mine(2)
    expect((await get('/blocks/best')).number).toBe(1002)
    expect((await get('/blocks/finalized')).number).toBe(999)
  })
})

describe('accounts', () => {
  it('answers balances as hex and hasCode for the contracts', async () => {
    newFake()
    expect(await get(`/accounts/${POOL}`)).toEqual({ balance: '0x0', energy: '0x0', hasCode: true })
    expect(await get(`/accounts/${DISTRIBUTOR}`)).toEqual({ balance: '0x' + (5n * B3TR).toString(16), energy: '0x' + (1_000n * B3TR).toString(16), hasCode: false })
  })

  it('answers view calls in one batch, encoded like the contracts', async () => {
    const fake = newFake({ version: '7' })
    const results = await call([
      { to: POOL, data: fn.version.encode() },
      { to: POOL, data: fn.availableFunds.encode(APP_ID) },
      { to: TESTNET_CONTRACTS.x2EarnApps, data: fn.isRewardDistributor.encode(APP_ID, DISTRIBUTOR) },
      { to: TESTNET_CONTRACTS.x2EarnApps, data: fn.appExists.encode(OTHER_APP_ID) },
      { to: TESTNET_CONTRACTS.b3tr, data: fn.balanceOf.encode(POOL) },
      { to: POOL, data: fn.isDistributionPaused.encode(APP_ID) },
    ])
    expect(results.map((r) => r.reverted)).toEqual([false, false, false, false, false, false])
    expect(fn.version.decode(results[0].data)[0]).toBe('7')
    expect(fn.availableFunds.decode(results[1].data)[0]).toBe((100n * B3TR).toString())
    expect(fn.isRewardDistributor.decode(results[2].data)[0]).toBe(true)
    expect(fn.appExists.decode(results[3].data)[0]).toBe(false)
    expect(fn.balanceOf.decode(results[4].data)[0]).toBe((1_000n * B3TR).toString())

    fake.setPaused(APP_ID, true)
    const [paused] = await call([{ to: POOL, data: fn.isDistributionPaused.encode(APP_ID) }])
    expect(fn.isDistributionPaused.decode(paused.data)[0]).toBe(true)
  })

  it('reverts an unknown selector with empty data and stops the batch there', async () => {
    newFake()
    const results = await call([
      { to: POOL, data: '0xdeadbeef' },
      { to: POOL, data: fn.version.encode() },
    ])
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ reverted: true, vmError: 'execution reverted', data: '0x' })
  })

  it('answers VeBetter Passport for wallets it has no entry for with defaultPassport', async () => {
    const passport = TESTNET_CONTRACTS.veBetterPassport
    const isPerson = async (who: string) => fn.isPerson.decode((await call([{ to: passport, data: fn.isPerson.encode(who) }]))[0].data).person
    const stranger = '0x' + '5e'.repeat(20)
    newFake()
    expect(await isPerson(stranger)).toBe(false)

    // The newest fake's handlers answer first.
    newFake({ defaultPassport: { person: true } }).setPassport(RECEIVER, { person: false })
    expect(await isPerson(stranger)).toBe(true)
    expect(await isPerson(RECEIVER)).toBe(false)
    const [blacklisted, signals] = await call([
      { to: passport, data: fn.isBlacklisted.encode(stranger) },
      { to: passport, data: fn.signaledCounter.encode(stranger) },
    ])
    expect(fn.isBlacklisted.decode(blacklisted.data)[0]).toBe(false)
    expect(fn.signaledCounter.decode(signals.data)[0]).toBe('0')
  })

  it('simulates a distribution with the caller as msg.sender and commits nothing', async () => {
    const fake = newFake()
    const [result] = await call([distributeClause()], DISTRIBUTOR)
    expect(result).toMatchObject({ reverted: false, vmError: '', gasUsed: DISTRIBUTE_GAS })
    expect(result.events.map((e) => e.address)).toEqual([POOL, TESTNET_CONTRACTS.b3tr])
    expect(fake.b3trBalanceOf(RECEIVER)).toBe(0n)
    expect(fake.appFunds(APP_ID)?.availableFunds).toBe(100n * B3TR)

    const [anonymous] = await call([distributeClause()])
    expect(decodeRevertReason(anonymous.data)).toBe('X2EarnRewardsPool: not a reward distributor')
  })
})

describe('a successful distribution', () => {
  it('is accepted, pending, then included with its events, and moves the balances', async () => {
    const fake = newFake()
    const { id, raw, tx } = signTx(fake, [distributeClause()])

    expect(await send(raw)).toEqual({ status: 200, body: { id } })
    expect(fake.pending()).toEqual([id])
    expect(await get(`/transactions/${id}/receipt`)).toBeNull()
    expect(await get(`/transactions/${id}`)).toBeNull()
    const pending = await get(`/transactions/${id}?pending=true`)
    expect(pending).toMatchObject({ id, origin: DISTRIBUTOR, delegator: null, meta: null, chainTag: 0x27, gasPriceCoef: 128, gas: 300_000 })
    expect(pending.clauses).toEqual([{ to: POOL, value: '0x0', data: distributeClause().data }])

    const [block] = fake.mine()
    expect(block.txIds).toEqual([id])
    expect(fake.pending()).toEqual([])

    const receipt = await get(`/transactions/${id}/receipt`)
    const gasUsed = tx.intrinsicGas + DISTRIBUTE_GAS
    const paid = BigInt(gasUsed) * legacyGasPrice(128)
    expect(receipt).toMatchObject({
      gasUsed,
      gasPayer: DISTRIBUTOR,
      paid: '0x' + paid.toString(16),
      reverted: false,
      meta: { blockNumber: 1001, blockID: block.id, txID: id, txOrigin: DISTRIBUTOR },
    })
    const [reward, transfer] = receipt.outputs[0].events
    const decoded = events.rewardDistributed.decode(reward.data, reward.topics)
    expect(decoded.amount).toBe((3n * B3TR).toString())
    expect(decoded.appId).toBe(APP_ID)
    expect(decoded.receiver.toLowerCase()).toBe(RECEIVER)
    expect(decoded.distributor.toLowerCase()).toBe(DISTRIBUTOR)
    expect(decoded.proof).toBe(
      '{"version": 2,"description": "Recycled 3 bottles","proof": {"image":"https://recircle.test/r/1"},"impact": {"carbon":1200,"water":30}}',
    )
    expect(transfer.address).toBe(TESTNET_CONTRACTS.b3tr)
    expect(events.transfer.decode(transfer.data, transfer.topics).value).toBe((3n * B3TR).toString())

    expect((await get(`/transactions/${id}`)).meta).toEqual({ blockID: block.id, blockNumber: 1001, blockTimestamp: block.timestamp })
    expect((await get('/blocks/best')).transactions).toEqual([id])
    const expanded = await get('/blocks/best?expanded=true')
    expect(expanded.transactions[0]).toMatchObject({ id, origin: DISTRIBUTOR, reverted: false, gasUsed, outputs: receipt.outputs })
    expect(fake.b3trBalanceOf(RECEIVER)).toBe(3n * B3TR)
    expect(fake.poolB3tr()).toBe(997n * B3TR)
    expect(fake.appFunds(APP_ID)?.availableFunds).toBe(97n * B3TR)
    expect(fake.account(DISTRIBUTOR).vtho).toBe(1_000n * B3TR - paid)
    expect(fake.distributions()).toEqual([
      { txId: id, blockNumber: 1001, appId: APP_ID, receiver: RECEIVER, amountWei: 3n * B3TR, proof: decoded.proof, distributor: DISTRIBUTOR },
    ])
    expect(fake.included()[0]).toMatchObject({ id, reverted: false, clauses: [{ name: 'distributeRewardWithProof' }] })
  })

  it('debits the rewards pool balance instead when the app has it enabled', async () => {
    const fake = newFake()
    fake.setRewardsPool(APP_ID, { enabled: true, balance: 10n * B3TR })
    await send(signTx(fake, [distributeClause()]).raw)
    fake.mine()
    expect(fake.appFunds(APP_ID)).toMatchObject({ rewardsPoolBalance: 7n * B3TR, availableFunds: 100n * B3TR })
  })
})

describe('sending', () => {
  it('answers the same id for a tx already pending and refuses a known (included) tx', async () => {
    const fake = newFake()
    const { id, raw } = signTx(fake, [distributeClause()])
    await send(raw)
    expect(await send(raw)).toEqual({ status: 200, body: { id } })
    expect(fake.pending()).toEqual([id])
    fake.mine()
    expect(await send(raw)).toEqual({ status: 403, body: 'tx rejected: known tx\n' })
    expect(fake.sendCounts()).toMatchObject({ accepted: 1, duplicate: 1, rejected: 1, total: 3 })
    expect(fake.distributions()).toHaveLength(1)
  })

  it('refuses a badly signed tx', async () => {
    const fake = newFake()
    const { tx } = signTx(fake, [distributeClause()])
    const signature = Buffer.from(tx.signature as Buffer)
    const encodeWith = (sig: Buffer) => {
      const copy = new Transaction(tx.body)
      copy.signature = sig
      return '0x' + copy.encode().toString('hex')
    }

    const badRecovery = Buffer.from(signature)
    badRecovery[64] = 7
    expect(await send(encodeWith(badRecovery))).toEqual({ status: 400, body: 'bad tx: invalid signature\n' })
    expect(await send(encodeWith(signature.subarray(0, 64)))).toEqual({ status: 400, body: 'bad tx: invalid signature length\n' })

    const s = BigInt('0x' + signature.subarray(32, 64).toString('hex'))
    const highS = Buffer.concat([signature.subarray(0, 32), Buffer.from((SECP256K1_N - s).toString(16).padStart(64, '0'), 'hex'), Buffer.from([signature[64] ^ 1])])
    expect(await send(encodeWith(highS))).toEqual({ status: 400, body: 'bad tx: invalid signature: S value is out of range\n' })
    expect(fake.pending()).toEqual([])
  })

  it('refuses malformed bodies, hex and RLP with 400', async () => {
    const fake = newFake()
    expect(await send('0xzz')).toEqual({ status: 400, body: 'raw: invalid hex string\n' })
    expect(await send('f8')).toEqual({ status: 400, body: 'raw: hex string without 0x prefix\n' })
    const rlp = await send('0xc0')
    expect(rlp.status).toBe(400)
    expect(rlp.body).toMatch(/^raw: /)
    const notJson = await fetch(BASE + '/transactions', { method: 'POST', body: '{raw' })
    expect(notJson.status).toBe(400)
    expect(fake.sendCounts()['bad-request']).toBe(4)
  })

  it('refuses a tx for another chain', async () => {
    const fake = newFake()
    expect(await send(signTx(fake, [distributeClause()], { chainTag: 0x4a }).raw)).toEqual({ status: 400, body: 'bad tx: chain tag mismatch\n' })
  })

  it('refuses an expired tx and accepts one on the last block of its window', async () => {
    const fake = newFake({ startBlock: 1000 })
    const old = fake.blockId(900).slice(0, 18)
    expect(await send(signTx(fake, [distributeClause()], { blockRef: old, expiration: 18 }).raw)).toEqual({ status: 403, body: 'tx rejected: expired\n' })
    // Thor judges expiry against the next block (1001): 982 + 18 is too old, 983 + 18 is just fine.
    const late = fake.blockId(982).slice(0, 18)
    expect(await send(signTx(fake, [distributeClause()], { blockRef: late, expiration: 18 }).raw)).toEqual({ status: 403, body: 'tx rejected: expired\n' })
    const edge = fake.blockId(983).slice(0, 18)
    expect((await send(signTx(fake, [distributeClause()], { blockRef: edge, expiration: 18 }).raw)).status).toBe(200)
  })

  it('refuses a blockRef too far ahead, too little gas and an origin without energy', async () => {
    const fake = newFake({ startBlock: 1000 })
    const ahead = '0x' + (1000 + 1 + 31).toString(16).padStart(8, '0') + '00000000'
    expect(await send(signTx(fake, [distributeClause()], { blockRef: ahead }).raw)).toEqual({ status: 403, body: 'tx rejected: block ref out of schedule\n' })
    expect(await send(signTx(fake, [distributeClause()], { gas: 21_000 }).raw)).toEqual({ status: 400, body: 'bad tx: intrinsic gas exceeds provided gas\n' })
    const poorKey = secp256k1.generatePrivateKey()
    expect(await send(signTx(fake, [distributeClause()], {}, poorKey).raw)).toEqual({ status: 403, body: 'tx rejected: insufficient energy\n' })
  })

  it('drops a tx whose inclusion comes after its expiry: it never gets a receipt', async () => {
    const fake = newFake()
    fake.faults.inclusionDelayBlocks = 50
    const { id, raw } = signTx(fake, [distributeClause()], { expiration: 18 })
    expect((await send(raw)).status).toBe(200)
    fake.mine(30)
    expect(fake.pending()).toEqual([])
    expect(fake.dropped()).toEqual([id])
    fake.faults.inclusionDelayBlocks = 1
    fake.mine(5)
    expect(await get(`/transactions/${id}/receipt`)).toBeNull()
    expect(await get(`/transactions/${id}?pending=true`)).toBeNull()
    expect(fake.b3trBalanceOf(RECEIVER)).toBe(0n)
  })

  it('includes a slow tx once the delay has passed', async () => {
    const fake = newFake()
    fake.faults.inclusionDelayBlocks = 3
    const { id, raw } = signTx(fake, [distributeClause()])
    await send(raw)
    fake.mine(2)
    expect(await get(`/transactions/${id}/receipt`)).toBeNull()
    fake.mine()
    expect((await get(`/transactions/${id}/receipt`)).meta.blockNumber).toBe(1003)
  })
})

type RevertCase = { reason: string; args?: Partial<DistributeArgs>; setup?: (fake: FakeThor) => void }

const pauseAndEmpty = (fake: FakeThor) => {
  fake.setPaused(APP_ID, true)
  fake.removeDistributor(APP_ID, DISTRIBUTOR)
  fake.setPoolB3tr(0n)
}

// Each case also breaks every check that comes later in the contract, so only the order picks the reason.
const REVERT_CASES: RevertCase[] = [
  { reason: 'X2EarnRewardsPool: Mismatched input lengths for Proof', args: { proofTypes: ['image', 'photo'], impactCodes: ['nope'] }, setup: pauseAndEmpty },
  { reason: 'X2EarnRewardsPool: Invalid proof type', args: { proofTypes: ['photo'], impactCodes: ['carbon'], impactValues: [1, 2] }, setup: pauseAndEmpty },
  { reason: 'X2EarnRewardsPool: Mismatched input lengths for Impact', args: { impactCodes: ['nope'], impactValues: [1, 2] }, setup: pauseAndEmpty },
  { reason: 'X2EarnRewardsPool: Invalid impact key', args: { impactCodes: ['carbon', 'nope'] }, setup: pauseAndEmpty },
  { reason: 'X2EarnRewardsPool: distribution is paused', setup: pauseAndEmpty },
  {
    reason: 'X2EarnRewardsPool: app does not exist',
    setup: (fake) => {
      fake.removeApp(APP_ID)
      fake.setPoolB3tr(0n)
    },
  },
  {
    reason: 'X2EarnRewardsPool: not a reward distributor',
    setup: (fake) => {
      fake.removeDistributor(APP_ID, DISTRIBUTOR)
      fake.setPoolB3tr(0n)
    },
  },
  {
    reason: 'X2EarnRewardsPool: insufficient funds on contract',
    setup: (fake) => {
      fake.setPoolB3tr(1n)
      fake.setAvailableFunds(APP_ID, 0n)
    },
  },
  {
    reason: 'X2EarnRewardsPool: not enough funds in the rewards pool',
    setup: (fake) => fake.setRewardsPool(APP_ID, { enabled: true, balance: 1n }),
  },
  {
    reason: 'X2EarnRewardsPool: app has insufficient available funds',
    setup: (fake) => {
      fake.setRewardsPool(APP_ID, { enabled: false, balance: 1_000n * B3TR })
      fake.setAvailableFunds(APP_ID, 1n)
    },
  },
]

describe('distribution reverts, in the contract order', () => {
  it.each(REVERT_CASES.map((c) => [c.reason, c] as const))('%s (simulated and on chain)', async (reason, c) => {
    const fake = newFake()
    c.setup?.(fake)
    const clause = distributeClause(c.args)

    const [simulated] = await call([clause], DISTRIBUTOR)
    expect(simulated).toMatchObject({ reverted: true, vmError: 'execution reverted', events: [] })
    expect(decodeRevertReason(simulated.data)).toBe(reason)

    const before = { pool: fake.poolB3tr(), app: fake.appFunds(APP_ID), vtho: fake.account(DISTRIBUTOR).vtho }
    const { id, raw } = signTx(fake, [clause])
    expect((await send(raw)).status).toBe(200)
    fake.mine()
    const receipt = await get(`/transactions/${id}/receipt`)
    expect(receipt).toMatchObject({ reverted: true, outputs: [] })
    expect(fake.included()[0]).toMatchObject({ id, reverted: true, revertReason: reason })
    expect(fake.poolB3tr()).toBe(before.pool)
    expect(fake.appFunds(APP_ID)).toEqual(before.app)
    expect(fake.b3trBalanceOf(RECEIVER)).toBe(0n)
    expect(fake.account(DISTRIBUTOR).vtho).toBe(before.vtho - BigInt(receipt.paid))
    expect(fake.distributions()).toEqual([])
  })

  it('reverts the whole tx when a later clause reverts', async () => {
    const fake = newFake()
    const { id, raw } = signTx(fake, [distributeClause(), distributeClause({ appId: OTHER_APP_ID })], { gas: 500_000 })
    await send(raw)
    fake.mine()
    expect((await get(`/transactions/${id}/receipt`)).reverted).toBe(true)
    expect(fake.b3trBalanceOf(RECEIVER)).toBe(0n)
    expect(fake.appFunds(APP_ID)?.availableFunds).toBe(100n * B3TR)
  })

  it('runs out of gas when the tx carries less than the call needs', async () => {
    const fake = newFake()
    const probe = signTx(fake, [distributeClause()])
    const gas = probe.tx.intrinsicGas + DISTRIBUTE_GAS - 1
    const { id, raw } = signTx(fake, [distributeClause()], { gas })
    await send(raw)
    fake.mine()
    expect(await get(`/transactions/${id}/receipt`)).toMatchObject({ reverted: true, gasUsed: gas })
    expect(fake.included()[0].revertReason).toBe('out of gas')
  })

  it('builds the proof like the contract, quirks included', () => {
    expect(buildProof([], [], [], [], 'ignored')).toBe('')
    // Lengths are only compared when both arrays of a pair are non-empty.
    expect(buildProof(['image'], [], ['carbon'], [5], '')).toBe('{"version": 2,"impact": {"carbon":5}}')
    expect(buildProof(['text', 'link'], ['a', 'b'], [], [], 'd')).toBe('{"version": 2,"description": "d","proof": {"text":"a","link":"b"}}')
    expect(() => buildProof(['text'], ['a'], ['carbon'], [1, 2], '')).toThrow('X2EarnRewardsPool: Mismatched input lengths for Impact')
  })
})

describe('faults', () => {
  it('down: every request fails as a network error', async () => {
    const fake = newFake()
    fake.faults.down = true
    await expect(fetch(BASE + '/blocks/best')).rejects.toThrow()
    await expect(send(signTx(fake, [distributeClause()]).raw)).rejects.toThrow()
    expect(fake.pending()).toEqual([])
    expect(fake.sendCounts().down).toBe(1)
    fake.faults.down = false
    expect((await get('/blocks/best')).number).toBe(1000)
  })

  it('loseSendAnswers: the tx is accepted but the client sees a network error', async () => {
    const fake = newFake()
    fake.faults.loseSendAnswers = 1
    const { id, raw } = signTx(fake, [distributeClause()])
    await expect(send(raw)).rejects.toThrow()
    expect(fake.pending()).toEqual([id])
    expect(fake.sends()).toEqual([{ txId: id, outcome: 'accepted', status: 200, message: null, answerLost: true }])
    expect(await send(raw)).toEqual({ status: 200, body: { id } })
    fake.mine()
    expect(fake.distributions()).toHaveLength(1)
  })

  it('dropSends: the tx never reaches the node', async () => {
    const fake = newFake()
    fake.faults.dropSends = 1
    const { raw } = signTx(fake, [distributeClause()])
    await expect(send(raw)).rejects.toThrow()
    expect(fake.pending()).toEqual([])
    expect(fake.faults.dropSends).toBe(0)
    expect((await send(raw)).status).toBe(200)
  })

  it('revertNextInclusion: the next included tx reverts whatever the state, once', async () => {
    const fake = newFake()
    fake.faults.revertNextInclusion = 'X2EarnRewardsPool: distribution is paused'
    const first = signTx(fake, [distributeClause()])
    const second = signTx(fake, [distributeClause()])
    await send(first.raw)
    await send(second.raw)
    fake.mine()
    expect((await get(`/transactions/${first.id}/receipt`)).reverted).toBe(true)
    expect((await get(`/transactions/${second.id}/receipt`)).reverted).toBe(false)
    expect(fake.distributions().map((d) => d.txId)).toEqual([second.id])
  })

  it('slowMs: answers late', async () => {
    const fake = newFake()
    fake.faults.slowMs = 120
    const started = Date.now()
    await get('/blocks/best')
    expect(Date.now() - started).toBeGreaterThanOrEqual(100)
  })
})

describe('over real HTTP', () => {
  it('answers on 127.0.0.1, mines on a timer and cuts the connection when down', async () => {
    const node = await startFakeThorServer({
      apps: { [APP_ID]: { distributors: [DISTRIBUTOR], availableFunds: 100n * B3TR } },
      poolB3tr: 1_000n * B3TR,
      accounts: { [DISTRIBUTOR]: { vtho: 1_000n * B3TR } },
      blockIntervalMs: 25,
    })
    try {
      server.use(http.all(`${node.url}/*`, () => passthrough()))
      expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      // The timer may mine while the answer travels: the block must be one the fake made, not older.
      const before = node.fake.bestBlock().number
      const best = await get('/blocks/best', node.url)
      expect(best.number).toBeGreaterThanOrEqual(before)
      expect(best.id).toBe(node.fake.blockId(best.number))

      const { id, raw } = signTx(node.fake, [distributeClause()])
      expect(await send(raw, node.url)).toEqual({ status: 200, body: { id } })
      await expect.poll(() => node.fake.distributions().length, { timeout: 2_000, interval: 20 }).toBe(1)
      expect((await get(`/transactions/${id}/receipt`, node.url)).reverted).toBe(false)

      node.fake.faults.down = true
      await expect(fetch(node.url + '/blocks/best')).rejects.toThrow()
    } finally {
      await node.close()
    }
  })
})

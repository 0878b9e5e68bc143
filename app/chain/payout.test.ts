import { Transaction, abi, address, secp256k1 } from 'thor-devkit'
import { describe, expect, it } from 'vitest'
import { decodeRevertReason, encodeRevertReason, fn } from './abi'
import {
  backoffMs,
  blockRefNumber,
  blockRefOf,
  buildProof,
  classifyRevert,
  distributeClause,
  feeCaps,
  gasLimit,
  maxFeeWei,
  lastIncludableBlock,
  legacyGasPrice,
  milliToWei,
  proofSafe,
  signPayoutTx,
  userFacingFailure,
} from './payout'
import { formatUnits } from './units'

const APP_ID = '0x' + 'ab'.repeat(32)
const POOL = '0x2d2a2207c68a46fc79325d7718e639d1047b0d8b'
const RECEIVER = '0x' + '12'.repeat(20)

describe('milliToWei', () => {
  it.each([
    [1, 10n ** 15n],
    [1000, 10n ** 18n],
    [19_500, 195n * 10n ** 17n],
    [Number.MAX_SAFE_INTEGER, BigInt(Number.MAX_SAFE_INTEGER) * 10n ** 15n],
  ])('%i milli-B3TR is %s wei', (milli, wei) => {
    expect(milliToWei(milli)).toBe(wei)
  })

  it.each([0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('refuses %s', (milli) => {
    expect(() => milliToWei(milli)).toThrow(RangeError)
  })
})

describe('proofSafe', () => {
  it('strips quotes, backslashes and control characters that would break the pool’s JSON', () => {
    expect(proofSafe('a "quoted" \\path\\\n\ttab')).toBe('a quoted pathtab')
  })
  it('keeps ordinary text and bounds its length', () => {
    expect(proofSafe('ReCircle claim 7: 2 receipts')).toBe('ReCircle claim 7: 2 receipts')
    expect(proofSafe('x'.repeat(500))).toHaveLength(200)
  })
})

describe('buildProof', () => {
  it('reports carbon and water of the receipts, arrays of equal length', () => {
    const proof = buildProof({ claimId: 7, amountMilli: 19_000, impact: { receiptCount: 2, carbonGrams: 10_000, waterLiters: 1400 } })
    expect(proof.proofTypes).toEqual(['text'])
    expect(proof.proofValues).toHaveLength(1)
    expect(proof.proofValues[0]).toContain('claim 7')
    expect(proof.impactCodes).toEqual(['carbon', 'water'])
    // 1,400 litres are 1,400,000 ml: the pool's water unit (IMPACT_UNITS).
    expect(proof.impactValues).toEqual([10_000n, 1_400_000n])
    expect(proof.description).toBe('B3TR for 2 sustainable transport receipts')
  })
  it('leaves out zero impacts and says "1 receipt" in the singular', () => {
    const one = buildProof({ claimId: 1, amountMilli: 1, impact: { receiptCount: 1, carbonGrams: 5000, waterLiters: 0 } })
    expect(one.impactCodes).toEqual(['carbon'])
    expect(one.impactValues).toEqual([5000n])
    expect(one.description).toBe('B3TR for 1 sustainable transport receipt')
    const none = buildProof({ claimId: 1, amountMilli: 1, impact: { receiptCount: 0, carbonGrams: 0, waterLiters: 0 } })
    expect(none.impactCodes).toEqual([])
    expect(none.impactValues).toEqual([])
    expect(none.description).toBe('B3TR for ReCircle rewards')
  })
})

describe('distributeClause', () => {
  it('encodes distributeRewardWithProof with the amount in wei for the pool', () => {
    const proof = buildProof({ claimId: 3, amountMilli: 12_345, impact: { receiptCount: 1, carbonGrams: 5000, waterLiters: 700 } })
    const clause = distributeClause({ poolAddress: POOL, appId: APP_ID, receiver: RECEIVER, amountMilli: 12_345, proof })
    expect(clause.to).toBe(POOL)
    expect(clause.value).toBe('0x0')
    expect(clause.data.slice(0, 10)).toBe(fn.distributeRewardWithProof.signature)
    const decoded = abi.decodeParameters(fn.distributeRewardWithProof.definition.inputs, '0x' + clause.data.slice(10))
    expect(decoded.appId).toBe(APP_ID)
    expect(decoded.amount).toBe((12_345n * 10n ** 15n).toString())
    expect(decoded.receiver.toLowerCase()).toBe(RECEIVER)
    expect(decoded.impactCodes).toEqual(['carbon', 'water'])
    expect(decoded.impactValues).toEqual(['5000', '700000'])
    expect(decoded.proofTypes).toEqual(['text'])
    expect(decoded.description).toBe(proof.description)
  })
})

describe('signPayoutTx', () => {
  it('signs a dynamic-fee transaction (type 81) whose id, origin and fee caps thor-devkit recovers from the raw bytes', () => {
    const key = secp256k1.generatePrivateKey()
    const signer = address.fromPublicKey(secp256k1.derivePublicKey(key))
    const clause = { to: POOL, value: '0x0', data: '0x1234' }
    const bestBlockId = '0x0000a1b2' + 'cd'.repeat(28)
    const fees = { maxFeePerGas: 2n * 10n ** 13n + 5n * 10n ** 11n, maxPriorityFeePerGas: 5n * 10n ** 11n }
    const signed = signPayoutTx({ chainTag: 0x27, bestBlockId, expiration: 180, clause, gas: 100_000, fees, privateKey: key, nonce: '0x01' })
    const decoded = Transaction.decode(Buffer.from(signed.raw.slice(2), 'hex'))
    expect(decoded.id).toBe(signed.id)
    expect(decoded.origin).toBe(signer)
    expect(decoded.body.chainTag).toBe(0x27)
    expect(decoded.body.blockRef).toBe(bestBlockId.slice(0, 18))
    expect(decoded.body.expiration).toBe(180)
    expect(decoded.body.clauses[0].to).toBe(POOL)
    expect(decoded.type).toBe(Transaction.Type.DynamicFee)
    const body = decoded.body as Transaction.DynamicFeeBody
    expect(BigInt(body.maxFeePerGas)).toBe(fees.maxFeePerGas)
    expect(BigInt(body.maxPriorityFeePerGas)).toBe(fees.maxPriorityFeePerGas)
  })
  it('gives the same id for the same body and key (re-sending can never pay twice)', () => {
    const key = Buffer.from('22'.repeat(32), 'hex')
    const input = { chainTag: 0x27, bestBlockId: '0x00000010' + '00'.repeat(28), expiration: 18, clause: { to: POOL, value: '0x0', data: '0x' }, gas: 50_000, fees: { maxFeePerGas: 3n * 10n ** 13n, maxPriorityFeePerGas: 10n ** 11n }, privateKey: key, nonce: '0x2a' }
    expect(signPayoutTx(input).id).toBe(signPayoutTx(input).id)
    expect(signPayoutTx({ ...input, nonce: '0x2b' }).id).not.toBe(signPayoutTx(input).id)
  })
})

describe('block references', () => {
  it('takes the first 8 bytes of the block id; the first 4 are its number', () => {
    const id = '0x00c0ffee' + 'ab'.repeat(28)
    expect(blockRefOf(id)).toBe('0x00c0ffeeabababab')
    expect(blockRefNumber(blockRefOf(id))).toBe(0xc0ffee)
    expect(lastIncludableBlock(blockRefOf(id), 180)).toBe(0xc0ffee + 180)
  })
  it('refuses something that is not a block id', () => {
    expect(() => blockRefOf('0x1234')).toThrow()
  })
})

describe('gas', () => {
  it('adds headroom to the intrinsic gas and the simulated execution', () => {
    const clause = { to: POOL, value: '0x0', data: '0x' + '00'.repeat(100) }
    const intrinsic = Transaction.intrinsicGas([clause])
    expect(gasLimit([clause], 80_000)).toBe(intrinsic + 100_000 + 10_000)
  })
  it.each([
    ['the first signing: 2× the base fee plus the tip', 10n ** 13n, 5n * 10n ** 11n, 0, 2n * 10n ** 13n + 5n * 10n ** 11n, 5n * 10n ** 11n],
    ['after an expiry: the cap doubles', 10n ** 13n, 5n * 10n ** 11n, 1, 4n * 10n ** 13n + 5n * 10n ** 11n, 5n * 10n ** 11n],
    ['never more than 16× the base fee', 10n ** 13n, 5n * 10n ** 11n, 9, 16n * 10n ** 13n + 5n * 10n ** 11n, 5n * 10n ** 11n],
    ['a zero suggested tip becomes 1 % of the base fee', 10n ** 13n, 0n, 0, 2n * 10n ** 13n + 10n ** 11n, 10n ** 11n],
  ])('sets the fee caps: %s', (_name, baseFeePerGas, suggestedPriorityFee, previousSignings, maxFee, tip) => {
    expect(feeCaps({ baseFeePerGas, suggestedPriorityFee, previousSignings })).toEqual({ maxFeePerGas: maxFee, maxPriorityFeePerGas: tip })
  })
  it('bounds the cost by gas × fee cap, and refuses a missing base fee', () => {
    expect(maxFeeWei(100_000, 3n * 10n ** 13n)).toBe(3n * 10n ** 18n)
    expect(() => feeCaps({ baseFeePerGas: 0n, suggestedPriorityFee: 1n, previousSignings: 0 })).toThrow()
  })
  it('prices old legacy gas at the base price raised by the coefficient (detail pages)', () => {
    expect(legacyGasPrice(0)).toBe(10n ** 13n)
    expect(legacyGasPrice(255)).toBe(2n * 10n ** 13n)
    expect(legacyGasPrice(128)).toBe(10n ** 13n + (10n ** 13n * 128n) / 255n)
  })
})

describe('reverts', () => {
  it('round-trips an Error(string) revert reason', () => {
    const data = encodeRevertReason('X2EarnRewardsPool: distribution is paused')
    expect(decodeRevertReason(data)).toBe('X2EarnRewardsPool: distribution is paused')
  })
  it('answers null for no data or other data', () => {
    expect(decodeRevertReason('0x')).toBeNull()
    expect(decodeRevertReason(null)).toBeNull()
    expect(decodeRevertReason('0x12345678')).toBeNull()
    expect(decodeRevertReason('0x08c379a0zz')).toBeNull()
  })
  it.each([
    ['X2EarnRewardsPool: insufficient funds on contract', 'out_of_funds'],
    ['X2EarnRewardsPool: not enough funds in the rewards pool', 'out_of_funds'],
    ['X2EarnRewardsPool: app has insufficient available funds', 'out_of_funds'],
    ['X2EarnRewardsPool: distribution is paused', 'operator'],
    ['X2EarnRewardsPool: app does not exist', 'operator'],
    ['X2EarnRewardsPool: not a reward distributor', 'operator'],
    ['X2EarnRewardsPool: Invalid impact key', 'rejected'],
  ])('%s is %s', (reason, kind) => {
    expect(classifyRevert(reason)).toBe(kind)
  })
  it('tells the user the tokens are back, and why in plain words', () => {
    expect(userFacingFailure('X2EarnRewardsPool: not enough funds in the rewards pool')).toMatch(/out of funds.*back in your balance/)
    expect(userFacingFailure('X2EarnRewardsPool: Invalid impact key')).toMatch(/refused.*back in your balance/)
  })
})

describe('backoffMs', () => {
  it('doubles from 5 s and stops at 10 minutes', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([5000, 10_000, 20_000, 40_000])
    expect(backoffMs(30)).toBe(600_000)
  })
})

describe('formatUnits', () => {
  it.each([
    [0n, '0.00'],
    [10n ** 18n, '1.00'],
    [1_234_567n * 10n ** 13n, '12.34'],
    [-(5n * 10n ** 17n), '-0.50'],
  ])('%s wei reads %s', (wei, text) => {
    expect(formatUnits(wei)).toBe(text)
  })
})

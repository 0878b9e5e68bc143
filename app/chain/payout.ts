import { Transaction, secp256k1 } from 'thor-devkit'
import { fn } from './abi'
import { IMPACT_CODES, WEI_PER_MILLI } from './contracts'

// Pure helpers of a payout: amounts, the proof the pool records, the clause, the signed
// transaction and the reading of a revert. No I/O here; the worker (payouts.server.ts) does that.

export function milliToWei(amountMilli: number): bigint {
  if (!Number.isSafeInteger(amountMilli) || amountMilli <= 0) throw new RangeError(`A payout must be a positive integer milli-B3TR amount, got ${amountMilli}`)
  return BigInt(amountMilli) * WEI_PER_MILLI
}

/**
 * The pool builds its proof JSON by concatenation without escaping, so a `"` or `\` in any string
 * would make the on-chain JSON invalid; control characters have no place there either.
 */
export function proofSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/["\\\u0000-\u001f\u007f]/g, '').slice(0, 200)
}

export type PayoutImpact = { receiptCount: number; carbonGrams: number; waterLiters: number }

export type PayoutProof = {
  proofTypes: string[]
  proofValues: string[]
  impactCodes: string[]
  impactValues: bigint[]
  description: string
}

/** Litres (what ReCircle counts and shows) to the pool's water unit, millilitres (IMPACT_UNITS). */
export const ML_PER_LITER = 1000

/**
 * What the pool records with a claim: a text proof naming the claim, and the CO2 (grams) and
 * water (millilitres, converted from the litres ReCircle counts) of the receipts that make it up.
 * Zero impacts are left out; the arrays of each pair always have the same length (a mismatch reverts).
 */
export function buildProof(input: { claimId: number; amountMilli: number; impact: PayoutImpact }): PayoutProof {
  const { receiptCount, carbonGrams, waterLiters } = input.impact
  const impactCodes: string[] = []
  const impactValues: bigint[] = []
  if (carbonGrams > 0) {
    impactCodes.push(IMPACT_CODES.carbon)
    impactValues.push(BigInt(Math.round(carbonGrams)))
  }
  if (waterLiters > 0) {
    impactCodes.push(IMPACT_CODES.water)
    impactValues.push(BigInt(Math.round(waterLiters * ML_PER_LITER)))
  }
  const trips = receiptCount === 1 ? '1 sustainable transport receipt' : `${receiptCount} sustainable transport receipts`
  return {
    proofTypes: ['text'],
    proofValues: [proofSafe(`ReCircle claim ${input.claimId}: ${trips} verified by ReCircle`)],
    impactCodes: impactCodes.map(proofSafe),
    impactValues,
    description: proofSafe(receiptCount > 0 ? `B3TR for ${trips}` : 'B3TR for ReCircle rewards'),
  }
}

export type Clause = { to: string; value: string; data: string }

export function distributeClause(input: { poolAddress: string; appId: string; receiver: string; amountMilli: number; proof: PayoutProof }): Clause {
  const { proof } = input
  const data = fn.distributeRewardWithProof.encode(
    input.appId,
    milliToWei(input.amountMilli).toString(),
    input.receiver,
    proof.proofTypes,
    proof.proofValues,
    proof.impactCodes,
    proof.impactValues.map(String),
    proof.description,
  )
  return { to: input.poolAddress, value: '0x0', data }
}

/** Gas for the transaction: the intrinsic cost plus what the simulation used, with headroom. */
export function gasLimit(clauses: Clause[], simulatedGasUsed: number): number {
  return Transaction.intrinsicGas(clauses) + Math.ceil(simulatedGasUsed * 1.25) + 10_000
}

/**
 * Legacy transactions' base gas price before the Galactica fork (10^13 wei per gas): only to read
 * the price of an old legacy transaction on its detail page. Payouts are dynamic-fee transactions.
 */
export const LEGACY_BASE_GAS_PRICE = 10n ** 13n

export function legacyGasPrice(gasPriceCoef: number, base: bigint = LEGACY_BASE_GAS_PRICE): bigint {
  return base + (base * BigInt(gasPriceCoef)) / 255n
}

export type FeeCaps = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

/** The base fee may rise 12.5 % a block (Thor's BaseFeeChangeDenominator, 8): a first cap of 2× survives ~6 full blocks. */
export const FEE_HEADROOM = 2n
/** Each signing after an expiry doubles the headroom, up to this many times the base fee. */
export const MAX_FEE_HEADROOM = 16n

/**
 * A dynamic-fee transaction's caps (decision 041): the tip the node suggests (never zero: a
 * zero-tip transaction waits behind every other one), and a fee cap of the base fee of the best
 * block times the headroom, doubled for each signing before (an expiry after a fee spike raises
 * the cap), plus the tip. Only base fee + tip is paid; the cap bounds it.
 */
export function feeCaps(input: { baseFeePerGas: bigint; suggestedPriorityFee: bigint; previousSignings: number }): FeeCaps {
  if (input.baseFeePerGas <= 0n) throw new RangeError('The base fee must be positive')
  const tipFloor = input.baseFeePerGas / 100n > 0n ? input.baseFeePerGas / 100n : 1n
  const maxPriorityFeePerGas = input.suggestedPriorityFee > 0n ? input.suggestedPriorityFee : tipFloor
  let headroom = FEE_HEADROOM * 2n ** BigInt(Math.max(0, input.previousSignings))
  if (headroom > MAX_FEE_HEADROOM) headroom = MAX_FEE_HEADROOM
  return { maxPriorityFeePerGas, maxFeePerGas: input.baseFeePerGas * headroom + maxPriorityFeePerGas }
}

/** The most VTHO a transaction with this gas can cost: the node buys gas × fee cap up front. */
export function maxFeeWei(gas: number, maxFeePerGas: bigint): bigint {
  return BigInt(gas) * maxFeePerGas
}

export type SignedPayoutTx = { id: string; raw: string; blockRef: string; expiration: number; gas: number; nonce: string } & FeeCaps

/**
 * Sign a one-clause dynamic-fee transaction (type 81). Its id is fixed by the body and the signer,
 * so sending it again can never pay twice.
 */
export function signPayoutTx(input: {
  chainTag: number
  bestBlockId: string
  expiration: number
  clause: Clause
  gas: number
  fees: FeeCaps
  privateKey: Buffer
  nonce: string
}): SignedPayoutTx {
  const body: Transaction.DynamicFeeBody = {
    type: Transaction.Type.DynamicFee,
    chainTag: input.chainTag,
    blockRef: blockRefOf(input.bestBlockId),
    expiration: input.expiration,
    clauses: [input.clause],
    maxPriorityFeePerGas: '0x' + input.fees.maxPriorityFeePerGas.toString(16),
    maxFeePerGas: '0x' + input.fees.maxFeePerGas.toString(16),
    gas: input.gas,
    dependsOn: null,
    nonce: input.nonce,
  }
  const tx = new Transaction(body)
  tx.signature = secp256k1.sign(tx.signingHash(), input.privateKey)
  const id = tx.id
  if (!id) throw new Error('Signing the payout transaction failed')
  return {
    id,
    raw: '0x' + tx.encode().toString('hex'),
    blockRef: body.blockRef,
    expiration: body.expiration,
    gas: input.gas,
    nonce: input.nonce,
    ...input.fees,
  }
}

/** A block reference is the first 8 bytes of a block id; its first 4 bytes are the block number. */
export function blockRefOf(blockId: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(blockId)) throw new Error(`Not a block id: ${blockId}`)
  return blockId.slice(0, 18).toLowerCase()
}

export function blockRefNumber(blockRef: string): number {
  return parseInt(blockRef.slice(2, 10), 16)
}

/** After this block a transaction with this reference and expiration can never be included. */
export function lastIncludableBlock(blockRef: string, expiration: number): number {
  return blockRefNumber(blockRef) + expiration
}

export type RevertKind = 'out_of_funds' | 'operator' | 'rejected'

const OUT_OF_FUNDS = ['insufficient funds on contract', 'not enough funds in the rewards pool', 'app has insufficient available funds']
const OPERATOR = ['distribution is paused', 'app does not exist', 'not a reward distributor']

/**
 * Out of funds fails the claim (the tokens go back to the balance, the user may claim later);
 * an operator problem (paused, unknown app, key not a distributor) holds the payout until the
 * operator fixes it; anything else is a refusal of this payout.
 */
export function classifyRevert(reason: string): RevertKind {
  const text = reason.toLowerCase()
  if (OUT_OF_FUNDS.some((s) => text.includes(s))) return 'out_of_funds'
  if (OPERATOR.some((s) => text.includes(s))) return 'operator'
  return 'rejected'
}

/** What the user reads about a failed claim. */
export function userFacingFailure(reason: string): string {
  if (classifyRevert(reason) === 'out_of_funds') {
    return 'The rewards pool is out of funds right now. Your tokens are back in your balance; please claim again later.'
  }
  return 'The payout was refused on-chain. Your tokens are back in your balance; please claim again later or contact support.'
}

/** Waiting after the n-th failed attempt: 5 s, 10 s, 20 s … up to 10 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 600_000)
}

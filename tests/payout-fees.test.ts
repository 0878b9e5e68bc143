/**
 * Issue 22, points 1 and 2, against the fake node: the impact units a paid transaction records,
 * and dynamic-fee payouts that get through a base-fee spike without an operator, paid once.
 */
import { Transaction } from 'thor-devkit'
import { beforeEach, describe, expect, it } from 'vitest'
import { IMPACT_UNITS } from '../app/chain/contracts'
import { CO2_GRAMS_PER_RECEIPT, WATER_LITERS_PER_RECEIPT } from '../app/engagement/impact'
import { runPayoutsOnce } from '../app/payouts/worker.server'
import { getDb } from '../app/utils/db.server'
import { fakeChain, payoutConfig, testClock, userWithClaim, workerContext } from './utils/payouts'

beforeEach(async () => {
  // Each case starts with an empty queue (earlier cases' payouts would be picked up otherwise).
  await getDb().deleteFrom('payouts').execute()
})

async function payoutRow(id: number) {
  return getDb().selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/**
 * VeBetterDAO's impact units ("Distribute reward with sustainability proofs", docs.vebetterdao.org):
 * carbon in grams of CO2, water in millilitres. ReCircle counts 5 kg of CO2 and 700 L of water per
 * receipt (app/engagement/impact.ts), so one receipt is 5,000 g and 700,000 ml on-chain.
 */
const DOCUMENTED_UNITS: Record<string, { unit: string; perReceipt: number }> = {
  carbon: { unit: 'g', perReceipt: CO2_GRAMS_PER_RECEIPT },
  water: { unit: 'ml', perReceipt: WATER_LITERS_PER_RECEIPT * 1000 },
}

describe('impact units on-chain', () => {
  it('records every impact value of a paid transaction in the unit the pool documents', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const receipts = 3
    const { payoutId } = await userWithClaim(24_000, receipts)
    await runPayoutsOnce(ctx)
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')

    const [tx] = fake.included()
    const clause = tx.clauses[0]
    expect(clause.name).toBe('distributeRewardWithProof')
    const codes = clause.args.impactCodes as string[]
    const values = (clause.args.impactValues as string[]).map(Number)
    expect(codes.sort()).toEqual(['carbon', 'water'])
    for (const [i, code] of (clause.args.impactCodes as string[]).entries()) {
      expect(IMPACT_UNITS[code as keyof typeof IMPACT_UNITS]).toBe(DOCUMENTED_UNITS[code].unit)
      expect(values[i]).toBe(receipts * DOCUMENTED_UNITS[code].perReceipt)
    }
    const proof = JSON.parse(fake.distributions()[0].proof)
    expect(proof.impact).toEqual({ carbon: 15_000, water: 2_100_000 })
  })
})

describe('dynamic fees', () => {
  it('sends a type-81 transaction capped at twice the base fee plus the node’s tip, and pays base fee + tip', async () => {
    const fake = fakeChain({ baseFeePerGas: 3n * 10n ** 13n })
    const clock = testClock()
    const { payoutId } = await userWithClaim(5000)
    await runPayoutsOnce(workerContext(clock))
    const row = await payoutRow(payoutId)
    const tx = Transaction.decode(Buffer.from(row.raw_tx!.slice(2), 'hex'))
    expect(tx.type).toBe(Transaction.Type.DynamicFee)
    const body = tx.body as Transaction.DynamicFeeBody
    const tip = fake.suggestedPriorityFee()
    expect(BigInt(body.maxPriorityFeePerGas)).toBe(tip)
    expect(tip).toBeGreaterThan(0n)
    expect(BigInt(body.maxFeePerGas)).toBe(2n * 3n * 10n ** 13n + tip)
    fake.mine(1)
    const [included] = fake.included()
    expect(included.paid).toBe(BigInt(included.gasUsed) * (3n * 10n ** 13n + tip))
  })

  it('gets a payout through a fee spike without an operator, paid once', async () => {
    const fake = fakeChain({ baseFeePerGas: 10n ** 13n })
    const clock = testClock()
    const ctx = workerContext(clock, { config: payoutConfig({ expirationBlocks: 18 }) })
    const { payoutId } = await userWithClaim(5000)

    // Signed at a base fee of 10^13 (cap 2×10^13 + tip); the fee jumps 3× before it is sent.
    const real = ctx.thor.sendRawTransaction.bind(ctx.thor)
    let spiked = false
    ctx.thor.sendRawTransaction = async (raw) => {
      if (!spiked) {
        fake.setBaseFee(3n * 10n ** 13n)
        spiked = true
      }
      return real(raw)
    }
    await runPayoutsOnce(ctx)
    let row = await payoutRow(payoutId)
    expect(row.status).toBe('signed')
    expect(row.error).toMatch(/less than block base fee/)
    expect(fake.sendCounts().rejected).toBe(1)

    // The worker keeps sending the same bytes while they can still be included, then, once the
    // finalized chain has passed their last block, signs anew with a doubled cap that fits.
    for (let i = 0; i < 12 && row.status !== 'confirmed'; i++) {
      fake.mine(3)
      clock.advance(60_000)
      await runPayoutsOnce(ctx)
      row = await payoutRow(payoutId)
    }
    expect(row.status).toBe('confirmed')
    expect(row.signings).toBe(2)
    const body = Transaction.decode(Buffer.from(row.raw_tx!.slice(2), 'hex')).body as Transaction.DynamicFeeBody
    expect(BigInt(body.maxFeePerGas)).toBeGreaterThanOrEqual(3n * 10n ** 13n)
    expect(fake.distributions()).toHaveLength(1)
    expect(fake.included()).toHaveLength(1)
  })

  it('lets the same transaction through when a spike ends before it expires, paid once', async () => {
    const fake = fakeChain({ baseFeePerGas: 10n ** 13n })
    const clock = testClock()
    const ctx = workerContext(clock)
    const { payoutId } = await userWithClaim(5000)
    await runPayoutsOnce(ctx) // signed and sent at a cap of 2×10^13 + tip
    fake.setBaseFee(5n * 10n ** 13n) // the spike: the pending tx waits in the pool
    fake.mine(3)
    expect(fake.included()).toHaveLength(0)
    fake.setBaseFee(12n * 10n ** 12n) // over
    fake.mine(2)
    clock.advance(60_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect((await payoutRow(payoutId)).signings).toBe(1)
    expect(fake.distributions()).toHaveLength(1)
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { claimState } from '../app/payouts/labels'
import { retryPayout } from '../app/payouts/payouts.server'
import { HttpResponse, http } from 'msw'
import { createThorClient } from '../app/chain/thor.server'
import { acquireLease, checkPayoutNetwork, runPayoutsOnce } from '../app/payouts/worker.server'
import { server } from './mocks/index'
import { listClaims } from '../app/claims/claims.server'
import { getDb } from '../app/utils/db.server'
import { findOrCreateUser } from '../app/users/users.server'
import {
  APP_ID,
  B3TR,
  DISTRIBUTOR,
  balance,
  claimRow,
  fakeChain,
  payoutConfig,
  payoutRow,
  testClock,
  userWithClaim,
  workerContext,
} from './utils/payouts'
import { ADMIN_WALLET } from './utils/wallet'

// The payout worker against the fake Thor node (tests/mocks/fake-thor.ts), which verifies every
// signed transaction and applies the rewards pool's checks in the contract's order.

beforeEach(async () => {
  // Each case starts with an empty queue (earlier cases' payouts would be picked up otherwise).
  await getDb().deleteFrom('payouts').execute()
})

async function adminId() {
  const { user } = await findOrCreateUser(getDb(), ADMIN_WALLET.address, new Date())
  return user.id
}

describe('paying a claim', () => {
  it('pays one claim with exactly one verified transaction and marks it confirmed', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const { user, wallet, claimId, payoutId, amountMilli } = await userWithClaim(19_500, 2)

    expect(await runPayoutsOnce(ctx)).toBe(1)
    const sent = await payoutRow(payoutId)
    expect(sent.status).toBe('sent')
    expect(sent.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(fake.pending()).toEqual([sent.tx_hash])
    // Sent is not paid: the ledger entry has no hash yet (decision 041).
    expect((await claimRow(claimId)).tx_hash).toBeNull()

    fake.mine(1) // included; no block on top of it yet
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('sent')

    fake.mine(1)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    const done = await payoutRow(payoutId)
    expect(done.status).toBe('confirmed')

    const [paid] = fake.distributions()
    expect(fake.distributions()).toHaveLength(1)
    expect(paid.txId).toBe(done.tx_hash)
    expect(paid.receiver).toBe(wallet.address.toLowerCase())
    expect(paid.distributor).toBe(DISTRIBUTOR.address.toLowerCase())
    expect(paid.appId).toBe(APP_ID)
    expect(paid.amountWei).toBe(BigInt(amountMilli) * 10n ** 15n)
    expect(JSON.parse(paid.proof)).toMatchObject({ version: 2, impact: { carbon: 10_000, water: 1_400_000 }, proof: { text: expect.stringContaining(`claim ${claimId}`) } })
    expect(fake.b3trBalanceOf(wallet.address)).toBe(195n * 10n ** 17n)
    expect(fake.included().map((t) => t.origin)).toEqual([DISTRIBUTOR.address.toLowerCase()])

    const claim = await claimRow(claimId)
    expect(claim).toMatchObject({ status: 'confirmed', tx_hash: done.tx_hash })
    expect(await balance(user.id)).toBe(0)
    const [listed] = await listClaims(getDb(), user.id)
    expect(claimState({ status: listed.status, payoutStatus: listed.payoutStatus, error: listed.payoutError }).label).toBe('Confirmed')
    expect(listed.txHash).toBe(done.tx_hash)

    // Nothing more to do: further passes send nothing.
    clock.advance(60_000)
    fake.mine(3)
    await runPayoutsOnce(ctx)
    expect(fake.sendCounts().accepted).toBe(1)
  })

  it('sends nothing extra when two workers run at the same time', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const a = workerContext(clock)
    const b = workerContext(clock)
    const claims = await Promise.all([userWithClaim(1000), userWithClaim(2000), userWithClaim(3000)])
    for (let round = 0; round < 5; round++) {
      await Promise.all([runPayoutsOnce(a), runPayoutsOnce(b), runPayoutsOnce(a), runPayoutsOnce(b)])
      fake.mine(1)
      clock.advance(10_000)
    }
    for (const c of claims) expect((await payoutRow(c.payoutId)).status).toBe('confirmed')
    expect(fake.distributions()).toHaveLength(3)
    expect(fake.sendCounts().accepted).toBe(3)
    expect(new Set(fake.distributions().map((d) => d.receiver)).size).toBe(3)
  })
})

describe('crashes and lost answers', () => {
  /** What a worker killed while holding the lease leaves behind. */
  async function abandonLease(payoutId: number, clock: { now: () => Date }) {
    await getDb()
      .updateTable('payouts')
      // Due now: only the dead worker's lease keeps the row from the next worker.
      .set({ lease_owner: 'killed-worker', lease_until: new Date(clock.now().getTime() + 60_000).toISOString(), next_attempt_at: null })
      .where('id', '=', payoutId)
      .execute()
  }

  it('killed after signing and before sending: the restarted worker sends the same transaction', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const { payoutId } = await userWithClaim(5000)
    fake.faults.dropSends = 1 // the send never reaches the node, as if the process died first
    await runPayoutsOnce(workerContext(clock))
    const signed = await payoutRow(payoutId)
    expect(signed.status).toBe('signed')
    expect(signed.raw_tx).toMatch(/^0x/)
    await abandonLease(payoutId, clock)

    const restarted = workerContext(clock)
    await runPayoutsOnce(restarted)
    expect(fake.sendCounts().accepted).toBe(0) // the lease of the dead worker is respected
    clock.advance(61_000)
    await runPayoutsOnce(restarted)
    expect(fake.pending()).toEqual([signed.tx_hash])
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(restarted)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(fake.distributions()).toHaveLength(1)
    expect(new Set(fake.sends().map((s) => s.txId).filter(Boolean)).size).toBe(1)
    expect(fake.sendCounts()).toMatchObject({ dropped: 1, accepted: 1 })
  })

  it('killed after sending and before the answer: the node says "known tx", and it is paid once', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const { payoutId } = await userWithClaim(5000)
    fake.faults.loseSendAnswers = 1
    await runPayoutsOnce(workerContext(clock))
    const row = await payoutRow(payoutId)
    expect(row.status).toBe('signed')
    expect(row.error).toMatch(/cannot be reached|Sending/)
    expect(fake.pending()).toEqual([row.tx_hash])
    await abandonLease(payoutId, clock)

    clock.advance(61_000)
    const restarted = workerContext(clock)
    await runPayoutsOnce(restarted) // re-sends the same raw transaction
    expect(fake.sendCounts()).toMatchObject({ accepted: 1, duplicate: 1, answerLost: 1 })
    expect((await payoutRow(payoutId)).status).toBe('sent')
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(restarted)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(fake.distributions()).toHaveLength(1)
  })

  it('a lost answer whose transaction is already included is confirmed from its receipt', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const { payoutId } = await userWithClaim(5000)
    fake.faults.loseSendAnswers = 1
    const ctx = workerContext(clock)
    await runPayoutsOnce(ctx)
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(fake.sendCounts().total).toBe(1)
    expect(fake.distributions()).toHaveLength(1)
  })

  it('killed during confirmation: the restarted worker confirms from the receipt without sending', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const { payoutId, claimId } = await userWithClaim(5000)
    await runPayoutsOnce(workerContext(clock))
    fake.mine(3)
    await abandonLease(payoutId, clock)
    clock.advance(61_000)
    await runPayoutsOnce(workerContext(clock))
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect((await claimRow(claimId)).status).toBe('confirmed')
    expect(fake.sendCounts().total).toBe(1)
    expect(fake.distributions()).toHaveLength(1)
  })
})

describe('the node is down', () => {
  it('retries with growing back-off and pays once when the node is back', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const { payoutId } = await userWithClaim(5000)
    fake.faults.down = true
    await runPayoutsOnce(ctx)
    let row = await payoutRow(payoutId)
    expect(row).toMatchObject({ status: 'pending', attempts: 1 })
    expect(row.error).toMatch(/cannot be reached/)
    const firstDue = Date.parse(row.next_attempt_at!)
    expect(firstDue - clock.now().getTime()).toBe(5_000)

    expect(await runPayoutsOnce(ctx)).toBe(0) // not due yet: nothing is asked of the node
    clock.advance(5_000)
    await runPayoutsOnce(ctx)
    row = await payoutRow(payoutId)
    expect(row.attempts).toBe(2)
    expect(Date.parse(row.next_attempt_at!) - clock.now().getTime()).toBe(10_000)

    fake.faults.down = false
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(fake.sendCounts().accepted).toBe(1)
    expect(fake.distributions()).toHaveLength(1)
  })

  it('keeps a sent payout while the node is down, then confirms it', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const { payoutId } = await userWithClaim(5000)
    await runPayoutsOnce(ctx)
    fake.faults.down = true
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('sent')
    fake.faults.down = false
    fake.mine(2)
    clock.advance(10 * 60_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(fake.distributions()).toHaveLength(1)
  })
})

describe('refusals', () => {
  it('fails the claim when the app is out of funds, returns the balance and says why', async () => {
    const fake = fakeChain()
    fake.setAvailableFunds(APP_ID, 1000n) // a few wei
    const clock = testClock()
    const { user, payoutId, claimId } = await userWithClaim(5000)
    expect(await balance(user.id)).toBe(0)
    await runPayoutsOnce(workerContext(clock))
    const row = await payoutRow(payoutId)
    expect(row.status).toBe('failed')
    expect(row.error).toBe('X2EarnRewardsPool: app has insufficient available funds')
    expect((await claimRow(claimId)).status).toBe('failed')
    expect(await balance(user.id)).toBe(5000)
    expect(fake.sendCounts().total).toBe(0)
    const [listed] = await listClaims(getDb(), user.id)
    const state = claimState({ status: listed.status, payoutStatus: listed.payoutStatus, error: listed.payoutError })
    expect(state.label).toBe('Failed')
    expect(state.detail).toMatch(/out of funds/)
    expect(listed.txHash).toBeNull()
  })

  it('a revert seen only on chain fails the claim with the reason found by simulating again', async () => {
    const fake = fakeChain({ apps: { [APP_ID]: { distributors: [DISTRIBUTOR.address], availableFunds: 0n, rewardsPoolEnabled: true, rewardsPoolBalance: 100n * B3TR } } })
    const clock = testClock()
    const ctx = workerContext(clock)
    const { user, payoutId, claimId } = await userWithClaim(5000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('sent')
    fake.setRewardsPool(APP_ID, { enabled: true, balance: 0n }) // drained before inclusion
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    const row = await payoutRow(payoutId)
    expect(row.status).toBe('reverted')
    expect(row.error).toBe('X2EarnRewardsPool: not enough funds in the rewards pool')
    expect((await claimRow(claimId))).toMatchObject({ status: 'failed', tx_hash: null })
    expect(await balance(user.id)).toBe(5000)
    expect(fake.included()[0]?.reverted).toBe(true)
    expect(fake.distributions()).toHaveLength(0)
  })

  it.each([
    ['paused', (f: ReturnType<typeof fakeChain>) => f.setPaused(APP_ID, true), /distribution is paused/],
    ['not a distributor', (f: ReturnType<typeof fakeChain>) => f.removeDistributor(APP_ID, DISTRIBUTOR.address), /not a reward distributor/],
    ['no VTHO', (f: ReturnType<typeof fakeChain>) => f.setAccount(DISTRIBUTOR.address, { vtho: 0n }), /VTHO/],
  ])('holds the payout while %s, keeps the claim pending, and pays once fixed', async (_name, breakIt, reason) => {
    const fake = fakeChain()
    breakIt(fake)
    const clock = testClock()
    const ctx = workerContext(clock)
    const { user, payoutId, claimId } = await userWithClaim(4000)
    await runPayoutsOnce(ctx)
    const held = await payoutRow(payoutId)
    expect(held.status).toBe('pending')
    expect(held.error).toMatch(reason)
    expect((await claimRow(claimId)).status).toBe('pending')
    expect(await balance(user.id)).toBe(0)
    expect(fake.sendCounts().total).toBe(0)

    const healthy = fakeChain()
    void healthy // a fresh, healthy chain replaces the broken one
    clock.advance(5_000)
    await runPayoutsOnce(ctx)
    healthy.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(healthy.distributions()).toHaveLength(1)
  })
})

describe('expiry', () => {
  it('re-signs once after the finalized chain has passed the expiry of a transaction that was never included', async () => {
    const fake = fakeChain({ finalityLagBlocks: 6 })
    const clock = testClock()
    const ctx = workerContext(clock, { config: payoutConfig({ expirationBlocks: 18 }) })
    const { payoutId } = await userWithClaim(5000)
    fake.faults.inclusionDelayBlocks = 1000 // slow inclusion: it will expire in the pool
    await runPayoutsOnce(ctx)
    const first = await payoutRow(payoutId)
    expect(first.status).toBe('sent')

    fake.mine(10)
    clock.advance(100_000)
    await runPayoutsOnce(ctx) // still includable: sent again, nothing new signed
    expect((await payoutRow(payoutId)).tx_hash).toBe(first.tx_hash)

    fake.mine(10) // the best block is past blockRef + 18, the finalized one is not yet
    clock.advance(100_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId))).toMatchObject({ tx_hash: first.tx_hash, signings: 1 })

    fake.mine(6)
    fake.faults.inclusionDelayBlocks = 1
    clock.advance(100_000)
    await runPayoutsOnce(ctx)
    const second = await payoutRow(payoutId)
    expect(second.status).toBe('sent')
    expect(second.signings).toBe(2)
    expect(second.tx_hash).not.toBe(first.tx_hash)
    expect(JSON.parse(second.previous_tx_ids!)).toEqual([first.tx_hash])
    expect(fake.dropped()).toContain(first.tx_hash)

    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(fake.distributions()).toHaveLength(1)
    expect(fake.distributions()[0]!.txId).toBe(second.tx_hash)
  })

  it('stops re-signing after the configured number of signings and waits for an admin', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock, { config: payoutConfig({ expirationBlocks: 18, maxSignings: 1 }) })
    const { payoutId } = await userWithClaim(5000)
    fake.faults.inclusionDelayBlocks = 1000
    await runPayoutsOnce(ctx)
    fake.mine(25)
    clock.advance(300_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId))).toMatchObject({ status: 'expired', signings: 1 })
    clock.advance(600_000)
    expect(await runPayoutsOnce(ctx)).toBe(0)

    fake.faults.inclusionDelayBlocks = 1
    expect(await retryPayout(getDb(), { payoutId, adminUserId: await adminId() })).toMatchObject({ ok: true })
    await runPayoutsOnce(ctx)
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('confirmed')
    expect(fake.distributions()).toHaveLength(1)
  })
})

describe('a node that lags or answers oddly', () => {
  /** A node behind a load balancer that has not seen the receipt's block yet (without `head`). */
  function laggingReceipts() {
    server.use(
      http.get('https://thor.test/transactions/:id/receipt', ({ request }) => {
        if (new URL(request.url).searchParams.get('head')) return undefined // a synced node answers
        return HttpResponse.json(null)
      }),
    )
  }

  it('never re-signs an included transaction because one node did not show its receipt', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock, { config: payoutConfig({ expirationBlocks: 18 }) })
    const { payoutId } = await userWithClaim(5000)
    await runPayoutsOnce(ctx)
    const sent = await payoutRow(payoutId)
    fake.mine(1) // included
    laggingReceipts()
    fake.mine(40) // far past its expiry
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect(await payoutRow(payoutId)).toMatchObject({ status: 'sent', signings: 1, tx_hash: sent.tx_hash })
    expect(fake.sendCounts().accepted).toBe(1)
    expect(fake.distributions()).toHaveLength(1)
  })

  it('takes "known tx" for a resend of an included transaction as sent', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const { payoutId } = await userWithClaim(5000)
    fake.faults.loseSendAnswers = 1
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('signed')
    fake.mine(1)
    laggingReceipts()
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    const row = await payoutRow(payoutId)
    expect(row).toMatchObject({ status: 'sent', error: null })
    expect(fake.sends().at(-1)).toMatchObject({ status: 403, message: expect.stringMatching(/known tx/) })
  })

  it('does not decide a transaction is dead when the node does not have the finalized block', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock, { config: payoutConfig({ expirationBlocks: 18 }) })
    const { payoutId } = await userWithClaim(5000)
    fake.faults.inclusionDelayBlocks = 1000
    await runPayoutsOnce(ctx)
    fake.mine(40)
    server.use(
      http.get('https://thor.test/transactions/:id/receipt', ({ request }) =>
        new URL(request.url).searchParams.get('head') ? new HttpResponse('head: leveldb: not found\n', { status: 400 }) : HttpResponse.json(null),
      ),
    )
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    const row = await payoutRow(payoutId)
    expect(row).toMatchObject({ status: 'sent', signings: 1 })
    expect(row.error).toMatch(/not found/)
  })

  it('fails a reverted claim only once the revert is in a finalized block', async () => {
    const fake = fakeChain({ finalityLagBlocks: 10 })
    const clock = testClock()
    const ctx = workerContext(clock)
    const { user, payoutId, claimId } = await userWithClaim(5000)
    await runPayoutsOnce(ctx)
    fake.faults.revertNextInclusion = 'X2EarnRewardsPool: app has insufficient available funds'
    fake.mine(3)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('sent')
    expect((await claimRow(claimId)).status).toBe('pending')
    expect(await balance(user.id)).toBe(0)
    fake.mine(10)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(payoutId)).status).toBe('reverted')
    expect((await claimRow(claimId)).status).toBe('failed')
    expect(await balance(user.id)).toBe(5000)
  })

  it('does not confirm a receipt that shows no payment to the user, nor a malformed one', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const { payoutId, claimId } = await userWithClaim(5000)
    await runPayoutsOnce(ctx)
    fake.mine(3)
    const sent = await payoutRow(payoutId)
    const meta = { blockID: fake.blockId(1001), blockNumber: 1001, blockTimestamp: 0, txID: sent.tx_hash, txOrigin: DISTRIBUTOR.address }
    server.use(http.get('https://thor.test/transactions/:id/receipt', () => HttpResponse.json({ gasUsed: 1, gasPayer: DISTRIBUTOR.address, paid: '0x1', reward: '0x0', reverted: false, outputs: [{ events: [], transfers: [] }], meta })))
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    let row = await payoutRow(payoutId)
    expect(row.status).toBe('sent')
    expect(row.error).toMatch(/no RewardDistributed event/)
    server.use(http.get('https://thor.test/transactions/:id/receipt', () => HttpResponse.json({ outputs: [], meta })))
    clock.advance(600_000)
    await runPayoutsOnce(ctx)
    row = await payoutRow(payoutId)
    expect(row.status).toBe('sent')
    expect(row.error).toMatch(/malformed receipt/)
    expect((await claimRow(claimId)).status).toBe('pending')
  })

  it('stops when its lease is taken mid-step: nothing is signed or sent on stale state', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const { payoutId } = await userWithClaim(5000)
    // A node so slow that another worker takes the row while this one waits for the simulation.
    const slow = createThorClient({
      baseUrl: 'https://thor.test',
      fetch: async (input, init) => {
        if (String(input).includes('/accounts/*')) {
          await getDb().updateTable('payouts').set({ lease_owner: 'faster-worker' }).where('id', '=', payoutId).execute()
        }
        return fetch(input, init)
      },
    })
    await runPayoutsOnce(workerContext(clock, { thor: slow }))
    const row = await payoutRow(payoutId)
    expect(row).toMatchObject({ status: 'pending', raw_tx: null, lease_owner: 'faster-worker', error: null })
    expect(fake.sendCounts().total).toBe(0)
  })
})

describe('leases', () => {
  it('renews its lease before each call, so a slow node never lets another worker take the row mid-step', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const { payoutId } = await userWithClaim(5000)
    const leaseHeld: boolean[] = []
    const slow = createThorClient({
      baseUrl: 'https://thor.test',
      fetch: async (input, init) => {
        clock.advance(45_000) // each answer takes 45 s; the lease is 60 s
        const row = await payoutRow(payoutId)
        leaseHeld.push(row.lease_until !== null && Date.parse(row.lease_until) > clock.now().getTime())
        return fetch(input, init)
      },
    })
    await runPayoutsOnce(workerContext(clock, { thor: slow }))
    expect((await payoutRow(payoutId)).status).toBe('sent')
    expect(leaseHeld.length).toBeGreaterThanOrEqual(4)
    expect(leaseHeld.every(Boolean)).toBe(true)
    expect(fake.sendCounts().accepted).toBe(1)
  })

  it('does not lease a row that stopped being due after the list was read', async () => {
    fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock, { config: payoutConfig({ maxSignings: 2 }) })
    const { payoutId } = await userWithClaim(5000)
    const set = (values: Record<string, unknown>) => getDb().updateTable('payouts').set(values).where('id', '=', payoutId).execute()
    await set({ next_attempt_at: new Date(clock.now().getTime() + 60_000).toISOString() }) // held back meanwhile
    expect(await acquireLease(ctx, payoutId)).toBe(false)
    await set({ next_attempt_at: null, status: 'expired', signings: 2 }) // out of automatic signings meanwhile
    expect(await acquireLease(ctx, payoutId)).toBe(false)
    await set({ status: 'confirmed', signings: 1 })
    expect(await acquireLease(ctx, payoutId)).toBe(false)
    await set({ status: 'pending' })
    expect(await acquireLease(ctx, payoutId)).toBe(true)
    expect(await acquireLease(workerContext(clock), payoutId)).toBe(false) // leased now
  })
})

describe('admin retry', () => {
  it('takes a failed claim out of the balance again and pays it; refuses once the balance is spent', async () => {
    const fake = fakeChain()
    fake.setAvailableFunds(APP_ID, 0n)
    const clock = testClock()
    const ctx = workerContext(clock)
    const first = await userWithClaim(3000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(first.payoutId)).status).toBe('failed')
    expect(await balance(first.user.id)).toBe(3000)

    fake.setAvailableFunds(APP_ID, 100n * B3TR)
    const admin = await adminId()
    expect(await retryPayout(getDb(), { payoutId: first.payoutId, adminUserId: admin })).toMatchObject({ ok: true })
    expect(await balance(first.user.id)).toBe(0)
    expect((await claimRow(first.claimId)).status).toBe('pending')
    const audit = await getDb().selectFrom('audit_log').selectAll().where('action', '=', 'payout_retry').where('target_id', '=', first.payoutId).execute()
    expect(audit).toHaveLength(1)
    // A second click finds nothing to retry.
    expect(await retryPayout(getDb(), { payoutId: first.payoutId, adminUserId: admin })).toMatchObject({ ok: false })
    await runPayoutsOnce(ctx)
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(first.payoutId)).status).toBe('confirmed')
    expect(fake.distributions()).toHaveLength(1)

    // A failed claim whose tokens were claimed again cannot be retried.
    fake.setAvailableFunds(APP_ID, 0n)
    const second = await userWithClaim(2000)
    await runPayoutsOnce(ctx)
    expect((await payoutRow(second.payoutId)).status).toBe('failed')
    const { claimAllTokens } = await import('../app/claims/claims.server')
    expect((await claimAllTokens(getDb(), { userId: second.user.id, amountMilli: 2000 })).ok).toBe(true)
    const refused = await retryPayout(getDb(), { payoutId: second.payoutId, adminUserId: admin })
    expect(refused).toMatchObject({ ok: false })
    expect(await balance(second.user.id)).toBe(0)
    expect((await claimRow(second.claimId)).status).toBe('failed')
  })

  it('cannot retry a confirmed or a sent payout', async () => {
    const fake = fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const { payoutId } = await userWithClaim(1000)
    await runPayoutsOnce(ctx)
    const admin = await adminId()
    expect(await retryPayout(getDb(), { payoutId, adminUserId: admin })).toMatchObject({ ok: false, error: 'A sent payout cannot be retried' })
    fake.mine(2)
    clock.advance(10_000)
    await runPayoutsOnce(ctx)
    expect(await retryPayout(getDb(), { payoutId, adminUserId: admin })).toMatchObject({ ok: false, error: 'A confirmed payout cannot be retried' })
  })
})

describe('network check', () => {
  it('refuses a node on another network and accepts the configured one', async () => {
    fakeChain({ genesisId: '0x00000000851caf3cfdb6e899cf5958bfb1ac3413d346d43539627e6be7ec1b4a' })
    const clock = testClock()
    expect(await checkPayoutNetwork(workerContext(clock))).toMatch(/another network/)
    fakeChain()
    expect(await checkPayoutNetwork(workerContext(clock))).toBeNull()
    const check = await getDb().selectFrom('chain_checks').selectAll().where('name', '=', 'payout_worker').executeTakeFirstOrThrow()
    expect(JSON.parse(check.details_json!)).toMatchObject({ poolVersion: '7' })
  })
})

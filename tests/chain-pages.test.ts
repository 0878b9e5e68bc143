import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { action as payoutsAction, loader as payoutsLoader } from '../app/routes/admin.payouts'
import { loader as contractApi } from '../app/routes/api.contract.status'
import { loader as networkApi } from '../app/routes/api.network.status'
import { loader as contractStatusLoader } from '../app/routes/contract-status'
import { loader as redeemLoader } from '../app/routes/redeem'
import { runPayoutsOnce } from '../app/payouts/worker.server'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { server } from './mocks/index'
import { APP_ID, DISTRIBUTOR, fakeChain, payoutRow, testClock, userWithClaim, workerContext } from './utils/payouts'
import { bodyOf, formRequest, getRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

const ctx = { context: {}, params: {} }

async function settle(promise: Promise<Response>): Promise<Response> {
  try {
    return await promise
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

function configurePayouts(on: boolean) {
  if (on) {
    process.env.PAYOUT_PRIVATE_KEY = DISTRIBUTOR.privateKey.toString('hex')
    process.env.VEBETTER_APP_ID = APP_ID
  } else {
    delete process.env.PAYOUT_PRIVATE_KEY
    delete process.env.VEBETTER_APP_ID
  }
  resetEnvCache()
}

beforeEach(async () => {
  await getDb().deleteFrom('payouts').execute()
})
afterEach(() => configurePayouts(false))

describe('who may see the chain pages', () => {
  it('redirects the signed-out, forbids non-admins, serves admins', async () => {
    fakeChain()
    const user = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    for (const [loader, path] of [
      [payoutsLoader, '/admin/payouts'],
      [contractStatusLoader, '/contract-status'],
    ] as const) {
      expect((await settle(loader({ ...ctx, request: getRequest(path) }))).status).toBe(302)
      expect((await settle(loader({ ...ctx, request: getRequest(path, user.cookie) }))).status).toBe(403)
      expect((await settle(loader({ ...ctx, request: getRequest(path, admin.cookie) }))).status).toBe(200)
    }
    for (const [loader, path] of [
      [contractApi, '/api/contract/status'],
      [networkApi, '/api/network/status'],
    ] as const) {
      expect((await settle(loader({ ...ctx, request: getRequest(path) }))).status).toBe(401)
      expect((await settle(loader({ ...ctx, request: getRequest(path, user.cookie) }))).status).toBe(403)
    }
  })
})

describe('/contract-status', () => {
  it('ticks every item from real reads when payouts are configured and the app is funded', async () => {
    configurePayouts(true)
    const fake = fakeChain()
    const admin = await signInNewUser(ADMIN_WALLET)
    await runPayoutsOnce(workerContext(testClock())) // nothing queued; the network check is separate
    const { checkPayoutNetwork } = await import('../app/payouts/worker.server')
    expect(await checkPayoutNetwork(workerContext(testClock()))).toBeNull()
    const { status } = await bodyOf(await contractStatusLoader({ ...ctx, request: getRequest('/contract-status', admin.cookie) }))
    expect(status.network).toMatchObject({ connected: true, genesisOk: true, network: 'testnet', bestBlock: { number: fake.bestBlock().number } })
    expect(status.poolVersion).toEqual({ ok: true, value: '7' })
    expect(status.appExists).toEqual({ ok: true, value: true })
    expect(status.isRewardDistributor).toEqual({ ok: true, value: true })
    expect(status.budgetB3tr).toEqual({ ok: true, value: '10000.00' })
    expect(status.distributorVtho).toEqual({ ok: true, value: '5000.00' })
    expect(status.checklist.map((i: { label: string; done: boolean }) => [i.label, i.done])).toEqual([
      ['VeChain testnet', true],
      ['Rewards pool', true],
      ['App Registration', true],
      ['Reward Distributor', true],
      ['B3TR Token Access', true],
      ['Gas (VTHO)', true],
      ['Reward Distribution', true],
    ])
    expect(status.ready).toBe(true)

    const api = await bodyOf(await contractApi({ ...ctx, request: getRequest('/api/contract/status', admin.cookie) }))
    expect(api).toMatchObject({
      isDeployed: true,
      network: 'testnet',
      appId: APP_ID,
      rewardsPoolAddress: fake.contracts.x2EarnRewardsPool,
      contractAddress: fake.contracts.x2EarnRewardsPool,
      deploymentTx: null,
      poolVersion: '7',
      isRewardDistributor: true,
      ready: true,
    })
    expect(typeof api.lastChecked).toBe('string')
  })

  it('shows the Passport address and the fee figures it uses (issue 22)', async () => {
    configurePayouts(true)
    const fake = fakeChain({ baseFeePerGas: 2n * 10n ** 13n })
    const admin = await signInNewUser(ADMIN_WALLET)
    const { status } = await bodyOf(await contractStatusLoader({ ...ctx, request: getRequest('/contract-status', admin.cookie) }))
    expect(status.passportAddress).toBe(fake.contracts.veBetterPassport)
    const tip = fake.suggestedPriorityFee()
    expect(status.fees).toEqual({
      ok: true,
      value: {
        baseFeePerGas: String(2n * 10n ** 13n),
        priorityFeePerGas: String(tip),
        maxFeePerGas: String(4n * 10n ** 13n + tip),
        payoutVtho: '2.1000',
        payoutMaxVtho: '4.1000',
      },
    })
    expect(status.fundingAdvice).toBeNull()
  })

  it('says exactly which call funds an enabled but empty rewards pool (issue 22)', async () => {
    configurePayouts(true)
    const fake = fakeChain()
    fake.setRewardsPool(APP_ID, { enabled: true, balance: 0n })
    const admin = await signInNewUser(ADMIN_WALLET)
    const { status } = await bodyOf(await contractStatusLoader({ ...ctx, request: getRequest('/contract-status', admin.cookie) }))
    expect(status.rewardsPoolBalanceB3tr).toEqual({ ok: true, value: '0.00' })
    expect(status.availableFundsB3tr).toEqual({ ok: true, value: '10000.00' })
    expect(status.fundingAdvice).toContain(`increaseRewardsPoolBalance(${APP_ID}, ${10_000n * 10n ** 18n})`)
    expect(status.fundingAdvice).toContain(fake.contracts.x2EarnRewardsPool)
    fake.setRewardsPool(APP_ID, { enabled: true, balance: 5n * 10n ** 18n })
    const after = await bodyOf(await contractStatusLoader({ ...ctx, request: getRequest('/contract-status', admin.cookie) }))
    expect(after.status.fundingAdvice).toBeNull()
  })

  it('does not tick what it could not read: not a distributor, no budget, paused', async () => {
    configurePayouts(true)
    const fake = fakeChain()
    fake.removeDistributor(APP_ID, DISTRIBUTOR.address)
    fake.setAvailableFunds(APP_ID, 0n)
    fake.setPaused(APP_ID, true)
    const admin = await signInNewUser(ADMIN_WALLET)
    const { status } = await bodyOf(await contractStatusLoader({ ...ctx, request: getRequest('/contract-status', admin.cookie) }))
    const done = Object.fromEntries(status.checklist.map((i: { label: string; done: boolean }) => [i.label, i.done]))
    expect(done).toMatchObject({ 'VeChain testnet': true, 'App Registration': true, 'Reward Distributor': false, 'B3TR Token Access': false, 'Reward Distribution': false })
    expect(status.ready).toBe(false)
  })

  it('says payouts are not configured and still reads the network', async () => {
    fakeChain()
    const admin = await signInNewUser(ADMIN_WALLET)
    const { status } = await bodyOf(await contractStatusLoader({ ...ctx, request: getRequest('/contract-status', admin.cookie) }))
    expect(status.payoutsConfigured).toBe(false)
    expect(status.appExists).toBeNull()
    expect(status.checklist.find((i: { label: string }) => i.label === 'Reward Distribution').detail).toBe('Payouts are not configured')
  })

  it('answers honestly when the node is unreachable (200, disconnected, the error, the last error kept)', async () => {
    server.use(http.all('https://thor.test/*', () => HttpResponse.error()))
    const admin = await signInNewUser(ADMIN_WALLET)
    const res = await contractStatusLoader({ ...ctx, request: getRequest('/contract-status', admin.cookie) })
    expect(res.status).toBe(200)
    const { status } = await bodyOf(res)
    expect(status.network).toMatchObject({ connected: false, bestBlock: null })
    expect(status.network.error).toMatch(/cannot be reached/)
    expect(status.poolVersion.ok).toBe(false)
    expect(status.ready).toBe(false)
    const net = await bodyOf(await networkApi({ ...ctx, request: getRequest('/api/network/status', admin.cookie) }))
    expect(net).toMatchObject({ isConnected: false, rpcUrl: 'https://thor.test', blockNumber: null })
    expect(net.lastError).toMatch(/cannot be reached/)
  })

  it('the network API reports the best block', async () => {
    const fake = fakeChain()
    fake.mine(5)
    const admin = await signInNewUser(ADMIN_WALLET)
    const net = await bodyOf(await networkApi({ ...ctx, request: getRequest('/api/network/status', admin.cookie) }))
    expect(net).toMatchObject({ isConnected: true, network: 'testnet', blockNumber: fake.bestBlock().number, lastError: null })
  })
})

describe('/admin/payouts', () => {
  it('lists the queue by status, says when payouts are not configured, and retries a failed payout (audited)', async () => {
    const fake = fakeChain()
    fake.setAvailableFunds(APP_ID, 0n)
    const admin = await signInNewUser(ADMIN_WALLET)
    const { payoutId, user } = await userWithClaim(2500)
    await runPayoutsOnce(workerContext(testClock()))
    expect((await payoutRow(payoutId)).status).toBe('failed')

    const page = await bodyOf(await payoutsLoader({ ...ctx, request: getRequest('/admin/payouts?status=failed', admin.cookie) }))
    expect(page.status).toBe('failed')
    expect(page.chain.payoutsConfigured).toBe(false)
    expect(page.counts.failed.count).toBe(1)
    expect(page.payouts).toHaveLength(1)
    expect(page.payouts[0]).toMatchObject({ id: payoutId, userId: user.id, amountMilli: 2500, status: 'failed', error: 'X2EarnRewardsPool: app has insufficient available funds' })
    const odd = await bodyOf(await payoutsLoader({ ...ctx, request: getRequest('/admin/payouts?status=<script>', admin.cookie) }))
    expect(odd.status).toBeNull()

    fake.setAvailableFunds(APP_ID, 10n ** 21n)
    const res = await settle(payoutsAction({ ...ctx, request: formRequest('/admin/payouts?status=failed', { intent: 'retry', payoutId: String(payoutId) }, admin.cookie) }))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin/payouts?status=failed')
    expect((await payoutRow(payoutId)).status).toBe('pending')
    const audit = await getDb().selectFrom('audit_log').selectAll().where('action', '=', 'payout_retry').where('target_id', '=', payoutId).execute()
    expect(audit).toHaveLength(1)

    const bad = await settle(payoutsAction({ ...ctx, request: formRequest('/admin/payouts', { intent: 'retry', payoutId: 'x' }, admin.cookie) }))
    expect(bad.status).toBe(302)
    const notAdmin = await signInNewUser()
    expect((await settle(payoutsAction({ ...ctx, request: formRequest('/admin/payouts', { intent: 'retry', payoutId: String(payoutId) }, notAdmin.cookie) }))).status).toBe(403)
  })

  it('shows the page with the node down', async () => {
    server.use(http.all('https://thor.test/*', () => HttpResponse.error()))
    const admin = await signInNewUser(ADMIN_WALLET)
    const res = await payoutsLoader({ ...ctx, request: getRequest('/admin/payouts', admin.cookie) })
    expect(res.status).toBe(200)
    expect((await bodyOf(res)).chain.network.connected).toBe(false)
  })
})

describe('/redeem', () => {
  it('tells the user whether payouts are on', async () => {
    const { cookie } = await signInNewUser()
    expect((await bodyOf(await redeemLoader({ ...ctx, request: getRequest('/redeem', cookie) }))).payoutsConfigured).toBe(false)
    configurePayouts(true)
    expect((await bodyOf(await redeemLoader({ ...ctx, request: getRequest('/redeem', cookie) }))).payoutsConfigured).toBe(true)
  })
})

describe('configuration', () => {
  it('refuses half a payout configuration with a message naming the missing variable', async () => {
    const { getEnv } = await import('../app/utils/env.server')
    process.env.PAYOUT_PRIVATE_KEY = DISTRIBUTOR.privateKey.toString('hex')
    resetEnvCache()
    expect(() => getEnv()).toThrow(/VEBETTER_APP_ID: required when a payout key is set/)
    delete process.env.PAYOUT_PRIVATE_KEY
    process.env.VEBETTER_APP_ID = APP_ID
    resetEnvCache()
    expect(() => getEnv()).toThrow(/PAYOUT_PRIVATE_KEY or PAYOUT_MNEMONIC/)
    process.env.PAYOUT_PRIVATE_KEY = 'zz'
    resetEnvCache()
    expect(() => getEnv()).toThrow(/PAYOUT_PRIVATE_KEY/)
  })

  it('derives the distributor from a mnemonic on VeChain’s path', async () => {
    const { mnemonic, HDNode } = await import('thor-devkit')
    const { getPayoutConfig } = await import('../app/chain/chain.server')
    const words = mnemonic.generate()
    process.env.PAYOUT_MNEMONIC = words.join(' ')
    process.env.VEBETTER_APP_ID = APP_ID
    resetEnvCache()
    expect(getPayoutConfig()?.distributor).toBe(HDNode.fromMnemonic(words).derive(0).address.toLowerCase())
    process.env.PAYOUT_MNEMONIC = 'not a real mnemonic at all twelve words long for sure really yes'
    resetEnvCache()
    expect(() => getPayoutConfig()).toThrow(/PAYOUT_MNEMONIC/)
    delete process.env.PAYOUT_MNEMONIC
  })
})

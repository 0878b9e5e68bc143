import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { createDb } from '../../db/db.server'
import { startFakeThorServer } from '../mocks/fake-thor-server'
import { APP_ID, B3TR, DISTRIBUTOR } from '../utils/payouts'
import { ADMIN_WALLET, createTestWallet } from '../utils/wallet'
import { startAppServer, type AppServer } from './app-server'
import { launchBrowser, signedInContext } from './browser'
import { formatB3tr } from '../../app/rewards/money'

// The whole payout path in a browser: an app instance configured for payouts, talking over HTTP
// to the fake Thor node on 127.0.0.1 (a block every 250 ms), with JavaScript on and off.

let browser: Browser
let app: AppServer
let chain: Awaited<ReturnType<typeof startFakeThorServer>>

beforeAll(async () => {
  chain = await startFakeThorServer({
    blockIntervalMs: 250,
    apps: { [APP_ID]: { distributors: [DISTRIBUTOR.address], availableFunds: 1000n * B3TR } },
    poolB3tr: 1000n * B3TR,
    accounts: { [DISTRIBUTOR.address]: { vet: 10n * B3TR, vtho: 1000n * B3TR } },
  })
  app = await startAppServer({
    THOR_NODE_URL: chain.url,
    PAYOUT_PRIVATE_KEY: DISTRIBUTOR.privateKey.toString('hex'),
    VEBETTER_APP_ID: APP_ID,
    PAYOUT_INTERVAL_MS: '300',
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await chain?.close()
})

async function credit(walletAddress: string, amountMilli: number) {
  const db = createDb(app.dbUrl)
  const user = await db.selectFrom('users').select('id').where('wallet_address', '=', walletAddress.toLowerCase()).executeTakeFirstOrThrow()
  await db
    .insertInto('transactions')
    .values({
      user_id: user.id,
      type: 'receipt_verification',
      amount_milli: amountMilli,
      description: 'Receipt reward: e2e',
      status: 'completed',
      tx_hash: null,
      idempotency_key: `e2e-payout:${user.id}:${amountMilli}`,
      receipt_id: null,
      store_submission_id: null,
      referral_id: null,
      created_at: new Date().toISOString(),
    })
    .execute()
  await db.destroy()
}

/** Reload (works without JavaScript) until the claim history shows `label`. */
async function waitForClaimLabel(page: Page, label: string) {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    await page.goto(`${app.baseUrl}/redeem`)
    if ((await page.getByTestId('claim-history').getByText(label, { exact: true }).count()) > 0) return
    await page.waitForTimeout(300)
  }
  throw new Error(`The claim never showed "${label}". Server output:\n${app.output().slice(-3000)}`)
}

async function claimAll(page: Page, amount: string) {
  await page.goto(`${app.baseUrl}/redeem`)
  await expect(page.getByTestId('redeem-balance').textContent()).resolves.toBe(`${amount} B3TR`)
  await page.getByRole('link', { name: 'Claim All Tokens' }).click()
  const dialog = page.getByRole('dialog', { name: `Claim ${amount} B3TR?` })
  await dialog.getByText('shows as Confirmed once it is on-chain').waitFor()
  await dialog.getByRole('button', { name: 'Confirm Claim' }).click()
  await page.locator('.toast').getByText('Tokens Claimed').waitFor()
}

describe.each([
  ['without JavaScript', false],
  ['with JavaScript', true],
])('a claim paid on-chain %s', (_name, javaScriptEnabled) => {
  it('goes from the Redeem page to one confirmed transaction, shown with its link and chain data', async () => {
    const wallet = createTestWallet()
    const context = await signedInContext(browser, app.baseUrl, { javaScriptEnabled, wallet })
    const page = await context.newPage()
    const amountMilli = javaScriptEnabled ? 12_500 : 7_250
    await credit(wallet.address, amountMilli)
    const before = chain.fake.distributions().length

    // Issue 40: the one B3TR format, exact ('12.5', '7.25').
    await claimAll(page, formatB3tr(amountMilli))
    await waitForClaimLabel(page, 'Confirmed')
    const link = page.getByTestId('claim-history').getByRole('link', { name: 'View on VeChain' })
    const href = await link.getAttribute('href')
    expect(href).toMatch(/^https:\/\/explore-testnet\.vechain\.org\/transactions\/0x[0-9a-f]{64}$/)
    const txId = href!.split('/').pop()!

    const paid = chain.fake.distributions().slice(before)
    expect(paid).toHaveLength(1)
    expect(paid[0]).toMatchObject({ txId, receiver: wallet.address.toLowerCase(), amountWei: BigInt(amountMilli) * 10n ** 15n })

    // The claim's own page: details, then the Blockchain Data tab read from the node.
    await page.goto(`${app.baseUrl}/transactions`)
    await page.getByRole('link', { name: /Claim All Tokens/ }).first().click()
    await page.waitForURL(/\/transactions\/\d+/)
    await page.getByRole('tab', { name: 'Blockchain Data' }).click()
    await page.waitForURL(/tab=chain/)
    await page.getByText(txId).first().waitFor()
    await page.getByText(DISTRIBUTOR.address.toLowerCase()).first().waitFor()
    await expect(page.getByText('No Blockchain Data').count()).resolves.toBe(0)
    await context.close()
  })
})

describe('operator pages', () => {
  it('show the queue and the contract status with JavaScript off, and say so when the node is down', async () => {
    const context = await signedInContext(browser, app.baseUrl, { javaScriptEnabled: false, wallet: ADMIN_WALLET })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/admin/payouts?status=confirmed`)
    await page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor()
    expect(await page.getByTestId('payout-row').count()).toBeGreaterThanOrEqual(2)
    await expect(page.getByTestId('app-budget').textContent()).resolves.toMatch(/B3TR/)

    await page.goto(`${app.baseUrl}/contract-status`)
    await page.getByRole('heading', { name: 'Smart Contract Status' }).waitFor()
    await expect(page.getByTestId('contract-badge').textContent()).resolves.toBe('Ready')
    await expect(page.getByTestId('network-badge').textContent()).resolves.toBe('Connected')
    await expect(page.getByTestId('pool-version').textContent()).resolves.toBe('7')
    await page.getByRole('button', { name: 'Refresh status' }).click()
    await page.getByRole('heading', { name: 'Smart Contract Status' }).waitFor()

    chain.fake.faults.down = true
    await page.goto(`${app.baseUrl}/contract-status`)
    await expect(page.getByTestId('network-badge').textContent()).resolves.toBe('Disconnected')
    await expect(page.getByTestId('contract-badge').textContent()).resolves.toBe('Network Unavailable')
    await page.getByRole('alert').first().waitFor()
    chain.fake.faults.down = false
    await context.close()
  })

  it('refreshes the contract status with JavaScript on at 360 px', async () => {
    const context = await signedInContext(browser, app.baseUrl, { wallet: ADMIN_WALLET })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/contract-status`)
    await expect(page.getByTestId('contract-badge').textContent()).resolves.toBe('Ready')
    const before = Number((await page.getByTestId('best-block').textContent())!.replace(/,/g, ''))
    await page.getByRole('button', { name: 'Refresh status' }).click()
    // A click that lands while the page's own refresh is under way (the button is disabled then) is
    // covered by the next one, every 15 s (REFRESH_MS): CI once saw the first click do nothing.
    await expect
      .poll(async () => Number((await page.getByTestId('best-block').textContent())!.replace(/,/g, '')), { timeout: 20_000 })
      .toBeGreaterThan(before)
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map((el) => `${el.tagName}.${el.className}: ${el.textContent?.slice(0, 40)}`)
        .slice(0, 8),
    )
    expect(wide).toEqual([])
    await page.goto(`${app.baseUrl}/admin/payouts`)
    await page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor()
    expect(await page.getByTestId('payout-row').count()).toBeGreaterThanOrEqual(2)
    await page.getByRole('link', { name: /Confirmed/ }).click()
    await page.waitForURL(/status=confirmed/)
    await context.close()
  })
})


import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { Certificate, blake2b256, secp256k1 } from 'thor-devkit'
import { TESTNET_GENESIS_ID } from '../../app/chain/networks'
import { createTestWallet, type TestWallet } from '../utils/wallet'
import { startAppServer, type AppServer } from './app-server'
import { MOBILE, injectTestWallet, launchBrowser, signInFromLanding } from './browser'

// Issue 11, "Nobody without VeWorld can try it". The shared server runs without APP_ENV, so the
// test wallet and sample receipts are offered there; a second server runs with APP_ENV=production.
const baseUrl = inject('baseUrl')
let browser: Browser
let production: AppServer
const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-sample-'))

beforeAll(async () => {
  ;[browser, production] = await Promise.all([launchBrowser(), startAppServer({ APP_ENV: 'production' })])
})
afterAll(async () => {
  await browser?.close()
  await production?.stop()
  fs.rmSync(downloads, { recursive: true, force: true })
})

const today = () => new Date().toISOString().slice(0, 10)

async function dismissCelebration(page: Page) {
  await page.getByRole('dialog', { name: 'Wallet Connected!' }).waitFor()
  await page.getByRole('button', { name: "Let's go!" }).click()
}

async function storedTestWalletAddress(page: Page): Promise<string> {
  const stored = await page.evaluate(() => localStorage.getItem('recircle.testWallet'))
  return (JSON.parse(stored ?? '{}') as { address?: string }).address ?? ''
}

describe('the test wallet, outside production', () => {
  it('signs in from the landing page with no wallet installed, scans a sample receipt and is rewarded', async () => {
    const context = await browser.newContext(MOBILE)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/`)
    expect(await page.evaluate(() => 'vechain' in window || 'connex' in window)).toBe(false)
    await page.getByText('Test wallet: for trying ReCircle only, never use it for real funds.').waitFor()
    await page.getByRole('button', { name: 'Use a test wallet' }).click()
    await page.waitForURL(`${baseUrl}/home`)
    await dismissCelebration(page)

    // An ordinary account: the address signed in is the one whose key the browser keeps.
    const address = await storedTestWalletAddress(page)
    expect(address).toMatch(/^0x[0-9a-f]{40}$/)
    await expect(page.getByTestId('wallet-address').textContent()).resolves.toBe(`${address.slice(0, 6)}...${address.slice(-4)}`)
    await expect(page.getByTestId('test-wallet-label').textContent()).resolves.toBe('Test wallet')

    await page.goto(`${baseUrl}/scan`)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download a sample receipt' }).click()])
    expect(download.suggestedFilename()).toMatch(new RegExp(`^sample-receipt-[a-z]+-${today()}-\\d{4}\\.png$`))
    const file = path.join(downloads, download.suggestedFilename())
    await download.saveAs(file)

    await page.getByLabel('Upload from Gallery').setInputFiles(file)
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    const read = page.getByRole('definition')
    await expect(read.nth(0).textContent()).resolves.toMatch(/^(Uber|Lyft|Waymo|Lime)$/)
    await expect(read.nth(1).textContent()).resolves.toMatch(/^\$\d+\.\d\d$/)
    await expect(read.nth(2).textContent()).resolves.toBe(today())
    await expect(page.getByLabel('Purchase Date').inputValue()).resolves.toBe(today())
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    const reward = await page.getByTestId('reward-total').textContent()
    expect(reward).toMatch(/^\d+\.\d B3TR$/)
    expect(Number.parseFloat(reward!)).toBeGreaterThan(0)

    // The key stays in the browser: disconnecting and coming back signs in the same wallet.
    await page.goto(`${baseUrl}/home`)
    await page.getByRole('button', { name: 'Disconnect Wallet' }).click()
    await page.waitForURL(`${baseUrl}/`)
    await page.getByRole('button', { name: 'Use a test wallet' }).click()
    await page.waitForURL(`${baseUrl}/home`)
    await expect(storedTestWalletAddress(page)).resolves.toBe(address)
    await expect(page.getByTestId('wallet-address').textContent()).resolves.toBe(`${address.slice(0, 6)}...${address.slice(-4)}`)
    await context.close()
  })
})

describe('in production (APP_ENV=production)', () => {
  it('offers no test wallet and no sample receipt', async () => {
    const context = await browser.newContext(MOBILE)
    const page = await context.newPage()
    await page.goto(`${production.baseUrl}/`, { waitUntil: 'networkidle' })
    await page.getByRole('button', { name: 'Connect VeWorld' }).waitFor()
    await expect(page.getByRole('button', { name: 'Use a test wallet' }).count()).resolves.toBe(0)
    await expect(page.getByText('Test wallet').count()).resolves.toBe(0)
    await context.close()

    // Signed in with a real (injected) wallet, the scan page has no sample and the route is 404.
    const signed = await browser.newContext(MOBILE)
    await injectTestWallet(signed)
    const scan = await signed.newPage()
    await signInFromLanding(scan, production.baseUrl)
    await scan.goto(`${production.baseUrl}/scan`, { waitUntil: 'networkidle' })
    await scan.getByLabel('Upload from Gallery').waitFor()
    await expect(scan.getByRole('link', { name: 'Download a sample receipt' }).count()).resolves.toBe(0)
    const res = await signed.request.get(`${production.baseUrl}/scan/sample-receipt`)
    expect(res.status()).toBe(404)
    await signed.close()
  })
})

/**
 * A Connex 1 wallet (Sync and older VeChain wallets inject `window.connex`): `vendor.sign('cert')`
 * then `request(message)`, signed in Node by the test wallet's key.
 */
async function injectConnex1Wallet(context: BrowserContext, wallet: TestWallet) {
  await context.exposeFunction('__recircleConnex1Sign', (messageJson: string, domain: string) => {
    const message = JSON.parse(messageJson) as { purpose: string; payload: { type: string; content: string } }
    const annex = { domain, timestamp: Math.floor(Date.now() / 1000), signer: wallet.address }
    const signature = '0x' + secp256k1.sign(blake2b256(Certificate.encode({ ...message, ...annex })), wallet.privateKey).toString('hex')
    return JSON.stringify({ annex, signature })
  })
  await context.addInitScript((genesisId: string) => {
    const w = window as unknown as { connex: unknown; __recircleConnex1Sign: (m: string, d: string) => Promise<string> }
    w.connex = {
      thor: { genesis: { id: genesisId } },
      vendor: {
        sign: () => {
          const service = {
            signer: () => service,
            link: () => service,
            request: async (message: unknown) => JSON.parse(await w.__recircleConnex1Sign(JSON.stringify(message), location.hostname)),
          }
          return service
        },
      },
    }
  }, TESTNET_GENESIS_ID)
}

describe('wallets without window.vechain go through Connex, loaded on tap', () => {
  it('signs in with an injected Connex 1 wallet', async () => {
    const context = await browser.newContext(MOBILE)
    const wallet = createTestWallet()
    await injectConnex1Wallet(context, wallet)
    const page = await context.newPage()
    await signInFromLanding(page, baseUrl)
    await dismissCelebration(page)
    const short = `${wallet.address.slice(0, 6)}...${wallet.address.slice(-4)}`
    await expect(page.getByTestId('wallet-address').textContent()).resolves.toBe(short.toLowerCase())
    await expect(page.getByTestId('test-wallet-label').count()).resolves.toBe(0)
    await context.close()
  })
})

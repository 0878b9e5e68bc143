import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_WALLET } from '../utils/wallet'
import { startAppServer, type AppServer } from './app-server'
import { launchBrowser, signedInContext } from './browser'

// Debug tools answer 404 unless the server runs with ENABLE_DEBUG_TOOLS=1: this file starts its own.
let app: AppServer
let browser: Browser

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startAppServer({ ENABLE_DEBUG_TOOLS: '1' }), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

async function fitsIn360(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(360)
}

describe('with JavaScript', () => {
  it('runs the wallet test: detect, connect, sign, server verifies, success', async () => {
    const context = await signedInContext(browser, app.baseUrl, { wallet: ADMIN_WALLET })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/wallet-test`)
    await page.getByRole('heading', { name: 'Wallet Test' }).waitFor()
    await page.getByRole('button', { name: 'Run wallet test' }).click()

    const outcome = page.getByTestId('wallet-test-outcome')
    await outcome.waitFor()
    await expect(outcome.textContent()).resolves.toContain('Wallet test passed')
    for (const n of [1, 2, 3, 4]) {
      await expect(page.getByTestId(`wallet-step-${n}`).getAttribute('data-status')).resolves.toBe('ok')
    }
    await expect(page.getByTestId('wallet-step-1').textContent()).resolves.toContain('VeWorld (window.vechain)')
    await expect(page.getByTestId('wallet-step-3').textContent()).resolves.toContain(ADMIN_WALLET.address.toLowerCase())
    await expect(page.getByTestId('wallet-step-4').textContent()).resolves.toContain('certificate verified')
    await expect(page.getByRole('list', { name: 'Server checks' }).textContent()).resolves.toContain('Signature')
    await fitsIn360(page)
    await context.close()
  })

  it('captures console messages on /debug and sends them to support, where admins read them', async () => {
    const context = await signedInContext(browser, app.baseUrl, { wallet: ADMIN_WALLET })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/debug`)
    await page.getByRole('button', { name: 'Start Capture' }).click()
    await page.getByRole('button', { name: 'Test Log Capture' }).click()
    await page.getByText('Test warning from the debug console').waitFor()
    await page.getByRole('button', { name: 'Send to support' }).click()
    await page.getByText('Log sent to support').waitFor()
    await fitsIn360(page)

    await page.goto(`${app.baseUrl}/admin/debug-logs`)
    await page.getByText('debug-console').first().waitFor()
    await page.getByText(/\d+ lines/).first().click()
    await page.getByText('Test error from the debug console').first().waitFor()
    await fitsIn360(page)
    await context.close()
  })

  it('shows system information on /admin/debug-tools after hydration', async () => {
    const context = await signedInContext(browser, app.baseUrl, { wallet: ADMIN_WALLET })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/admin/debug-tools`)
    const info = page.getByTestId('system-info')
    await info.waitFor()
    await expect(info.textContent()).resolves.toContain('newConnexSigner: function')
    await fitsIn360(page)
    await context.close()
  })
})

describe('without JavaScript', () => {
  it('renders the debug tools and the wallet test and says what needs JavaScript', async () => {
    const context = await signedInContext(browser, app.baseUrl, { wallet: ADMIN_WALLET, javaScriptEnabled: false })
    const page = await context.newPage()
    const tools = await page.goto(`${app.baseUrl}/admin/debug-tools`)
    expect(tools?.status()).toBe(200)
    await page.getByText('System information is read in this browser and needs JavaScript').waitFor()
    await page.getByText('Show environment variables (secrets masked)').click()
    await page.getByText('SESSION_SECRET').waitFor()
    await fitsIn360(page)

    await page.goto(`${app.baseUrl}/wallet-test`)
    await page.getByText('The wallet test runs in the browser and needs JavaScript.').waitFor()
    await page.getByLabel('Wallet-test certificate (JSON)').fill('{"purpose":"identification"}')
    await page.getByRole('button', { name: 'Verify on the server' }).click()
    await page.getByText('Invalid certificate: missing or malformed fields').first().waitFor()
    await fitsIn360(page)

    await page.goto(`${app.baseUrl}/logo-showcase`)
    await page.getByRole('img', { name: 'ReCircle logo, earth gradient, lg' }).waitFor()
    await fitsIn360(page)
    await context.close()
  })
})

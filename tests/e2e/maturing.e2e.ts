/**
 * Issue 38 at 360 px, JavaScript on and off: a photo approved automatically is credited but
 * matures, and Home and Tokens say how much and from when it can be claimed; staff see it in the
 * audit list and decide it without JavaScript (rejected as fraud: the maturing credit is taken
 * back) and with it (cleared).
 *
 * Its own app server, on the shared fake node (every wallet a VeBetter Passport person, so photos
 * are approved automatically), with the production hold (72 hours) and every automatic photo
 * approval sampled (PHOTO_AUDIT_RATE=1).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { AUDIT_REASONS } from '../../app/receipts/audits.server'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { ADMIN_WALLET, createTestWallet } from '../utils/wallet'
import { startAppServer, type AppServer } from './app-server'
import { launchBrowser, signedInContext } from './browser'

let browser: Browser
let app: AppServer
const riders: Array<{ javaScriptEnabled: boolean; context: BrowserContext; receiptId: number }> = []

beforeAll(async () => {
  app = await startAppServer({ THOR_NODE_URL: inject('thorUrl'), PASSPORT_CHECKS: 'on', PHOTO_REWARD_HOLD_HOURS: '72', PHOTO_AUDIT_RATE: '1' })
  browser = await launchBrowser()
})

afterAll(async () => {
  for (const rider of riders) await rider.context.close()
  await browser?.close()
  await app?.stop()
})

const RECEIPTS = {
  js: { vendor: 'Uber', lines: [['Trip fare', '$17.40'], ['Booking fee', '$2.35']] as [string, string][], total: '$19.75' },
  noJs: { vendor: 'Lyft', lines: [['Ride', '$12.20'], ['Service fee', '$1.95']] as [string, string][], total: '$14.15' },
}

async function noWiderThanTheScreen(page: Page) {
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)
}

const headerBalance = (page: Page) => page.getByTestId('header-balance').getAttribute('aria-label')
const MATURING = /^19\.0 B3TR maturing: claimable from \d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2} UTC$/

describe('a maturing photo reward (issue 38)', () => {
  it.each([
    { javaScriptEnabled: true, receipt: RECEIPTS.js },
    { javaScriptEnabled: false, receipt: RECEIPTS.noJs },
  ])('JavaScript $javaScriptEnabled: Home and Tokens show what matures and from when; nothing is claimable yet', async ({ javaScriptEnabled, receipt }) => {
    const context = await signedInContext(browser, app.baseUrl, { javaScriptEnabled, wallet: createTestWallet() })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/scan`)
    const image = await receiptImage({ ...receipt, date: writtenDate(todayUtc()) })
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: image })
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    const receiptId = Number(/\/scan\/receipts\/(\d+)/.exec(page.url())![1])
    await page.getByRole('heading', { name: 'Receipt Verified!' }).waitFor()
    await expect(page.getByTestId('reward-maturing').textContent()).resolves.toMatch(/^Claimable from \d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2} UTC: photo rewards mature/)

    // Credited (9 + the 10 first-receipt bonus), maturing: the header's balance is what can be claimed.
    await page.goto(`${app.baseUrl}/home`)
    await expect(headerBalance(page)).resolves.toBe('Balance: 0.0 B3TR')
    await expect(page.getByTestId('wallet-balance').textContent()).resolves.toBe('Balance: 0.0 B3TR')
    await expect(page.getByTestId('wallet-maturing').textContent()).resolves.toMatch(MATURING)
    await noWiderThanTheScreen(page)

    await page.goto(`${app.baseUrl}/transactions`)
    await expect(page.getByTestId('tokens-balance').textContent()).resolves.toBe('0.0 B3TR')
    await expect(page.getByTestId('tokens-maturing').textContent()).resolves.toMatch(MATURING)
    await expect(page.getByTestId('tokens-maturing-explained').textContent()).resolves.toMatch(/can be claimed 72 hours later/)
    // The receipt's reward and its first-receipt bonus each say until when they mature.
    await expect(page.getByTestId('transaction-maturing').count()).resolves.toBe(2)
    await noWiderThanTheScreen(page)

    await page.goto(`${app.baseUrl}/redeem`)
    await expect(page.getByTestId('redeem-maturing').textContent()).resolves.toMatch(MATURING)
    await expect(page.getByRole('button', { name: 'Claim All Tokens' }).isDisabled()).resolves.toBe(true)
    await page.close()
    riders.push({ javaScriptEnabled, context, receiptId })
  })

  it('staff see both in the audit list; without JavaScript one is rejected as fraud (its credit taken back), with it the other is cleared', async () => {
    expect(riders).toHaveLength(2)
    const noJs = riders.find((r) => !r.javaScriptEnabled)!
    const js = riders.find((r) => r.javaScriptEnabled)!

    const staffNoJs = await signedInContext(browser, app.baseUrl, { javaScriptEnabled: false, wallet: ADMIN_WALLET })
    const admin = await staffNoJs.newPage()
    await admin.goto(`${app.baseUrl}/admin/receipts`)
    const audits = admin.getByTestId('audits')
    await expect(audits.getByRole('heading', { name: 'Audits (2)' }).count()).resolves.toBe(1)
    for (const rider of riders) {
      const item = audits.getByTestId('audit-item').filter({ has: admin.getByRole('heading', { name: `Receipt #${rider.receiptId}`, exact: true }) })
      // VeBetter Passport alone is thin evidence: sampled at the higher rate.
      await expect(item.getByTestId('audit-reason').textContent()).resolves.toBe(AUDIT_REASONS.thin)
      await expect(item.getByTestId('audit-maturing').textContent()).resolves.toMatch(/^Maturing: claimable from /)
    }
    await noWiderThanTheScreen(admin)

    const fraud = audits.getByTestId('audit-item').filter({ has: admin.getByRole('heading', { name: `Receipt #${noJs.receiptId}`, exact: true }) })
    await fraud.getByLabel('Reason for rejecting as fraud').fill('Drawn receipt')
    await fraud.getByRole('button', { name: 'Reject as fraud' }).click()
    await admin.waitForURL(`${app.baseUrl}/admin/receipts`)
    await admin.locator('.toast').getByText('Rejected as fraud').waitFor()
    await admin.getByText('19.0 B3TR of maturing or unclaimed credit was taken back.', { exact: false }).waitFor()
    await expect(audits.getByRole('heading', { name: 'Audits (1)' }).count()).resolves.toBe(1)
    await staffNoJs.close()

    const staffJs = await signedInContext(browser, app.baseUrl, { javaScriptEnabled: true, wallet: ADMIN_WALLET })
    const adminJs = await staffJs.newPage()
    await adminJs.goto(`${app.baseUrl}/admin/receipts`)
    const cleared = adminJs.getByTestId('audit-item').filter({ has: adminJs.getByRole('heading', { name: `Receipt #${js.receiptId}`, exact: true }) })
    await cleared.getByRole('button', { name: 'Looks right' }).click()
    await adminJs.locator('.toast').getByText('Audit cleared').waitFor()
    await adminJs.getByRole('heading', { name: 'Audits (0)' }).waitFor()
    await noWiderThanTheScreen(adminJs)
    await staffJs.close()

    // The rejected rider has nothing maturing any more; the cleared one still matures.
    const rejectedHome = await noJs.context.newPage()
    await rejectedHome.goto(`${app.baseUrl}/home`)
    await expect(rejectedHome.getByTestId('wallet-maturing').count()).resolves.toBe(0)
    await rejectedHome.goto(`${app.baseUrl}/receipts`)
    await rejectedHome.getByText('Drawn receipt').waitFor()
    await rejectedHome.close()
    const clearedHome = await js.context.newPage()
    await clearedHome.goto(`${app.baseUrl}/home`)
    await expect(clearedHome.getByTestId('wallet-maturing').textContent()).resolves.toMatch(MATURING)
    await clearedHome.close()
  })
})

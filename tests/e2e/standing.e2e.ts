/**
 * Issue 31 at 360 px: a wallet without standing is told before its first photo that staff check it,
 * is shown the review instead of an instant reward, and earns nothing until staff approve. Staff
 * see the two new wallets apart, each naming the other by their shared address (every browser here
 * comes from one address; issue 38: an address alone never groups), approve them without
 * JavaScript, and the wallets are paid and established.
 *
 * The suite's fake node counts every wallet as a VeBetter Passport person except NEW_WALLETS
 * (tests/e2e/global-setup.ts); each of them is used once per run, the database lasting the run.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { NEW_WALLET_NOTICE, NEW_WALLET_REVIEW_REASON, STANDING_LABELS } from '../../app/receipts/standing'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { ADMIN_WALLET, NEW_WALLETS } from '../utils/wallet'
import { launchBrowser, signedInContext } from './browser'

const baseUrl = inject('baseUrl')
let browser: Browser
/** The two new wallets' sessions and receipts, JavaScript on first. */
const riders: Array<{ javaScriptEnabled: boolean; context: BrowserContext; receiptId: number }> = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  for (const rider of riders) await rider.context.close()
  await browser?.close()
})

/** Fares no other browser test uses, so neither receipt is a duplicate of another. */
const RECEIPTS = {
  js: { vendor: 'Uber', lines: [['Trip fare', '$22.15'], ['Booking fee', '$2.35'], ['Tip', '$2.85']] as [string, string][], total: '$27.35' },
  noJs: { vendor: 'Lyft', lines: [['Ride', '$10.85'], ['Service fee', '$2.10']] as [string, string][], total: '$12.95' },
}

async function noWiderThanTheScreen(page: Page) {
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)
}

const balance = (page: Page) => page.getByTestId('header-balance').getAttribute('aria-label')

describe('a new wallet (issue 31)', () => {
  it.each([
    { javaScriptEnabled: true, wallet: NEW_WALLETS[0]!, receipt: RECEIPTS.js },
    { javaScriptEnabled: false, wallet: NEW_WALLETS[1]!, receipt: RECEIPTS.noJs },
  ])('JavaScript $javaScriptEnabled: is told first, sees the review instead of a reward, and earns nothing yet', async ({ javaScriptEnabled, wallet, receipt }) => {
    const context = await signedInContext(browser, baseUrl, { javaScriptEnabled, wallet })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await expect(page.getByTestId('new-wallet-notice').textContent()).resolves.toBe(NEW_WALLET_NOTICE)
    await noWiderThanTheScreen(page)

    const image = await receiptImage({ ...receipt, date: writtenDate(todayUtc()) })
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: image })
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await expect(page.getByLabel('Amount Spent ($)').inputValue()).resolves.toBe(receipt.total.slice(1))
    await expect(page.getByLabel('Transportation Category').inputValue()).resolves.toBe('ride_share')
    // No instant amount for a photo that will wait: the review, and what it earns once approved
    // (floor(8 × 1.0 × 1.2 transport) = 9, + 10 first-receipt bonus = 19).
    const review = page.getByTestId('review-preview')
    await expect(review.getByText('This receipt goes to review, usually within a day.').count()).resolves.toBe(1)
    await expect(review.textContent()).resolves.toContain('Once approved it earns 19.0 B3TR')
    await expect(page.getByTestId('reward-preview').count()).resolves.toBe(0)
    await noWiderThanTheScreen(page)

    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    const receiptId = Number(/\/scan\/receipts\/(\d+)/.exec(page.url())![1])
    await page.getByRole('heading', { name: 'Submitted for Review' }).waitFor()
    await page.getByRole('listitem').getByText(NEW_WALLET_REVIEW_REASON).waitFor()
    await expect(page.getByTestId('reward-total').count()).resolves.toBe(0)
    await expect(balance(page)).resolves.toBe('Balance: 0.0 B3TR')
    await noWiderThanTheScreen(page)
    await page.goto(`${baseUrl}/home`)
    await expect(balance(page)).resolves.toBe('Balance: 0.0 B3TR')
    await page.close()
    riders.push({ javaScriptEnabled, context, receiptId })
  })

  it('staff see each wallet with its standing, the other listed beside it by their shared address (issue 38: decided one by one), and approve them without JavaScript; the wallets are paid and established', async () => {
    expect(riders).toHaveLength(2)
    const ids = riders.map((r) => r.receiptId).sort((a, b) => a - b)
    const adminContext = await signedInContext(browser, baseUrl, { javaScriptEnabled: false, wallet: ADMIN_WALLET })
    const admin = await adminContext.newPage()
    await admin.goto(`${baseUrl}/admin/receipts`)
    const newWallets = admin.locator('section', { has: admin.getByRole('heading', { name: /^New wallets \(\d+\)$/ }) })
    // Every browser here comes from one address: a tie listed beside each wallet, never a group of
    // both (every other wallet of the suite is a Passport person).
    for (const id of ids) {
      const card = newWallets.locator('article', { has: admin.getByRole('heading', { name: `Receipt #${id}`, exact: true }) })
      await expect(card.getByTestId('review-standing').textContent()).resolves.toBe(STANDING_LABELS.new_wallet)
      await card.getByText(NEW_WALLET_REVIEW_REASON).waitFor()
    }
    await expect(newWallets.locator('input[name="receiptIds"]').count()).resolves.toBe(0)
    await expect(newWallets.getByTestId('group-address-ties').first().textContent()).resolves.toMatch(/^Same address within 24 hours, decide each on its own:/)
    await noWiderThanTheScreen(admin)

    for (const id of ids) {
      const card = newWallets.locator('article', { has: admin.getByRole('heading', { name: `Receipt #${id}`, exact: true }) })
      await card.getByRole('button', { name: 'Approve' }).click()
      await admin.waitForURL(`${baseUrl}/admin/receipts`)
      await admin.locator('.toast').getByText('Receipt approved').waitFor()
      await expect(admin.getByRole('heading', { name: `Receipt #${id}`, exact: true }).count()).resolves.toBe(0)
    }
    await adminContext.close()

    // Each wallet's next visit: the first-receipt reward credited, and Scan no longer warns.
    for (const rider of riders) {
      const page = await rider.context.newPage()
      await page.goto(`${baseUrl}/home`)
      await expect(balance(page)).resolves.toBe('Balance: 19.0 B3TR')
      await page.goto(`${baseUrl}/scan/receipts/${rider.receiptId}`)
      await page.getByRole('heading', { name: 'Receipt Verified!' }).waitFor()
      await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('19.0 B3TR')
      await page.goto(`${baseUrl}/scan`)
      await page.getByRole('heading', { name: 'Capture your receipt' }).waitFor()
      await expect(page.getByTestId('new-wallet-notice').count()).resolves.toBe(0)
      await page.close()
    }
  })
})

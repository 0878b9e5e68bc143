import { describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { DB } from '../../db/db.server'
import { REAL_HASH, seedFiveReceiptUser } from '../utils/engagement'
import { createTestWallet, type TestWallet } from '../utils/wallet'
import { MOBILE, injectTestWallet, signInFromLanding } from './browser'
import { openBrowserAndDb } from './suite'

const baseUrl = inject('baseUrl')
// Screenshots of these pages: npm run screenshots (scripts/dev/screenshots.ts); 360 px layout: layout.e2e.ts.
let browser: Browser
let db: DB

openBrowserAndDb((opened) => ({ browser, db } = opened))

/** Sign in with the test wallet (needs JavaScript), seed five receipts and a store addition, keep the session. */
async function seededSession(wallet: TestWallet) {
  const signing = await browser.newContext(MOBILE)
  await injectTestWallet(signing, wallet)
  const page = await signing.newPage()
  await signInFromLanding(page, baseUrl)
  const storageState = await signing.storageState()
  await signing.close()
  const user = await db.selectFrom('users').select('id').where('wallet_address', '=', wallet.address.toLowerCase()).executeTakeFirstOrThrow()
  await seedFiveReceiptUser(db, user.id)
  return storageState
}

async function open(context: BrowserContext, pathname: string): Promise<Page> {
  const page = await context.newPage()
  const res = await page.goto(`${baseUrl}${pathname}`)
  expect(res?.status()).toBe(200)
  return page
}

async function text(page: Page, testId: string) {
  return (await page.getByTestId(testId).first().textContent())?.trim()
}

/** With JavaScript a link navigates on the client: wait until the page shows the new state. */
async function currentLink(page: Page, name: string) {
  await page.locator('a[aria-current="page"]', { hasText: name }).waitFor()
}

/** The checks both runs share: the numbers of the five-receipt user on every engagement page. */
async function checkPages(context: BrowserContext) {
  // Achievements: 4 of 6 (first receipt, five receipts, first store, monthly), Eco Impact 25 kg / 1.1
  // tree equivalents (issue 32: one tree measure on every screen, 25 kg ÷ 21.77 kg per tree-year).
  let page = await open(context, '/achievements')
  await page.getByRole('heading', { name: 'Achievements' }).waitFor()
  expect(await text(page, 'unlocked-count')).toBe('4 of 6 achievements unlocked')
  expect(await text(page, 'eco-co2')).toBe('25 kg')
  expect(await text(page, 'eco-trees')).toBe('1.1')
  await expect(page.getByTestId('achievement-ten_receipts').getByRole('progressbar').getAttribute('aria-valuenow')).resolves.toBe('50')
  await page.getByRole('link', { name: 'Community' }).click()
  await page.waitForURL(/tab=community/)
  await currentLink(page, 'Community')
  await page.getByRole('heading', { name: 'Store Pioneer' }).waitFor()
  await expect(page.getByRole('heading', { name: 'First Receipt' }).count()).resolves.toBe(0)
  await page.getByRole('link', { name: 'All', exact: true }).click()
  await currentLink(page, 'All')
  await page.getByRole('heading', { name: 'First Receipt' }).waitFor()
  await page.close()

  // Impact Explorer: 4 of 6 badges (decision 113: none repeats an achievement), one on-chain hash,
  // Weekly Warrior still to go.
  page = await open(context, '/impact-explorer')
  expect(await text(page, 'summary-badges')).toBe('4 of 6')
  expect(await text(page, 'summary-co2')).toBe('25 kg')
  expect(await text(page, 'summary-receipts')).toBe('5')
  expect(await text(page, 'summary-earned')).toBe('63.0')
  // The fifth receipt has the only real hash: its 8 B3TR took the total (10 store + 5 x 8) to 50 for
  // Token Master. Badges without a real hash show no link.
  await expect(page.getByRole('link', { name: 'View on VeChain' }).count()).resolves.toBe(1)
  for (const badge of ['token_milestone_50']) {
    await expect(page.getByTestId(`badge-${badge}`).getByRole('link', { name: 'View on VeChain' }).getAttribute('href')).resolves.toBe(
      `https://explore-testnet.vechain.org/transactions/${REAL_HASH}`,
    )
  }
  await page.getByTestId('next-streak_7').getByText('3/7 days').waitFor()
  await expect(page.getByTestId('next-co2_saver').count()).resolves.toBe(0)
  await expect(page.getByRole('link', { name: 'View Analytics' }).getAttribute('href')).resolves.toBe('/rewards')
  await page.getByRole('link', { name: 'Streak' }).click()
  await page.waitForURL(/tab=streak/)
  await currentLink(page, 'Streak')
  await page.getByRole('heading', { name: 'Consistent' }).waitFor()
  await expect(page.getByRole('heading', { name: 'First Steps' }).count()).resolves.toBe(0)
  await page.close()

  // Tokens: 8 entries (5 receipts, the store, two achievement rewards), URL-driven search.
  page = await open(context, '/transactions')
  await page.getByRole('heading', { name: 'Tokens' }).waitFor()
  expect(await text(page, 'tx-count')).toBe('8 transactions')
  await expect(page.getByTestId('transaction-row').count()).resolves.toBe(8)
  await expect(page.getByText('Off-chain reward').count()).resolves.toBe(7)
  await page.getByRole('searchbox', { name: 'Search transactions' }).fill('tesla')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.waitForURL(/q=tesla/)
  await page.getByTestId('tx-count').filter({ hasText: /^1 transaction$/ }).waitFor()
  await page.getByText('Receipt verified: Tesla').waitFor()
  await expect(page.getByTestId('transaction-row').count()).resolves.toBe(1)
  await page.getByRole('searchbox', { name: 'Search transactions' }).fill('no such thing')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('heading', { name: 'No Results Found' }).waitFor()
  await page.getByText('Try a different search term').waitFor()
  await page.close()

  // Rewards: 30 days by default (the 40-day-old store addition is outside), the chart, the impact card.
  page = await open(context, '/rewards')
  await page.getByRole('heading', { name: 'Reward History' }).waitFor()
  expect(await text(page, 'stat-total-earned')).toBe('53.0 B3TR')
  expect(await text(page, 'stat-co2')).toBe('25 kg')
  expect(await text(page, 'stat-streak')).toBe('3 days')
  expect(await text(page, 'stat-weekly')).toBe('53%')
  expect(await text(page, 'total-earned-badge')).toBe('63.0 B3TR earned')
  await expect(page.getByTestId('reward-row').count()).resolves.toBe(7)
  await page.getByText('Confidence: 93%').first().waitFor()
  await expect(page.getByRole('link', { name: 'View on Explorer' }).count()).resolves.toBe(1)
  await expect(page.getByTestId('earnings-chart').locator('rect.bar').count()).resolves.toBe(1)
  expect(await text(page, 'impact-co2')).toBe('25 kg')
  expect(await text(page, 'impact-trees')).toBe('1.1')
  expect(await text(page, 'impact-miles')).toBe('62.5') // 25 kg at 400 g CO2 a car mile (US EPA; issue 40)
  await page.getByRole('link', { name: '90 days' }).click()
  await page.waitForURL(/period=90d/)
  await currentLink(page, '90 days')
  await expect(page.getByTestId('reward-row').count()).resolves.toBe(8)
  await expect(page.getByTestId('earnings-chart').locator('rect.bar').count()).resolves.toBe(2)
  await page.close()

  // Profile: identicon, Active Member, history, CSV export, settings.
  page = await open(context, '/profile')
  await page.getByRole('img', { name: 'Wallet avatar' }).waitFor()
  await page.getByText('Active Member').waitFor()
  expect(await text(page, 'profile-balance')).toBe('63.0 B3TR')
  expect(await text(page, 'history-count')).toBe('Showing 8 of 8')
  await expect(page.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).resolves.toBe('/api/me/transactions.csv')
  await expect(page.getByRole('link', { name: 'Load More' }).count()).resolves.toBe(0)
  return page
}

async function toggleNotifications(page: Page) {
  const toggle = page.getByRole('switch', { name: 'Notifications' })
  const before = await toggle.getAttribute('aria-checked')
  await toggle.click()
  const after = before === 'true' ? 'false' : 'true'
  await page.locator(`button[role="switch"][aria-label="Notifications"][aria-checked="${after}"]`).waitFor()
  return after
}

describe('engagement pages', () => {
  it('work without JavaScript at 360 px', async () => {
    const storageState = await seededSession(createTestWallet())
    const context = await browser.newContext({ ...MOBILE, javaScriptEnabled: false, storageState })
    const profile = await checkPages(context)
    // Decision 101: one setting, Notifications (on by default); no Biometric Authentication.
    await expect(profile.getByRole('switch', { name: 'Biometric Authentication' }).count()).resolves.toBe(0)
    expect(await toggleNotifications(profile)).toBe('false')
    await profile.reload()
    await expect(profile.getByRole('switch', { name: 'Notifications' }).getAttribute('aria-checked')).resolves.toBe('false')

    // The share dialog is a URL: X and Facebook links work without JavaScript.
    const page = await open(context, '/achievements')
    await page.getByRole('link', { name: 'Share Eco Commuter' }).click()
    await page.waitForURL(/share=five_receipts/)
    const dialog = page.getByRole('dialog', { name: 'Share Achievement' })
    await dialog.getByRole('heading', { name: 'Eco Commuter' }).waitFor()
    await expect(dialog.getByRole('link', { name: 'Share on X' }).getAttribute('href')).resolves.toMatch(/^https:\/\/twitter\.com\/intent\/tweet\?/)
    await expect(dialog.getByRole('link', { name: 'Facebook' }).getAttribute('href')).resolves.toMatch(/^https:\/\/www\.facebook\.com\/sharer/)
    await dialog.getByRole('link', { name: 'Close' }).click()
    await expect(page.getByRole('dialog').count()).resolves.toBe(0)
    await context.close()
  })

  it('work with JavaScript at 360 px, with copy to clipboard', async () => {
    const storageState = await seededSession(createTestWallet())
    const context = await browser.newContext({ ...MOBILE, storageState })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
    const profile = await checkPages(context)
    expect(await toggleNotifications(profile)).toBe('false')
    await profile.close()

    const page = await open(context, '/achievements')
    await page.getByRole('link', { name: 'Share First Receipt' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share Achievement' })
    await dialog.getByRole('heading', { name: 'First Receipt' }).waitFor()
    await dialog.getByRole('button', { name: 'Copy' }).click()
    await dialog.getByText('Copied to clipboard!').waitFor()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toContain('"First Receipt"')
    expect(copied).toContain(`${baseUrl}/?achievement=first_receipt`)
    await dialog.getByRole('link', { name: 'Close' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await context.close()
  })
})

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createDb } from '../../db/db.server'
import { ADMIN_WALLET, createTestWallet, type TestWallet } from '../utils/wallet'
import { MOBILE, injectTestWallet, launchBrowser, signInFromLanding, signedInContext } from './browser'

const baseUrl = inject('baseUrl')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

function signedInWithoutJs(wallet: TestWallet): Promise<BrowserContext> {
  return signedInContext(browser, baseUrl, { javaScriptEnabled: false, wallet })
}

async function toast(page: Page, text: string) {
  await page.locator('.toast').getByText(text).waitFor()
}

describe('community without JavaScript', () => {
  it('finds a store, submits one in-app, gets it approved by an admin, sees the reward and claims it all', async () => {
    const userContext = await signedInWithoutJs(createTestWallet())
    const page = await userContext.newPage()

    // Find a store: URL-driven search, the no-JS "Use My Location" (Phoenix), the detail and its tabs.
    await page.goto(`${baseUrl}/stores`)
    await page.getByRole('heading', { name: 'Sustainable Stores' }).waitFor()
    await page.getByRole('searchbox').fill('Mission')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/q=Mission/)
    const stores = page.getByRole('list', { name: 'Stores' })
    await stores.getByRole('heading', { name: 'Mission Vintage Exchange' }).waitFor()
    await expect(stores.getByRole('heading', { name: 'Desert Threads Thrift' }).count()).resolves.toBe(0)
    await expect(page.getByTestId('store-distance').first().textContent()).resolves.toBe('Get distance')
    await page.getByRole('button', { name: 'Use My Location' }).click()
    await page.getByText('Distances in miles from Phoenix, AZ (default location).').waitFor()
    await page.getByText('Your location needs JavaScript, which is off, so the default city is used.').waitFor()
    await expect(page.getByTestId('store-distance').first().textContent()).resolves.toMatch(/^\d[\d,]* miles$/)
    await stores.getByRole('link', { name: /Mission Vintage Exchange/ }).click()
    await page.waitForURL(/\/stores\/\d+\?lat=/)
    await page.getByRole('heading', { name: 'Mission Vintage Exchange', level: 1 }).waitFor()
    await expect(page.getByTestId('open-status').textContent()).resolves.toMatch(/^(Open Now|Closed)$/)
    // A demo listing is not a verified store (issue 32): it says which it is.
    await page.getByText('Demo listing').first().waitFor()
    await page.getByRole('link', { name: 'Hours' }).click()
    await page.getByRole('heading', { name: 'Typical hours' }).waitFor()
    await expect(page.getByRole('link', { name: 'Directions' }).getAttribute('href')).resolves.toContain('destination=37.7577%2C-122.4188')

    // Submit a store with the in-app form.
    const storeName = `Tucson Repair Corner ${Date.now()}`
    await page.goto(`${baseUrl}/add-store`)
    await page.getByRole('heading', { name: 'Add New Sustainable Store' }).waitFor()
    await expect(page.getByTestId('daily-actions').textContent()).resolves.toBe('0/3')
    await page.getByLabel('Store name').fill(storeName)
    await page.getByLabel('Street address').fill('77 E Congress St')
    await page.getByLabel('City').fill('Tucson')
    await page.getByLabel('State').fill('AZ')
    await page.getByLabel('Store type').selectOption('other')
    await page.getByRole('button', { name: 'Submit Store for Review' }).click()
    await toast(page, 'Store Submitted')
    await expect(page.getByTestId('daily-actions').textContent()).resolves.toBe('1/3')
    await page.getByText('Pending review', { exact: true }).waitFor()

    // A non-admin cannot open the admin page.
    const forbidden = await page.goto(`${baseUrl}/admin/pending-submissions`)
    expect(forbidden?.status()).toBe(403)

    // The admin approves it.
    const adminContext = await signedInWithoutJs(ADMIN_WALLET)
    const admin = await adminContext.newPage()
    await admin.goto(`${baseUrl}/admin/pending-submissions`)
    const card = admin.locator('article', { has: admin.getByRole('heading', { name: storeName }) })
    await card.waitFor()
    await card.getByRole('button', { name: 'Approve & Reward' }).click()
    await toast(admin, 'Submission Approved')
    await admin.getByText('13.0 B3TR rewarded.').waitFor()
    await expect(admin.getByRole('heading', { name: storeName }).count()).resolves.toBe(0)
    await adminContext.close()

    // The user sees the reward and the published store.
    await page.goto(`${baseUrl}/stores?q=${encodeURIComponent(storeName)}`)
    await expect(page.getByTestId('header-balance').textContent()).resolves.toContain('13.0')
    await page.getByRole('link', { name: new RegExp(storeName) }).click()
    await page.getByText('Community contributed store').waitFor()
    await page.getByText(/^A sustainable store: second-hand/).waitFor()
    await page.goto(`${baseUrl}/add-store`)
    await page.getByText('Approved', { exact: true }).waitFor()

    // Claim all: the confirmation step is a page state with a POST form.
    await page.goto(`${baseUrl}/redeem`)
    await expect(page.getByTestId('redeem-balance').textContent()).resolves.toBe('13.0 B3TR')
    await page.getByText('No redemption history yet').waitFor()
    await page.getByRole('link', { name: 'Claim All Tokens' }).click()
    const dialog = page.getByRole('dialog', { name: 'Claim 13.0 B3TR?' })
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Confirm Claim' }).click()
    await toast(page, 'Tokens Claimed')
    await expect(page.getByTestId('redeem-balance').textContent()).resolves.toBe('0.0 B3TR')
    await expect(page.getByRole('button', { name: 'Claim All Tokens' }).isDisabled()).resolves.toBe(true)
    const history = page.getByTestId('claim-history')
    await history.getByText('-13.0 B3TR').waitFor()
    await history.getByText('Awaiting payout').waitFor()
    await userContext.close()
  })

  it('keeps an invitation code from /join and sends the visitor home', async () => {
    const inviter = await signedInWithoutJs(createTestWallet())
    const page = await inviter.newPage()
    await page.goto(`${baseUrl}/invite-friend`)
    const code = (await page.getByTestId('referral-code').textContent())!
    await expect(page.getByRole('textbox', { name: 'Invite link' }).inputValue()).resolves.toBe(`${baseUrl}/join?ref=${code}`)
    await expect(page.getByTestId('referral-count').textContent()).resolves.toBe('0')
    // Copy cannot write the clipboard without JavaScript: the page shows the link to copy by hand.
    await page.getByRole('button', { name: 'Copy' }).click()
    await page.waitForURL(/copy=1/)
    await page.getByTestId('copy-by-hand').getByText(`${baseUrl}/join?ref=${code}`).waitFor()
    await inviter.close()

    const visitor = await browser.newContext({ ...MOBILE, javaScriptEnabled: false })
    const landing = await visitor.newPage()
    await landing.goto(`${baseUrl}/join?ref=${code}`)
    await expect(landing.getByTestId('join-code').textContent()).resolves.toBe(code)
    const cookies = await visitor.cookies()
    expect(cookies.find((c) => c.name === '__ref')).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
    await landing.waitForURL(`${baseUrl}/`, { timeout: 5000 })
    await visitor.close()
  })
})

describe('community with JavaScript', () => {
  it('attaches the /join code at the first sign-in after the welcome redirect', async () => {
    const inviterContext = await browser.newContext(MOBILE)
    await injectTestWallet(inviterContext)
    await inviterContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
    const inviter = await inviterContext.newPage()
    await signInFromLanding(inviter, baseUrl)
    await inviter.goto(`${baseUrl}/invite-friend`)
    const code = (await inviter.getByTestId('referral-code').textContent())!
    await inviter.getByRole('button', { name: 'Copy' }).click()
    await inviter.getByRole('button', { name: 'Copied' }).waitFor()
    await inviter.getByRole('button', { name: 'Copy' }).waitFor({ timeout: 5000 })

    const friendContext = await browser.newContext(MOBILE)
    await injectTestWallet(friendContext)
    const friend = await friendContext.newPage()
    await friend.goto(`${baseUrl}/join?ref=${code}`)
    await friend.locator('.toast').getByText(`Referral code ${code} saved`).waitFor()
    await friend.waitForURL(`${baseUrl}/`, { timeout: 4000 })
    await friend.getByRole('button', { name: 'Connect VeWorld' }).click()
    await friend.waitForURL(`${baseUrl}/home`)
    await friendContext.close()

    await inviter.reload()
    await expect(inviter.getByTestId('referral-count').textContent()).resolves.toBe('1')
    await inviterContext.close()
  })

  it('empties the in-app store form after a successful submission', async () => {
    const context = await browser.newContext(MOBILE)
    await injectTestWallet(context)
    const page = await context.newPage()
    await signInFromLanding(page, baseUrl)
    await page.goto(`${baseUrl}/add-store`)
    await page.getByLabel('Store name').fill(`Mesa Refill Station ${Date.now()}`)
    await page.getByLabel('Street address').fill('9 Main St')
    await page.getByLabel('City').fill('Mesa')
    await page.getByLabel('State').fill('AZ')
    await page.getByLabel('Store type').selectOption('general')
    await page.getByRole('button', { name: 'Submit Store for Review' }).click()
    await toast(page, 'Store Submitted')
    await expect(page.getByTestId('daily-actions').textContent()).resolves.toBe('1/3')
    for (const label of ['Store name', 'Street address', 'City', 'State', 'Store type']) {
      await expect(page.getByLabel(label).inputValue()).resolves.toBe('')
    }
    await context.close()
  })

  it('sorts stores by distance from the browser location', async () => {
    const context = await browser.newContext({ ...MOBILE, geolocation: { latitude: 40.7128, longitude: -74.006 } })
    await context.grantPermissions(['geolocation'], { origin: baseUrl })
    await injectTestWallet(context)
    const page = await context.newPage()
    await signInFromLanding(page, baseUrl)
    await page.goto(`${baseUrl}/stores`)
    await page.getByRole('button', { name: 'Use My Location' }).click()
    await page.waitForURL(/lat=40\.7128/)
    await page.getByText('Distances in miles from your location.').waitFor()
    const names = await page.getByRole('list', { name: 'Stores' }).getByRole('heading').allTextContents()
    expect(names.slice(0, 4).sort()).toEqual(['Bowery Second Look', 'Brooklyn Fix-It Collective', 'Chelsea Zero-Waste Pantry', 'Harlem Used Books & Records'])
    await context.close()
  })

  it('claims all tokens through the confirmation dialog', async () => {
    const context = await browser.newContext(MOBILE)
    const wallet = await injectTestWallet(context)
    const page = await context.newPage()
    await signInFromLanding(page, baseUrl)
    const db = createDb(inject('dbUrl'))
    const user = await db.selectFrom('users').select('id').where('wallet_address', '=', wallet.address.toLowerCase()).executeTakeFirstOrThrow()
    await db
      .insertInto('transactions')
      .values({
        user_id: user.id,
        type: 'store_addition',
        amount_milli: 4500,
        description: 'e2e credit',
        status: 'completed',
        tx_hash: null,
        idempotency_key: `e2e:${user.id}`,
        receipt_id: null,
        store_submission_id: null,
        referral_id: null,
        created_at: new Date().toISOString(),
      })
      .execute()
    await db.destroy()

    await page.goto(`${baseUrl}/redeem`)
    await expect(page.getByTestId('redeem-balance').textContent()).resolves.toBe('4.5 B3TR')
    await page.getByRole('link', { name: 'Claim All Tokens' }).click()
    const dialog = page.getByRole('dialog', { name: 'Claim 4.5 B3TR?' })
    await dialog.getByRole('button', { name: 'Confirm Claim' }).click()
    await page.locator('.toast').getByText('Tokens Claimed').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await expect(page.getByTestId('redeem-balance').textContent()).resolves.toBe('0.0 B3TR')
    await page.getByTestId('claim-history').getByText('Awaiting payout').waitFor()
    await context.close()
  })
})

// Issue 24 at 360 px, JavaScript on and off: screens within two taps, Home's latest achievement and
// notices, a shared achievement link, one label per claim status, the Tokens stats, the analysis
// failure's toast and Try Again, and "Get distance" as an action.
import { describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { DB } from '../../db/db.server'
import { claimAllTokens } from '../../app/claims/claims.server'
import { getBalanceMilli } from '../../app/rewards/ledger.server'
import { seedFiveReceiptUser } from '../utils/engagement'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { MOBILE, injectTestWallet, signedInWithId, signInFromLanding } from './browser'
import { receiptRow } from '../utils/receipt-rows'
import { openBrowserAndDb } from './suite'

const baseUrl = inject('baseUrl')
let browser: Browser
let db: DB

openBrowserAndDb((opened) => ({ browser, db } = opened))

const signedIn = (javaScriptEnabled: boolean) => signedInWithId(browser, db, baseUrl, javaScriptEnabled)

async function rejectedReceipt(userId: number, reason: string) {
  const now = new Date().toISOString()
  await db
    .insertInto('receipts')
    .values(
      receiptRow({
        user_id: userId,
        store_name: 'Lyft',
        category: 'ride_share',
        amount_cents: 1890,
        purchase_date: now.slice(0, 10),
        user_category: 'ride_share',
        user_amount_cents: 2890,
        user_purchase_date: now.slice(0, 10),
        analysis_json: '{}',
        status: 'rejected',
        reject_reason: reason,
        reviewed_at: now,
        created_at: now,
      }),
    )
    .execute()
}

async function noWiderThanTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

describe.each([true, false])('JavaScript %s', (javaScriptEnabled) => {
  it('reaches Impact Explorer, Reward History, Stores and Add Store within two taps', async () => {
    const { context } = await signedIn(javaScriptEnabled)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/home`)
    await page.getByTestId('stats-link').click()
    await page.waitForURL(`${baseUrl}/impact-explorer`)
    await page.getByRole('link', { name: 'View Analytics' }).click()
    await page.waitForURL(`${baseUrl}/rewards`)
    await page.goto(`${baseUrl}/home`)
    await page.getByRole('link', { name: /Sustainable Stores/ }).click()
    await page.waitForURL(`${baseUrl}/stores`)
    await page.getByRole('link', { name: 'Add Store' }).click()
    await page.waitForURL(`${baseUrl}/add-store`)
    await page.goto(`${baseUrl}/profile`)
    await noWiderThanTheScreen(page)
    await page.getByRole('navigation', { name: 'Explore' }).getByRole('link', { name: 'Reward History' }).click()
    await page.waitForURL(`${baseUrl}/rewards`)
    await context.close()
  })

  it("shows the latest achievement, the notices until dismissed, and one claim label everywhere", async () => {
    const { context, userId } = await signedIn(javaScriptEnabled)
    await seedFiveReceiptUser(db, userId)
    await rejectedReceipt(userId, 'The total on the photo is $18.90, not $28.90.')
    const page = await context.newPage()
    await page.goto(`${baseUrl}/home`)
    // The fifth receipt (today) unlocked Eco Commuter; the last reward entry (first_store) is 40 days old.
    await page.getByTestId('latest-achievement').getByText('Eco Commuter').waitFor()
    const notices = page.getByRole('region', { name: 'Since your last visit' })
    await notices.getByText('Receipt rejected').waitFor()
    await notices.getByText('Lyft: The total on the photo is $18.90, not $28.90.').waitFor()
    await noWiderThanTheScreen(page)
    await notices.getByRole('button', { name: 'Dismiss' }).click()
    await page.getByRole('region', { name: 'Since your last visit' }).waitFor({ state: 'detached' })
    await page.reload()
    await expect(page.getByText('Receipt rejected').count()).resolves.toBe(0)

    // A claim awaiting its payout reads the same on /redeem and in the history.
    const claim = await claimAllTokens(db, { userId, amountMilli: await getBalanceMilli(db, userId) })
    expect(claim.ok).toBe(true)
    await page.goto(`${baseUrl}/redeem`)
    await page.getByTestId('claim-history').getByText('Awaiting payout').waitFor()
    await page.goto(`${baseUrl}/transactions`)
    await page.getByTestId('transaction-row').getByText('Awaiting payout').first().waitFor()
    await expect(page.getByText('Pending Claim').count()).resolves.toBe(0)
    // Spec 2 §2's stats: 9 entries (5 receipts, the store, two achievement rewards, the claim), 63 B3TR, 5 receipts.
    await expect(page.getByTestId('stat-transactions').textContent()).resolves.toBe('9')
    await expect(page.getByTestId('stat-total-b3tr').textContent()).resolves.toBe('63.0')
    await expect(page.getByTestId('stat-receipts').textContent()).resolves.toBe('5')
    await expect(page.getByTestId('tokens-address').textContent()).resolves.toMatch(/^0x[0-9a-f]{6}\.\.\.[0-9a-f]{6}$/)
    await noWiderThanTheScreen(page)
    await context.close()
  })

  it('a shared achievement link shows the achievement and the way to start', async () => {
    const context = await browser.newContext({ ...MOBILE, javaScriptEnabled })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/?achievement=first_receipt`)
    const card = page.getByTestId('shared-achievement')
    await card.getByRole('heading', { name: 'First Receipt' }).waitFor()
    // Issue 40: achievements say they count verified receipts.
    await card.getByText('Get your first sustainable transport receipt verified.').waitFor()
    await noWiderThanTheScreen(page)
    await card.getByRole('link', { name: 'Start Earning' }).click()
    await page.waitForURL(`${baseUrl}/connect-wallet`)
    await context.close()
  })

  it('an e-mail that cannot be verified says so and what to do instead, with no Try Again (issue 32)', async () => {
    const { context } = await signedIn(javaScriptEnabled)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    const email = Buffer.from('From: someone@example.com\r\nTo: me@example.com\r\nSubject: hello\r\n\r\nNot a receipt at all.\r\n')
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'note.eml', mimeType: 'message/rfc822', buffer: email })
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    const alert = page.getByTestId('capture-error')
    await alert.getByText('E-receipt not accepted').waitFor({ timeout: 30_000 })
    await alert.getByText(/photograph the receipt instead/i).waitFor()
    await expect(alert.getByRole('link', { name: 'Try Again' }).count()).resolves.toBe(0)
    // The error stays on screen until the user acts; the upload is still there for a photo.
    await page.getByLabel('Upload from Gallery').waitFor({ state: 'attached' })
    await context.close()
  })

  it('a failure a retry can help names the spec text with the reason beneath, and offers Try Again', async () => {
    const { context } = await signedIn(javaScriptEnabled)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    // Not an image and not an e-mail: the photo did not read, another one can.
    const junk = Buffer.from('this is not a picture of anything')
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: junk })
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'Could not analyze receipt. Please try again.' }).last()
    await alert.waitFor({ timeout: 30_000 })
    await alert.getByRole('link', { name: 'Try Again' }).click()
    await page.waitForURL(`${baseUrl}/scan`)
    await page.getByRole('heading', { name: 'Capture your receipt' }).waitFor()
    await context.close()
  })
})

describe('submission failure', () => {
  it('with JavaScript, the toast reads the spec text with the reason beneath', async () => {
    const { context } = await signedIn(true)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    const image = await receiptImage({ vendor: 'Lyft', lines: [['Ride', '$9.10']], total: '$9.10', date: writtenDate(todayUtc()) })
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'lyft.png', mimeType: 'image/png', buffer: image })
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    // The same form submitted first in another tab: this one's submission is refused.
    const other = await context.newPage()
    await other.goto(page.url())
    await other.getByRole('button', { name: 'Submit Receipt' }).click()
    await other.waitForURL(/\/scan\/receipts\/\d+/)
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    const toast = page.locator('.toast')
    await toast.getByText('Submission Failed').waitFor()
    await toast.getByText('Could not submit receipt. Please try again.').waitFor()
    await expect(toast.locator('.toast-detail').textContent()).resolves.toMatch(/\S/)
    await context.close()
  })
})

describe('stores', () => {
  it('with JavaScript, Get distance asks for the location, and the cached position is used on the next load', async () => {
    const context = await browser.newContext({ ...MOBILE, geolocation: { latitude: 40.7128, longitude: -74.006 } })
    await context.grantPermissions(['geolocation'], { origin: baseUrl })
    await injectTestWallet(context)
    const page = await context.newPage()
    await signInFromLanding(page, baseUrl)
    await page.goto(`${baseUrl}/stores`)
    await page.getByRole('button', { name: /^Get distance to / }).first().click()
    await page.waitForURL(/lat=40\.7128/)
    await page.getByText('Distances in miles from your location.').waitFor()
    await page.goto(`${baseUrl}/stores`)
    await page.waitForURL(/lat=40\.7128/)
    await expect(page.getByTestId('store-distance').first().textContent()).resolves.toMatch(/miles$/)
    await noWiderThanTheScreen(page)
    await context.close()
  })

  it('without JavaScript, Get distance measures from the default city', async () => {
    const { context } = await signedIn(false)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/stores`)
    await page.getByRole('button', { name: /^Get distance to / }).first().click()
    await page.getByText('Distances in miles from Phoenix, AZ (default location).').waitFor()
    await noWiderThanTheScreen(page)
    await context.close()
  })
})

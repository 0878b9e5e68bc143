import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { launchBrowser, signedInContext } from './browser'

const baseUrl = inject('baseUrl')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

function signedIn(javaScriptEnabled: boolean): Promise<BrowserContext> {
  return signedInContext(browser, baseUrl, { javaScriptEnabled })
}

describe('scanning a receipt', () => {
  it('with JavaScript: upload, prefilled form, submit, reward breakdown', async () => {
    const context = await signedIn(true)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    const image = await receiptImage({ vendor: 'Uber', lines: [['Trip fare', '$18.40'], ['Booking fee', '$2.35'], ['Tip', '$3.00']], total: '$23.75', date: writtenDate(todayUtc()) })
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'uber.png', mimeType: 'image/png', buffer: image })
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await expect(page.getByLabel('Amount Spent ($)').inputValue()).resolves.toBe('23.75')
    await expect(page.getByLabel('Purchase Date').inputValue()).resolves.toBe(todayUtc())
    await expect(page.getByLabel('Transportation Category').inputValue()).resolves.toBe('ride_share')
    // Decision 100: base 8 whatever the $23.75 fare; floor(8 × 1.0 streak × 1.2 transport) = 9, + 10
    // first-receipt bonus = 19. The form step shows it before submitting; the result page agrees.
    await expect(page.getByTestId('reward-preview').textContent()).resolves.toBe('19.0 B3TR')
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('19.0 B3TR')
    // One toast at a time: 'Receipt Submitted!', then the achievement toast (with Share).
    await page.locator('.toast').getByText('Receipt Submitted!').waitFor()
    await page.getByTestId('achievement-toast').getByText('Achievement Unlocked').waitFor({ timeout: 15_000 })
    await expect(page.locator('.toast').count()).resolves.toBe(0)
    await expect(page.getByTestId('header-balance').textContent()).resolves.toContain('19.0')
    // The ledger entry names the service and the bonus that applied.
    await page.goto(`${baseUrl}/transactions?q=verified`)
    await page.getByTestId('transaction-row').getByText('Receipt verified: Uber (transport bonus ×1.2)').waitFor()
    await context.close()
  })

  it('without JavaScript: the same flow through plain forms and redirects', async () => {
    const context = await signedIn(false)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    const image = await receiptImage({ vendor: 'Lyft', lines: [['Ride', '$14.10'], ['Service fee', '$2.10']], total: '$16.20', date: writtenDate(todayUtc()) })
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'lyft.png', mimeType: 'image/png', buffer: image })
    await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await expect(page.getByLabel('Amount Spent ($)').inputValue()).resolves.toBe('16.20')
    // Decision 100: the $16.20 fare earns the same as any other: floor(8 × 1.0 × 1.2) = 9, + 10
    // first-receipt bonus = 19 (it was 14 when the amount set the base: floor(16.2 × 0.3) = 4).
    await expect(page.getByTestId('reward-preview').textContent()).resolves.toBe('19.0 B3TR')
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('19.0 B3TR')
    await page.getByText('Receipt Submitted!').waitFor()
    await page.goto(`${baseUrl}/transactions?q=verified`)
    await page.getByTestId('transaction-row').getByText('Receipt verified: Lyft (transport bonus ×1.2)').waitFor()
    await context.close()
  })

  it('without JavaScript: a bad file gets the spec message and nothing is recorded', async () => {
    const context = await signedIn(false)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('definitely not a photo') })
    await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.getByText('Invalid file type. Please upload an image').first().waitFor()
    await context.close()
  })
})

/**
 * Issue 23 at 360 px: a screenshot from the gallery is read at once; a blurred photo gets the retake
 * advice (on the phone with JavaScript, from the server without), and a retake with a good photo
 * earns the reward.
 */
import sharp from 'sharp'
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

/** An Uber e-mail screenshot; each test its own tip, or the trip would be a duplicate across wallets. Any of them earns 18 B3TR. */
const screenshot = (tipCents: number) =>
  receiptImage({
    vendor: 'Uber',
    lines: [['Trip fare', '$18.40'], ['Booking fee', '$2.35'], ['Tip', `$3.${String(tipCents).padStart(2, '0')}`]],
    total: `$23.${75 + tipCents}`,
    date: writtenDate(todayUtc()),
  })

/** The same receipt photographed with a shaking hand: too blurred to trust. */
async function blurredPhoto(tipCents: number) {
  return sharp(await screenshot(tipCents)).blur(5).jpeg({ quality: 80 }).toBuffer()
}

describe('capture guidance', () => {
  it('with JavaScript: a gallery screenshot is read at once and rewarded', async () => {
    const context = await signedIn(true)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await expect(page.getByLabel('Upload from Gallery').getAttribute('capture')).resolves.toBeNull()
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'Screenshot_20261124.png', mimeType: 'image/png', buffer: await screenshot(0) })
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('18.0 B3TR')
    await context.close()
  })

  it('with JavaScript: a blurred photo waits in a preview with the advice; a new image is read and rewarded', async () => {
    const context = await signedIn(true)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'blurred.jpg', mimeType: 'image/jpeg', buffer: await blurredPhoto(10) })
    const preview = page.getByTestId('capture-preview')
    await preview.getByText('Too blurry: hold steady and retake').waitFor()
    await preview.getByRole('img', { name: 'Your receipt' }).waitFor()
    await preview.getByRole('button', { name: 'Retake Photo' }).waitFor()
    await preview.getByRole('button', { name: 'Use this photo' }).waitFor()
    // Nothing was uploaded yet.
    expect(page.url()).toBe(`${baseUrl}/scan`)
    await preview.getByLabel('Upload New Image').setInputFiles({ name: 'Screenshot_2.png', mimeType: 'image/png', buffer: await screenshot(10) })
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('18.0 B3TR')
    await context.close()
  })

  it('without JavaScript: the server advises a retake before review; the retake is rewarded', async () => {
    const context = await signedIn(false)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'blurred.jpg', mimeType: 'image/jpeg', buffer: await blurredPhoto(20) })
    await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByTestId('retake-advice').getByText('Too blurry: hold steady and retake').waitFor()
    await page.getByRole('button', { name: 'Send for review instead' }).waitFor()
    await page.getByTestId('retake-advice').getByRole('link', { name: 'Retake Photo' }).click()
    await page.waitForURL(`${baseUrl}/scan`)
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'Screenshot_3.png', mimeType: 'image/png', buffer: await screenshot(20) })
    await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('18.0 B3TR')
    await context.close()
  })
})

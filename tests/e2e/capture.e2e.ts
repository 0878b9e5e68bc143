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

/**
 * An Uber e-mail screenshot; each test its own tip, or the trip would be a duplicate across wallets
 * (and a fare no other browser test uses: tests/utils/engagement.ts seeds Uber receipts of $25.00
 * today, so no tip of 20). Any of them earns floor(8 × 1.2) = 9, + 10 first-receipt bonus = 19 (decision 100).
 */
const screenshot = (tipCents: number) =>
  receiptImage({
    vendor: 'Uber',
    lines: [['Trip fare', '$19.45'], ['Booking fee', '$2.35'], ['Tip', `$3.${String(tipCents).padStart(2, '0')}`]],
    total: `$${((2480 + tipCents) / 100).toFixed(2)}`,
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
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('19.0 B3TR')
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
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('19.0 B3TR')
    await context.close()
  })

  it('without JavaScript: the server advises a retake before review; the retake is rewarded', async () => {
    const context = await signedIn(false)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'blurred.jpg', mimeType: 'image/jpeg', buffer: await blurredPhoto(37) })
    await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByTestId('retake-advice').getByText('Too blurry: hold steady and retake').waitFor()
    await page.getByRole('button', { name: 'Send for review instead' }).waitFor()
    await page.getByTestId('retake-advice').getByRole('link', { name: 'Retake Photo' }).click()
    await page.waitForURL(`${baseUrl}/scan`)
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'Screenshot_3.png', mimeType: 'image/png', buffer: await screenshot(37) })
    await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('19.0 B3TR')
    await context.close()
  })

  it('with JavaScript: the camera shows a framing guide, then a preview; Use this photo is read and rewarded', async () => {
    const context = await signedIn(true)
    // The phone's camera, filmed: a canvas stream of a receipt stands in for getUserMedia.
    const dataUrl = `data:image/png;base64,${(await screenshot(5)).toString('base64')}`
    await context.addInitScript((url: string) => {
      const getUserMedia = async () => {
        const img = new Image()
        img.src = url
        await img.decode()
        const canvas = document.createElement('canvas')
        canvas.width = img.width
        canvas.height = img.height
        const draw = () => canvas.getContext('2d')?.drawImage(img, 0, 0)
        draw()
        setInterval(draw, 100)
        return canvas.captureStream(10)
      }
      Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true })
    }, dataUrl)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await page.getByRole('button', { name: 'Use Camera' }).click()
    await page.locator('.camera-guide').waitFor({ state: 'attached' })
    const shutter = page.getByRole('button', { name: 'Take photo' })
    await expect.poll(() => shutter.isEnabled(), { timeout: 10_000 }).toBe(true)
    await page.waitForTimeout(300)
    await shutter.click()
    const preview = page.getByTestId('capture-preview')
    await preview.getByText('The photo looks sharp and well lit.').waitFor()
    await preview.getByRole('button', { name: 'Retake Photo' }).waitFor()
    await preview.getByLabel('Upload New Image').waitFor({ state: 'attached' })
    expect(page.url()).toBe(`${baseUrl}/scan`)
    await preview.getByRole('button', { name: 'Use this photo' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await expect(page.getByTestId('reward-total').textContent()).resolves.toBe('19.0 B3TR')
    await context.close()
  })
})

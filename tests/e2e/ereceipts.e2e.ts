/**
 * Issue 21 end to end, at 360 px: upload a signed receipt e-mail (.eml) and get the reward, with
 * JavaScript on and off; forward one by SMTP to the personal address and see it in the history.
 * The app reads DKIM keys from a real DNS server on the loopback (DNS_SERVERS).
 */
import nodemailer from 'nodemailer'
import type { Browser } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DkimDns } from '../utils/dkim-dns'
import { forwardAsAttachment, makeTrip, signedReceipt } from '../utils/ereceipts'
import type { AppServer } from './app-server'
import { useEReceiptApp } from './ereceipt-app'
import { signedInContext } from './browser'

const env = useEReceiptApp()
let app: AppServer
let browser: Browser
let dns: DkimDns
let smtpPort: number
beforeAll(() => {
  ;({ app, browser, dns, smtpPort } = env.current)
})

let seed = 5000

const yesterday = () => new Date(Date.now() - 86_400_000)

describe('e-receipts in the browser (360 px)', () => {
  it.each([true, false])('uploads an .eml and gets the reward (JavaScript %s)', async (javaScriptEnabled) => {
    const context = await signedInContext(browser, app.baseUrl, { javaScriptEnabled })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/scan`)
    const trip = makeTrip(++seed, yesterday())
    const eml = await signedReceipt(dns, 'Uber', trip)
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'uber-receipt.eml', mimeType: 'message/rfc822', buffer: eml })
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Analyze Receipt' }).click()
    await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
    await page.getByText('Verified e-receipt (uber.com)').waitFor()
    await expect(page.getByLabel('Amount Spent ($)').inputValue()).resolves.toBe((trip.totalCents / 100).toFixed(2))
    await page.getByRole('button', { name: 'Submit Receipt' }).click()
    await page.waitForURL(/\/scan\/receipts\/\d+/)
    await page.getByRole('heading', { name: 'Receipt Verified!' }).waitFor()
    await page.getByText('Verified e-receipt (uber.com)').waitFor()
    // Nothing wider than the phone.
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)
    await context.close()
  })

  it('shows the personal address; a receipt forwarded to it by SMTP appears in the history', async () => {
    const context = await signedInContext(browser, app.baseUrl, { javaScriptEnabled: true })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/scan`)
    const address = (await page.getByTestId('inbound-address').textContent())!.trim()
    expect(address).toMatch(/^r-[a-z2-9]+@in\.recircle\.test$/)
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)

    const original = await signedReceipt(dns, 'Lime', makeTrip(++seed, yesterday()))
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true })
    const info = await transport.sendMail({ envelope: { from: 'rider@example.org', to: [address] }, raw: await forwardAsAttachment(original, 'rider@example.org', address) })
    expect(info.response).toMatch(/credited/)

    await page.goto(`${app.baseUrl}/transactions`)
    await page.getByText('Verified e-receipt (li.me)').first().waitFor()
    await context.close()
  })
})

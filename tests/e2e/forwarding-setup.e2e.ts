/**
 * Issue 39 at 360 px: the e-receipts guide for Gmail, Outlook and iCloud Mail, opened with
 * JavaScript off and on (plain <details>), and a Gmail forwarding confirmation that arrives by
 * SMTP shown on Home to its owner with its code and Confirm link, then hidden with Done.
 */
import nodemailer from 'nodemailer'
import type { Browser, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DkimDns } from '../utils/dkim-dns'
import { confirmationLink, gmailConfirmation } from '../utils/forwarding'
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

async function noWiderThanThePhone(page: Page) {
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)
}

describe('setting up e-receipts at 360 px', () => {
  it.each([false, true])('the guide for Gmail, Outlook and iCloud Mail opens and fits (JavaScript %s)', async (javaScriptEnabled) => {
    const context = await signedInContext(browser, app.baseUrl, { javaScriptEnabled })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/e-receipts`)
    const address = (await page.getByTestId('inbound-address').first().textContent())!.trim()
    expect(address).toMatch(/^r-[a-z2-9]+@in\.recircle\.test$/)

    const gmail = page.getByTestId('guide-gmail')
    await gmail.getByText('Steps for phone and computer').click()
    await gmail.getByRole('heading', { name: 'Forward every receipt automatically (paid at once)' }).waitFor()
    // The filter is built from the supported senders, the built-in ones and ERECEIPT_SENDERS.
    const filter = (await gmail.getByTestId('gmail-filter').textContent())!
    expect(filter).toMatch(/^from:\(.*\)$/)
    for (const domain of ['uber.com', 'lyftmail.com', 'li.me', 'bird.co']) expect(filter).toContain(domain)
    await gmail.getByText('Forward as attachment').first().waitFor()
    await expect(gmail.getByText(address).first().isVisible()).resolves.toBe(true)

    const outlook = page.getByTestId('guide-outlook')
    await outlook.getByText('Steps for phone and computer').click()
    await outlook.getByText(/Action: Redirect to/).waitFor()

    const icloud = page.getByTestId('guide-icloud')
    await icloud.getByText('Steps for phone and computer').click()
    await icloud.getByText(/Rules are made on iCloud\.com in a browser on a computer/).waitFor()
    await noWiderThanThePhone(page)
    await context.close()
  })

  it("shows Gmail's confirmation on Home to its owner, with the code and the Confirm link; Done hides it", async () => {
    const context = await signedInContext(browser, app.baseUrl, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${app.baseUrl}/e-receipts`)
    const address = (await page.getByTestId('inbound-address').first().textContent())!.trim()

    const code = '604917283'
    const link = confirmationLink()
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true })
    const info = await transport.sendMail({ envelope: { from: 'forwarding-noreply@google.com', to: [address] }, raw: await gmailConfirmation(dns, { to: address, code, link }) })
    expect(info.response).toMatch(/Forwarding confirmation received/)

    const response = await page.goto(`${app.baseUrl}/home`)
    expect(response?.headers()['cache-control']).toBe('private, no-store')
    const card = page.getByTestId('forwarding-confirmation')
    await card.getByRole('heading', { name: 'Confirm forwarding from Gmail' }).waitFor()
    await expect(card.getByTestId('confirmation-code').textContent()).resolves.toBe(code)
    await expect(card.getByRole('link', { name: 'Confirm in Gmail' }).getAttribute('href')).resolves.toBe(link)
    await noWiderThanThePhone(page)

    // Another wallet's Home shows nothing of it.
    const other = await signedInContext(browser, app.baseUrl, { javaScriptEnabled: true })
    const otherPage = await other.newPage()
    await otherPage.goto(`${app.baseUrl}/home`)
    await otherPage.getByRole('heading', { name: "Today's actions" }).waitFor()
    await expect(otherPage.getByTestId('forwarding-confirmation').count()).resolves.toBe(0)
    await other.close()

    await card.getByRole('button', { name: 'Done' }).click()
    await page.waitForURL(`${app.baseUrl}/home`)
    await page.getByRole('heading', { name: "Today's actions" }).waitFor()
    await expect(page.getByTestId('forwarding-confirmation').count()).resolves.toBe(0)
    // The code and the link never reach the logs.
    expect(app.output()).not.toContain(code)
    expect(app.output()).not.toContain(link.slice(8))
    await context.close()
  })
})

/**
 * Issue 40 at 360 px: an old phone without a wallet (JavaScript off, then on) asks for a code on
 * /connect-wallet, a wallet signed in in another browser confirms it on /device after seeing which
 * browser asks, and the old phone ends signed in on /home as that wallet.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createDb, type DB } from '../../db/db.server'
import { MOBILE, launchBrowser, signedInWithId } from './browser'
import { auditPage } from './screens'

const baseUrl = inject('baseUrl')
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
let browser: Browser
let db: DB
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  db = createDb(inject('dbUrl'))
})
afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await db?.destroy()
})

/** The layout suite's checks (tests/e2e/layout.e2e.ts) on each state of these pages: 360 px wide, no wrapped button, contrast. */
async function laidOutWell(page: Page) {
  const audit = await auditPage(page)
  expect(audit.scrollWidth).toBeLessThanOrEqual(360)
  expect(audit.wrappedButtons).toEqual([])
  expect(audit.cutPlaceholders).toEqual([])
  expect(audit.lowContrast).toEqual([])
}

/** The old phone: no wallet, an Android Chrome User-Agent; asks for a code from /connect-wallet. */
async function askForCode(javaScriptEnabled: boolean) {
  const context = await browser.newContext({ ...MOBILE, javaScriptEnabled, userAgent: ANDROID_CHROME })
  contexts.push(context)
  const page = await context.newPage()
  await page.goto(`${baseUrl}/connect-wallet`)
  await laidOutWell(page)
  await page.getByRole('button', { name: 'Sign in with a code' }).click()
  await page.waitForURL(`${baseUrl}/connect-wallet/code`)
  const code = (await page.getByTestId('user-code').textContent())!.trim()
  expect(code).toMatch(/^[BCDFGHJKMNPRSTVWXZ3479]{4}-[BCDFGHJKMNPRSTVWXZ3479]{4}$/)
  await page.getByText(`${baseUrl}/device`).waitFor()
  await laidOutWell(page)
  return { page, code }
}

/** The signed-in wallet (JavaScript on) types the code on /device, checks who asks and confirms. */
async function confirmElsewhere(code: string) {
  const { context, userId } = await signedInWithId(browser, db, baseUrl, true)
  contexts.push(context)
  const page = await context.newPage()
  await page.goto(`${baseUrl}/device`)
  await laidOutWell(page)
  await page.getByLabel('Code').fill(` ${code.replace('-', '').toLowerCase()} `)
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByRole('heading', { name: 'Sign in this browser?' }).waitFor()
  await expect(page.getByTestId('asking-browser').textContent()).resolves.toBe('Chrome on Android')
  await page.getByText(/just now|minute/).waitFor()
  await laidOutWell(page)
  await page.getByRole('button', { name: 'Confirm' }).click()
  await page.getByRole('heading', { name: 'Sign-in confirmed' }).waitFor()
  await laidOutWell(page)
  const user = await db.selectFrom('users').select('wallet_address').where('id', '=', userId).executeTakeFirstOrThrow()
  return { page, walletAddress: user.wallet_address }
}

const shortAddress = (address: string) => `${address.slice(0, 6)}...${address.slice(-4)}`

describe('sign in with a code', () => {
  it('JavaScript off on the old phone: Continue before Confirm says so, after it signs in once', async () => {
    const phone = await askForCode(false)
    await phone.page.getByRole('button', { name: 'Continue' }).click()
    await phone.page.getByText(/^Not confirmed yet\./).waitFor()
    await laidOutWell(phone.page)
    await expect(phone.page.getByTestId('user-code').textContent()).resolves.toBe(phone.code)

    const wallet = await confirmElsewhere(phone.code)
    await phone.page.getByRole('button', { name: 'Continue' }).click()
    await phone.page.waitForURL(`${baseUrl}/home`)
    await expect(phone.page.getByTestId('wallet-address').textContent()).resolves.toBe(shortAddress(wallet.walletAddress))
    await laidOutWell(phone.page)

    // The code was used: typed again, it is refused with the words of issue 40.
    await wallet.page.goto(`${baseUrl}/device`)
    await wallet.page.getByLabel('Code').fill(phone.code)
    await wallet.page.getByRole('button', { name: 'Next' }).click()
    await wallet.page.getByText('That code was already used.').waitFor()
  })

  it('Deny: the old phone is told so and offered a new code', async () => {
    const phone = await askForCode(false)
    const { context } = await signedInWithId(browser, db, baseUrl, false)
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/device`)
    await page.getByLabel('Code').fill(phone.code)
    await page.getByRole('button', { name: 'Next' }).click()
    await page.getByRole('button', { name: 'Deny' }).click()
    await page.getByRole('heading', { name: 'Sign-in denied' }).waitFor()
    await laidOutWell(page)

    await phone.page.getByRole('button', { name: 'Continue' }).click()
    await phone.page.getByText('The sign-in was denied on the other device. Get a new code if that was a mistake.').waitFor()
    await laidOutWell(phone.page)
    await phone.page.getByRole('button', { name: 'Get a new code' }).click()
    await expect(phone.page.getByTestId('user-code').textContent()).resolves.not.toBe(phone.code)
  })

  it('JavaScript on: the code page continues by itself once the code is confirmed', async () => {
    const phone = await askForCode(true)
    await phone.page.getByRole('button', { name: 'Copy' }).waitFor()
    await confirmElsewhere(phone.code)
    await phone.page.waitForURL(`${baseUrl}/home`, { timeout: 15_000 })
  })
})

/**
 * Issue 32 at 360 px, JavaScript on and off: My Receipts with each receipt's status and Home's
 * "in review" card, the e-receipts guide, the errors a user can act on (the daily limit, an
 * ineligible receipt, a too-small image) and numbers that fit (wrapping ledger titles, Home's h1).
 *
 * Covered elsewhere, not repeated here: a new wallet's honest preview ("This receipt goes to
 * review, usually within a day." and no reward-preview) in tests/e2e/standing.e2e.ts; an
 * unverifiable .eml ("E-receipt not accepted", what to do instead, no Try Again) in
 * tests/e2e/spec-agreement.e2e.ts.
 *
 * Every test signs in a fresh wallet: the suite's fake node counts it as a VeBetter Passport person
 * (tests/e2e/global-setup.ts), so its well-read photos are paid at once. Each photo has a total no
 * other browser test uses, or its trip would be a duplicate across wallets (issue 10).
 */
import sharp from 'sharp'
import { describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { DB } from '../../db/db.server'
import { reviewExpectedBy } from '../../app/receipts/status'
import { addApprovedReceipt } from '../utils/engagement'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { signedInWithId } from './browser'
import { openBrowserAndDb } from './suite'

const baseUrl = inject('baseUrl')
let browser: Browser
let db: DB

openBrowserAndDb((opened) => ({ browser, db } = opened))

const signedIn = (javaScriptEnabled: boolean) => signedInWithId(browser, db, baseUrl, javaScriptEnabled)

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

/** A ride receipt dated today whose fare and booking fee add up to `cents`. */
function trip(vendor: 'Uber' | 'Lyft', cents: number) {
  return receiptImage({ vendor, lines: [['Trip fare', dollars(cents - 235)], ['Booking fee', '$2.35']], total: dollars(cents), date: writtenDate(todayUtc()) })
}

/** Upload a photo on /scan and wait for the form step (without JavaScript through Analyze Receipt). */
async function analyze(page: Page, javaScriptEnabled: boolean, image: Buffer) {
  await page.goto(`${baseUrl}/scan`)
  await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: image })
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Analyze Receipt' }).click()
  await page.waitForURL(/\/scan\?analysis=\d+/, { timeout: 30_000 })
}

/** Analyse and submit a photo (optionally with another amount than the one read); the receipt's id. */
async function submitPhoto(page: Page, javaScriptEnabled: boolean, image: Buffer, opts: { amount?: string } = {}) {
  await analyze(page, javaScriptEnabled, image)
  if (opts.amount) await page.getByLabel('Amount Spent ($)').fill(opts.amount)
  await page.getByRole('button', { name: 'Submit Receipt' }).click()
  await page.waitForURL(/\/scan\/receipts\/\d+/)
  return Number(/\/scan\/receipts\/(\d+)/.exec(page.url())![1])
}

async function noWiderThanTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

/** Totals per JavaScript setting, each used once in the suite. */
const FARES = {
  js: { paid: 3117, review: 1763, limit: [1112, 1223, 1334], fuel: 4123 },
  noJs: { paid: 3341, review: 2109, limit: [1445, 1556, 1667], fuel: 4387 },
}

describe.each([true, false])('issue 32 at 360 px, JavaScript %s', (javaScriptEnabled) => {
  const fares = javaScriptEnabled ? FARES.js : FARES.noJs

  it('My Receipts lists each receipt newest first with its status; Home counts the one in review; Tokens and Profile lead there', async () => {
    const { context } = await signedIn(javaScriptEnabled)
    const page = await context.newPage()
    const paidId = await submitPhoto(page, javaScriptEnabled, await trip('Uber', fares.paid))
    await page.getByRole('heading', { name: 'Receipt Verified!' }).waitFor()
    // A changed amount sends the photo to review (decision: "The amount you entered differs").
    const sentAt = new Date().toISOString()
    const reviewId = await submitPhoto(page, javaScriptEnabled, await trip('Lyft', fares.review), { amount: ((fares.review + 100) / 100).toFixed(2) })
    const expectedBy = [reviewExpectedBy(sentAt), reviewExpectedBy(new Date().toISOString())]
    await page.getByRole('heading', { name: 'Submitted for Review' }).waitFor()

    // Home: the card says how many wait, and leads to My Receipts.
    await page.goto(`${baseUrl}/home`)
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1)
    const card = page.getByTestId('in-review-card')
    await expect(card.locator('strong').textContent()).resolves.toBe('1 receipt in review')
    await noWiderThanTheScreen(page)
    await card.click()
    await page.waitForURL(`${baseUrl}/receipts`)

    // Newest first: the receipt in review, then the paid one, each with its vendor, amount and date.
    await page.getByRole('heading', { name: 'My Receipts', level: 1 }).waitFor()
    const rows = page.getByRole('list', { name: 'Your receipts, newest first' }).getByRole('listitem')
    await expect(rows.count()).resolves.toBe(2)
    const [review, paid] = [rows.nth(0), rows.nth(1)]
    await expect(review.getByRole('link').getAttribute('href')).resolves.toBe(`/scan/receipts/${reviewId}`)
    await expect(review.getByTestId('receipt-status').textContent()).resolves.toBe('In review')
    await expect(review.locator('.receipt-title').textContent()).resolves.toBe('Lyft')
    const decision = (await review.getByText(/^Decision expected by /).textContent())!
    expect(expectedBy.map((d) => `Decision expected by ${d}`)).toContain(decision)
    await expect(paid.getByRole('link').getAttribute('href')).resolves.toBe(`/scan/receipts/${paidId}`)
    await expect(paid.getByTestId('receipt-status').textContent()).resolves.toBe('Verified')
    await expect(paid.locator('.receipt-title').textContent()).resolves.toBe('Uber')
    // Dates read as on Tokens ("Nov 26, 2026"), never split across lines at 360 px.
    const shown = new Date(`${todayUtc()}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
    await paid.getByText(`${dollars(fares.paid)} · ${shown}`).waitFor()
    await expect(paid.getByText(/^Decision expected by/).count()).resolves.toBe(0)
    await noWiderThanTheScreen(page)

    // A row opens the receipt's page.
    await review.getByRole('link').click()
    await page.waitForURL(`${baseUrl}/scan/receipts/${reviewId}`)
    await page.getByRole('heading', { name: 'Submitted for Review' }).waitFor()

    // Tokens and Profile link to My Receipts.
    await page.goto(`${baseUrl}/transactions`)
    await page.getByRole('link', { name: 'My Receipts' }).click()
    await page.waitForURL(`${baseUrl}/receipts`)
    await page.goto(`${baseUrl}/profile`)
    await page.getByRole('navigation', { name: 'Explore' }).getByRole('link', { name: 'My Receipts' }).click()
    await page.waitForURL(`${baseUrl}/receipts`)
    await rows.nth(1).waitFor()
    await expect(rows.count()).resolves.toBe(2)
    await context.close()
  }, 120_000)

  it('the e-receipts guide: reached from Scan and Help, the supported senders, three mail apps, and no forwarding on this server', async () => {
    const { context } = await signedIn(javaScriptEnabled)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    await page.getByRole('link', { name: /^E-receipts are paid at once/ }).click()
    await page.waitForURL(`${baseUrl}/e-receipts`)
    await page.getByRole('heading', { name: 'E-receipts', level: 1 }).waitFor()
    const senders = page.getByTestId('supported-senders')
    for (const name of ['Uber', 'Lyft', 'Lime']) await senders.locator('strong', { hasText: new RegExp(`^${name}$`) }).waitFor()
    for (const app of ['Gmail', 'Apple Mail', 'Outlook']) await page.getByRole('heading', { name: app, level: 2, exact: true }).waitFor()
    // The e2e server has no INBOUND_DOMAIN: the guide says so and keeps only the .eml steps.
    await expect(page.getByTestId('no-forwarding').textContent()).resolves.toContain('Forwarding by e-mail is not set up on this ReCircle server')
    await expect(page.getByRole('heading', { name: 'Forward one receipt' }).count()).resolves.toBe(0)
    await expect(page.getByRole('heading', { name: 'Save it as an .eml to upload' }).count()).resolves.toBe(3)
    await noWiderThanTheScreen(page)

    await page.goto(`${baseUrl}/help?topic=scanning`)
    await page.getByRole('link', { name: 'Set up e-receipts' }).click()
    await page.waitForURL(`${baseUrl}/e-receipts`)
    await context.close()
  })

  it('at the daily limit Scan says so once, when uploads reopen, and offers no upload', async () => {
    const { context } = await signedIn(javaScriptEnabled)
    const page = await context.newPage()
    for (const [i, cents] of fares.limit.entries()) {
      await submitPhoto(page, javaScriptEnabled, await trip(i % 2 ? 'Lyft' : 'Uber', cents))
      await page.getByRole('heading', { name: 'Receipt Verified!' }).waitFor()
    }
    await page.goto(`${baseUrl}/scan`)
    const limit = page.getByTestId('daily-limit')
    await expect(limit.count()).resolves.toBe(1)
    await expect(page.getByText('Daily Action Limit Reached', { exact: true }).count()).resolves.toBe(1)
    await expect(limit.textContent()).resolves.toMatch(/Uploads open again at 00:00 UTC, in (\d+ h )?\d+ min\./)
    await expect(page.getByLabel('Upload from Gallery').count()).resolves.toBe(0)
    await expect(page.getByRole('button', { name: 'Analyze Receipt' }).count()).resolves.toBe(0)
    await expect(page.getByRole('button', { name: 'Use Camera' }).count()).resolves.toBe(0)
    await expect(page.getByLabel('Actions today: 3 of 3').count()).resolves.toBe(1)
    await noWiderThanTheScreen(page)
    await limit.getByRole('link', { name: 'My Receipts' }).click()
    await page.waitForURL(`${baseUrl}/receipts`)
    await context.close()
  }, 120_000)

  it('an ineligible (fuel) receipt says why, with no form and no Submit Receipt', async () => {
    const { context } = await signedIn(javaScriptEnabled)
    const page = await context.newPage()
    const fuel = await receiptImage({
      vendor: 'Shell',
      lines: [['Regular Unleaded 11.4 gal', dollars(fares.fuel - 399)], ['Car wash', '$3.99']],
      total: dollars(fares.fuel),
      date: writtenDate(todayUtc()),
    })
    await analyze(page, javaScriptEnabled, fuel)
    const alert = page.getByRole('alert').filter({ hasText: 'This receipt is not eligible.' })
    await alert.getByText('Fuel purchases are not eligible: only sustainable transport receipts earn B3TR').waitFor()
    await expect(page.getByRole('button', { name: 'Submit Receipt' }).count()).resolves.toBe(0)
    await expect(page.getByLabel('Amount Spent ($)').count()).resolves.toBe(0)
    await noWiderThanTheScreen(page)
    await page.getByRole('link', { name: 'Scan Another Receipt' }).click()
    await page.waitForURL(`${baseUrl}/scan`)
    await page.getByLabel('Upload from Gallery').waitFor({ state: 'attached' })
    await context.close()
  }, 120_000)

  it('ledger titles wrap at 360 px instead of being cut off, and Home has an h1', async () => {
    const { context, userId } = await signedIn(javaScriptEnabled)
    const storeName = 'Metropolitan Transportation Authority New York City Transit'
    await addApprovedReceipt(db, userId, { storeName, category: 'public_transit' })
    const page = await context.newPage()
    for (const path of ['/transactions', '/rewards']) {
      await page.goto(`${baseUrl}${path}`)
      const title = page.locator('.tx-title', { hasText: storeName })
      await title.waitFor()
      await noWiderThanTheScreen(page)
      const fit = await title.evaluate((el) => {
        const style = getComputedStyle(el)
        const list = el.closest('ul')!
        const tooWide = [list, ...list.querySelectorAll('*')]
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth || e.getBoundingClientRect().left < 0)
          .map((e) => `${e.tagName}.${e.className}`)
        const cut = [...list.querySelectorAll<HTMLElement>('.tx-title')].filter((t) => {
          const s = getComputedStyle(t)
          return s.textOverflow === 'ellipsis' || s.whiteSpace === 'nowrap' || t.scrollWidth > t.clientWidth
        })
        const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2
        return { tooWide, cut: cut.length, lines: el.getBoundingClientRect().height / lineHeight }
      })
      expect(fit.tooWide, path).toEqual([])
      expect(fit.cut, path).toBe(0)
      // The long title takes more than one line: it wrapped, it was not hidden.
      expect(fit.lines, path).toBeGreaterThan(1.5)
    }
    await page.goto(`${baseUrl}/home`)
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1)
    await context.close()
  })
})

describe('with JavaScript', () => {
  it('a too-small image gets an alert that stays until the user acts, not a toast that vanishes', async () => {
    const { context } = await signedIn(true)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/scan`)
    const tiny = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#ffffff' } }).png().toBuffer()
    await page.getByLabel('Upload from Gallery').setInputFiles({ name: 'tiny.png', mimeType: 'image/png', buffer: tiny })
    const alert = page.getByTestId('capture-error')
    await alert.getByText('Image resolution is too low. Please take a clearer photo').waitFor()
    await expect(page.locator('.toast').count()).resolves.toBe(0)
    // A toast went after 5 s; the alert is still there after 7.
    await page.waitForTimeout(7_000)
    await expect(alert.getByText('Image resolution is too low. Please take a clearer photo').isVisible()).resolves.toBe(true)
    await expect(page.locator('.toast').count()).resolves.toBe(0)
    // Nothing went to the server: still the capture step.
    expect(page.url()).toBe(`${baseUrl}/scan`)
    await noWiderThanTheScreen(page)
    await context.close()
  })
})

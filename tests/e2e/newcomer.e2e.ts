/**
 * Issue 40 at 360 px, JavaScript on and off: the landing's first screen says how you earn and what
 * B3TR is; the header chips say what they count; Profile shows the full address (copy with
 * JavaScript); toasts never cover the page, and a failed sign-in's toast goes once one succeeds.
 */
import { describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { DB } from '../../db/db.server'
import { B3TR_EXPLAINED } from '../../app/rewards/earning-rule'
import { addApprovedReceipt } from '../utils/engagement'
import { createTestWallet } from '../utils/wallet'
import { MOBILE, injectTestWallet, signedInContext, signInFromLanding } from './browser'
import { openBrowserAndDb } from './suite'

const baseUrl = inject('baseUrl')
let browser: Browser
let db: DB

openBrowserAndDb((opened) => ({ browser, db } = opened))

/** The first screen of a phone: 360 × 640. */
const FIRST_SCREEN = { ...MOBILE, viewport: { width: 360, height: 640 } }

/** Every toast on screen, and every element of the page it overlaps (none, issue 40). */
async function coveredByToasts(page: Page) {
  return page.evaluate(() => {
    const toasts = [...document.querySelectorAll('.toast, [data-testid="achievement-toast"]')].map((t) => t.getBoundingClientRect())
    const content = [...document.querySelectorAll('main *, nav *')].filter((el) => {
      const r = el.getBoundingClientRect()
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'
    })
    const covered = content.filter((el) => {
      const r = el.getBoundingClientRect()
      return toasts.some((t) => r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom)
    })
    return { toasts: toasts.length, covered: covered.map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 40)}`) }
  })
}

describe.each([{ javaScriptEnabled: true }, { javaScriptEnabled: false }])('JavaScript $javaScriptEnabled', ({ javaScriptEnabled }) => {
  it("the landing's first screen (360 × 640) says how you earn and what B3TR is", async () => {
    const context = await browser.newContext({ ...FIRST_SCREEN, javaScriptEnabled })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/`)
    const steps = page.getByTestId('how-you-earn')
    await expect(steps.getByRole('listitem').count()).resolves.toBe(3)
    await expect(steps.textContent()).resolves.toMatch(/receipt/)
    await expect(page.getByTestId('b3tr-explained').textContent()).resolves.toBe(B3TR_EXPLAINED)
    for (const box of [await steps.boundingBox(), await page.getByTestId('b3tr-explained').boundingBox()]) {
      expect(box!.y + box!.height).toBeLessThanOrEqual(640)
    }
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)
    await context.close()
  })

  it("the header chips say what they count, and Profile shows the wallet's full address", async () => {
    const wallet = createTestWallet()
    const context = await signedInContext(browser, baseUrl, { javaScriptEnabled, wallet })
    if (javaScriptEnabled) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/profile`)
    await expect(page.getByRole('img', { name: 'Streak: 0 days' }).textContent()).resolves.toContain('0 days')
    await expect(page.getByRole('img', { name: 'Balance: 0.0 B3TR' }).textContent()).resolves.toContain('0.0 B3TR')
    const address = page.getByTestId('full-address')
    await expect(address.textContent()).resolves.toBe(wallet.address.toLowerCase())
    await expect(address.evaluate((el) => getComputedStyle(el).userSelect)).resolves.toBe('all')
    if (javaScriptEnabled) {
      await page.getByRole('button', { name: 'Copy address' }).click()
      await page.getByRole('button', { name: 'Copied' }).waitFor()
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(wallet.address.toLowerCase())
    } else {
      await expect(page.getByTestId('copy-address').count()).resolves.toBe(0)
      await page.getByText('Tap the address to select it, then copy it.').waitFor()
    }
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)

    // A flashed toast (a setting saved) sits above the page and covers none of it.
    await page.getByRole('switch', { name: 'Notifications' }).click()
    await page.locator('.toast').getByText('Notifications off').waitFor()
    const { toasts, covered } = await coveredByToasts(page)
    expect(toasts).toBe(1)
    expect(covered).toEqual([])
    await context.close()
  })
})

describe('with JavaScript', () => {
  it("the achievement toast covers neither 'Since your last visit' nor anything else, and shows once", async () => {
    const wallet = createTestWallet()
    const context = await signedInContext(browser, baseUrl, { wallet })
    const user = await db.selectFrom('users').select(['id', 'created_at']).where('wallet_address', '=', wallet.address.toLowerCase()).executeTakeFirstOrThrow()
    // A receipt staff approved since the last visit: Home's notice card, and the first-receipt achievement.
    const id = await addApprovedReceipt(db, user.id, { rewardMilli: 9000 })
    await db.updateTable('receipts').set({ reviewed_at: new Date(Date.now() + 1000).toISOString(), reviewed_by_user_id: user.id }).where('id', '=', id).execute()
    const page = await context.newPage()
    await page.goto(`${baseUrl}/home`)
    await page.getByText('Since your last visit').waitFor()
    await page.getByTestId('achievement-toast').waitFor()
    expect((await coveredByToasts(page)).covered).toEqual([])

    // Seen once: the next page, and a new tab, do not bring it back.
    await page.goto(`${baseUrl}/achievements`)
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    await page.waitForTimeout(500)
    await expect(page.getByTestId('achievement-toast').count()).resolves.toBe(0)
    const other = await context.newPage()
    await other.goto(`${baseUrl}/home`)
    await other.getByText('Since your last visit').waitFor()
    await other.waitForTimeout(500)
    await expect(other.getByTestId('achievement-toast').count()).resolves.toBe(0)
    await context.close()
  })

  it("a 'Connection Failed' toast goes once the test wallet signs in", async () => {
    const context = await browser.newContext(MOBILE)
    const page = await context.newPage()
    await page.goto(`${baseUrl}/`)
    await page.getByRole('button', { name: 'Connect VeWorld' }).click()
    await page.locator('.toast').getByText('Connection Failed').waitFor()
    await page.getByRole('button', { name: 'Use a test wallet' }).click()
    await page.waitForURL(`${baseUrl}/home`)
    await page.getByRole('img', { name: /^Balance: / }).waitFor()
    await expect(page.locator('.toast').getByText('Connection Failed').count()).resolves.toBe(0)
    await context.close()
  })

  it('signing in from the landing page still works (the wallet card beneath the new first screen)', async () => {
    const context = await browser.newContext(MOBILE)
    await injectTestWallet(context)
    const page = await context.newPage()
    await signInFromLanding(page, baseUrl)
    await page.getByRole('img', { name: 'Streak: 0 days' }).waitFor()
    await context.close()
  })
})

/**
 * Not axe-core (the suite does not carry it; see the report of issue 40): the rules it failed on, and
 * the ones a chip or card of this issue could break, checked in the page. A table header with no
 * text, a button, link or form field with no name, an image without alt, a repeated id, and
 * aria-label on an element whose role does not take a name.
 */
async function accessibilityProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed'
    const named = (el: Element) => {
      const label = el.getAttribute('aria-label') ?? ''
      const by = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '').join('')
      const text = el.textContent ?? ''
      const alt = [...el.querySelectorAll('img[alt], svg title')].map((i) => i.getAttribute('alt') ?? i.textContent ?? '').join('')
      const labels = 'labels' in el ? [...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent ?? '').join('') : ''
      return `${label}${by}${text}${alt}${labels}${el.getAttribute('title') ?? ''}`.trim() !== ''
    }
    for (const th of document.querySelectorAll('th')) if (!named(th)) problems.push(`empty table header: ${th.outerHTML.slice(0, 60)}`)
    for (const el of document.querySelectorAll('button, a[href], [role="button"], [role="switch"], [role="link"]')) {
      if (visible(el) && !named(el)) problems.push(`control without a name: ${el.outerHTML.slice(0, 80)}`)
    }
    for (const el of document.querySelectorAll('input:not([type="hidden"]), select, textarea')) {
      if (visible(el) && !named(el) && !el.getAttribute('placeholder')) problems.push(`field without a label: ${el.outerHTML.slice(0, 80)}`)
    }
    for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) problems.push(`image without alt: ${img.outerHTML.slice(0, 80)}`)
    const ids = new Map<string, number>()
    for (const el of document.querySelectorAll('[id]')) ids.set(el.id, (ids.get(el.id) ?? 0) + 1)
    for (const [id, n] of ids) if (n > 1) problems.push(`id used ${n} times: ${id}`)
    for (const el of document.querySelectorAll('span[aria-label]:not([role]), div[aria-label]:not([role]), p[aria-label]:not([role])')) {
      problems.push(`aria-label on an element without a role: ${el.outerHTML.slice(0, 80)}`)
    }
    return problems
  })
}

describe('the pages a newcomer opens', () => {
  it.each([{ javaScriptEnabled: true }, { javaScriptEnabled: false }])(
    'JavaScript $javaScriptEnabled: no empty header, unnamed control or field, image without alt, repeated id or misplaced aria-label',
    async ({ javaScriptEnabled }) => {
      const visitor = await browser.newContext({ ...MOBILE, javaScriptEnabled })
      const context = await signedInContext(browser, baseUrl, { javaScriptEnabled })
      const found: string[] = []
      for (const [ctx, paths] of [
        [visitor, ['/', '/connect-wallet', '/help', '/terms-of-service', '/feedback']],
        [context, ['/home', '/scan', '/achievements', '/impact-explorer', '/profile', '/transactions', '/rewards', '/stores', '/receipts', '/redeem', '/invite-friend', '/add-store', '/e-receipts']],
      ] as const) {
        for (const path of paths) {
          const page = await ctx.newPage()
          await page.goto(`${baseUrl}${path}`)
          found.push(...(await accessibilityProblems(page)).map((p) => `${path}: ${p}`))
          await page.close()
        }
      }
      expect(found).toEqual([])
      await visitor.close()
      await context.close()
    },
  )
})

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import { createDb, type DB } from '../../db/db.server'
import { createTestWallet } from '../utils/wallet'
import { launchBrowser, signInFromLanding } from './browser'
import { accessibilityViolations, auditPage, contextFor, openScreen, screens, seedScreens, walletContext, type Screen, type Sessions } from './screens'

// Issue 11: every page at 360 px, JavaScript on (and off for the pages with forms): nothing wider
// than the screen, no button label on two lines, no placeholder cut off, and text contrast of at
// least 4.5:1 (3:1 for large text, as WCAG AA allows), and no axe-core violation (issue 40).
// `npm run screenshots` captures the same pages.
const baseUrl = inject('baseUrl')
let browser: Browser
let db: DB
let sessions: Sessions

beforeAll(async () => {
  browser = await launchBrowser()
  db = createDb(inject('dbUrl'))
  sessions = await seedScreens(browser, baseUrl, db)
})
afterAll(async () => {
  await browser?.close()
  await db?.destroy()
})

async function problemsOf(list: Screen[], javaScriptEnabled: boolean) {
  const contexts: Partial<Record<Screen['as'], BrowserContext>> = {}
  const problems: string[] = []
  for (const screen of list) {
    contexts[screen.as] ??= await contextFor(browser, sessions, screen.as, javaScriptEnabled)
    const page = await openScreen(contexts[screen.as]!, baseUrl, screen)
    const audit = await auditPage(page)
    const where = `${screen.path} (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`
    if (audit.scrollWidth > 360) problems.push(`${where}: ${audit.scrollWidth} px wide`)
    for (const label of audit.wrappedButtons) problems.push(`${where}: button "${label}" wraps`)
    for (const text of audit.cutPlaceholders) problems.push(`${where}: placeholder "${text}" is cut off`)
    for (const c of audit.lowContrast) problems.push(`${where}: "${c.text}" ${c.color} on ${c.background} is ${c.ratio}:1`)
    // Issue 40: axe-core finds no violation on any page.
    for (const v of await accessibilityViolations(page, { javaScriptEnabled })) problems.push(`${where}: axe ${v}`)
    await page.close()
  }
  await Promise.all(Object.values(contexts).map((c) => c.close()))
  return problems
}

describe('layout at 360 px', () => {
  // 31 pages take 35-45 s on two shared cores; the suite's 60 s ran out when the machine was busier.
  it('every page, with JavaScript', async () => {
    expect(await problemsOf(screens(sessions.ids), true)).toEqual([])
  }, 120_000)

  it('the pages with forms, without JavaScript', async () => {
    expect(await problemsOf(screens(sessions.ids).filter((s) => s.noJs), false)).toEqual([])
  }, 120_000)

  it('the celebrations cover the page and draw their icons', async () => {
    const signing = await walletContext(browser, createTestWallet())
    const page = await signing.newPage()
    await signInFromLanding(page, baseUrl)
    const overlay = page.getByRole('dialog', { name: 'Wallet Connected!' })
    await overlay.waitFor()
    // An opaque background: the home page must not show through the overlay.
    await expect(overlay.evaluate((el) => getComputedStyle(el).backgroundImage)).resolves.not.toMatch(/rgba\(/)
    expect((await auditPage(page)).lowContrast).toEqual([])
    await signing.close()

    const context = await contextFor(browser, sessions, 'user', true)
    const result = await context.newPage()
    await result.goto(`${baseUrl}/scan/receipts/${sessions.ids.receiptId}?new=1&streak=3`)
    const streak = result.getByRole('dialog', { name: '3 Day Streak!' })
    await streak.waitFor()
    await expect(streak.locator('.flame svg').count()).resolves.toBe(1)
    await expect(streak.textContent()).resolves.not.toMatch(/\p{Extended_Pictographic}/u)
    await context.close()
  })
})

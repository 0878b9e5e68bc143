/**
 * npm run screenshots: every page at 360 px, JavaScript on and off, into docs/screenshots/
 * (<page>-js.png, <page>-nojs.png), plus the two celebration overlays. Uses the built app
 * (run `npm run build` first) on its own SQLite file, seeded like tests/e2e/layout.e2e.ts, paying
 * claims on the local fake Thor node (tests/mocks), so the chain pages show a working setup. Its
 * VeBetter Passport counts every wallet as a person except NEW_WALLETS, as in the browser suite:
 * the seeded user is established, the new wallets' photos wait for staff (issue 31).
 * `npm run screenshots -- scan stores` takes only those pages. Screenshots the script no longer
 * makes are deleted.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { address, keccak256, secp256k1 } from 'thor-devkit'
import { createDb } from '#db/db.server'
import { startAppServer } from '../../tests/e2e/app-server'
import { launchBrowser, signInFromLanding } from '../../tests/e2e/browser'
import { contextFor, openScreen, screens, seedScreens, walletContext } from '../../tests/e2e/screens'
import { startFakeThorServer } from '../../tests/mocks/fake-thor-server'
import { NEW_WALLETS, createTestWallet } from '../../tests/utils/wallet'

const DIR = path.resolve('docs/screenshots')
const only = process.argv.slice(2)

// The fake chain's demo distributor (as in scripts/dev/demo-fake-thor.ts): a key that exists only there.
const DISTRIBUTOR_KEY = 'd1'.repeat(32)
const APP_ID = '0x' + keccak256('ReCircle demo').toString('hex')
const B3TR = 10n ** 18n
const distributor = address.fromPublicKey(secp256k1.derivePublicKey(Buffer.from(DISTRIBUTOR_KEY, 'hex')))
const chain = await startFakeThorServer({
  blockIntervalMs: 500,
  poolB3tr: 10_000n * B3TR,
  apps: { [APP_ID]: { distributors: [distributor], availableFunds: 10_000n * B3TR } },
  accounts: { [distributor]: { vet: 1_000n * B3TR, vtho: 10_000n * B3TR } },
  defaultPassport: { person: true },
})
for (const wallet of NEW_WALLETS) chain.fake.setPassport(wallet.address, { person: false })
const app = await startAppServer({
  THOR_NODE_URL: chain.url,
  PASSPORT_CHECKS: 'on',
  PAYOUT_PRIVATE_KEY: DISTRIBUTOR_KEY,
  VEBETTER_APP_ID: APP_ID,
  PAYOUT_INTERVAL_MS: '300',
})
const browser = await launchBrowser()
const db = createDb(app.dbUrl)
const written = new Set<string>()

/**
 * The whole page in one picture: the window is made as tall as the page (a full-page capture would
 * leave the fixed bottom bar where the first screen ends), then put back.
 */
async function save(page: Page, name: string) {
  const file = `${name}.png`
  const viewport = page.viewportSize()!
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) })
  await page.screenshot({ path: path.join(DIR, file), animations: 'disabled' })
  await page.setViewportSize(viewport)
  written.add(file)
}

try {
  fs.mkdirSync(DIR, { recursive: true })
  const sessions = await seedScreens(browser, app.baseUrl, db)
  for (const javaScriptEnabled of [true, false]) {
    const suffix = javaScriptEnabled ? 'js' : 'nojs'
    const contexts = {
      visitor: await contextFor(browser, sessions, 'visitor', javaScriptEnabled),
      user: await contextFor(browser, sessions, 'user', javaScriptEnabled),
      admin: await contextFor(browser, sessions, 'admin', javaScriptEnabled),
      newWallet: await contextFor(browser, sessions, 'newWallet', javaScriptEnabled),
    }
    for (const screen of screens(sessions.ids)) {
      if (only.length && !only.includes(screen.name)) continue
      const page = await openScreen(contexts[screen.as], app.baseUrl, screen)
      if (javaScriptEnabled) await page.waitForTimeout(400) // hydration and client data
      await save(page, `${screen.name}-${suffix}`)
      await page.close()
    }
    await Promise.all(Object.values(contexts).map((c) => c.close()))
  }

  if (!only.length || only.includes('celebrations')) {
    // The wallet-connected celebration, 2 s in (check mark, confetti, title).
    const signing = await walletContext(browser, createTestWallet())
    const page = await signing.newPage()
    await signInFromLanding(page, app.baseUrl)
    await page.getByRole('dialog', { name: 'Wallet Connected!' }).waitFor()
    await page.waitForTimeout(2000)
    await page.screenshot({ path: path.join(DIR, 'connect-celebration-js.png') })
    written.add('connect-celebration-js.png')
    await signing.close()

    // The streak celebration a receipt opens on a 3-day streak.
    const user = await contextFor(browser, sessions, 'user', true)
    const result = await user.newPage()
    await result.goto(`${app.baseUrl}/scan/receipts/${sessions.ids.receiptId}?new=1&streak=3`)
    await result.getByRole('dialog', { name: '3 Day Streak!' }).waitFor()
    await result.waitForTimeout(2000)
    await result.screenshot({ path: path.join(DIR, 'streak-celebration-js.png') })
    written.add('streak-celebration-js.png')
    await user.close()
  }

  if (!only.length) {
    for (const file of fs.readdirSync(DIR)) {
      if (file.endsWith('.png') && !written.has(file)) fs.rmSync(path.join(DIR, file))
    }
  }
  const bytes = fs.readdirSync(DIR).reduce((sum, f) => sum + fs.statSync(path.join(DIR, f)).size, 0)
  console.log(`${written.size} screenshots written to docs/screenshots (${(bytes / 1e6).toFixed(1)} MB in the folder)`)
} finally {
  await browser.close()
  await db.destroy()
  await app.stop()
  await chain.close()
}

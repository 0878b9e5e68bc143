import fs from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { Certificate, blake2b256, secp256k1 } from 'thor-devkit'
import { createTestWallet, type TestWallet } from '../utils/wallet'
import type { DB } from '../../db/db.server'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`)
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

export const MOBILE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }

/**
 * A VeWorld stand-in: `window.vechain.newConnexSigner(genesisId).signCert(msg)` answers like Connex,
 * signed in Node with thor-devkit by the test wallet's key.
 */
export async function injectTestWallet(context: BrowserContext, wallet: TestWallet = createTestWallet()) {
  await context.exposeFunction('__recircleTestSignCert', (messageJson: string, domain: string) => {
    const message = JSON.parse(messageJson) as { purpose: string; payload: { type: string; content: string } }
    const annex = { domain, timestamp: Math.floor(Date.now() / 1000), signer: wallet.address }
    const unsigned = { ...message, ...annex }
    const signature = '0x' + secp256k1.sign(blake2b256(Certificate.encode(unsigned)), wallet.privateKey).toString('hex')
    return JSON.stringify({ annex, signature })
  })
  await context.addInitScript(() => {
    const w = window as unknown as {
      vechain: unknown
      __recircleTestSignCert: (m: string, d: string) => Promise<string>
    }
    w.vechain = {
      isVeWorld: true,
      newConnexSigner: () => ({
        signCert: async (message: unknown) =>
          JSON.parse(await w.__recircleTestSignCert(JSON.stringify(message), location.hostname)),
      }),
    }
  })
  return wallet
}

/** Sign in through the landing page's wallet card and wait for /home. */
export async function signInFromLanding(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/`)
  await page.getByRole('button', { name: 'Connect VeWorld' }).click()
  await page.waitForURL(`${baseUrl}/home`)
}

/**
 * A signed-in browser context. Signing needs JavaScript (the wallet signs in the page); for a
 * JavaScript-off context the session cookie is carried over from a signing context.
 */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  opts: { javaScriptEnabled?: boolean; wallet?: TestWallet } = {},
): Promise<BrowserContext> {
  const signing = await browser.newContext(MOBILE)
  await injectTestWallet(signing, opts.wallet ?? createTestWallet())
  const page = await signing.newPage()
  await signInFromLanding(page, baseUrl)
  if (opts.javaScriptEnabled !== false) return signing
  const storageState = await signing.storageState()
  await signing.close()
  return browser.newContext({ ...MOBILE, javaScriptEnabled: false, storageState })
}

/** A signed-in 360 px context with a fresh test wallet, and that user's id in the app's database. */
export async function signedInWithId(
  browser: Browser,
  db: DB,
  baseUrl: string,
  javaScriptEnabled: boolean,
): Promise<{ context: BrowserContext; userId: number }> {
  const wallet = createTestWallet()
  const context = await signedInContext(browser, baseUrl, { javaScriptEnabled, wallet })
  const user = await db.selectFrom('users').select('id').where('wallet_address', '=', wallet.address.toLowerCase()).executeTakeFirstOrThrow()
  return { context, userId: user.id }
}

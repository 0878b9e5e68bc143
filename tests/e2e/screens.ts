import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { DB } from '../../db/db.server'
import { ACHIEVEMENT_KEYS } from '../../app/engagement/achievements'
import { TOAST_SESSION_PREFIX } from '../../app/engagement/share'
import { computeReceiptReward } from '../../app/rewards/receipt-reward'
import { claimAllTokens } from '../../app/claims/claims.server'
import { analyzeAndStore } from '../../app/analysis/analyses.server'
import { NEW_WALLET_REVIEW_REASON } from '../../app/receipts/standing'
import type { StoredAnalysis } from '../../app/analysis/stored-analysis'
import { getBalanceMilli } from '../../app/rewards/ledger.server'
import { REAL_HASH, addApprovedReceipt, seedFiveReceiptUser } from '../utils/engagement'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { ADMIN_WALLET, NEW_WALLETS, createTestWallet, type TestWallet } from '../utils/wallet'
import { MOBILE, injectTestWallet, signInFromLanding } from './browser'
import { receiptRow } from '../utils/receipt-rows'

/**
 * Every page of the app with data behind it, for the 360 px layout test (tests/e2e/layout.e2e.ts)
 * and the screenshot script (scripts/dev/screenshots.ts).
 */
export type Screen = {
  name: string
  path: string
  /** 'newWallet': a wallet without standing (issue 31), which VeBetter Passport does not count as a person. */
  as: 'visitor' | 'user' | 'admin' | 'newWallet'
  status?: number
  /** The layout test also opens it with JavaScript off. */
  noJs?: boolean
}

export type SeededIds = { receiptId: number; transactionId: number; storeId: number; analysisId: number }

export function screens(ids: SeededIds): Screen[] {
  return [
    { name: 'landing', path: '/', as: 'visitor', noJs: true },
    { name: 'landing-shared-achievement', path: '/?achievement=five_receipts', as: 'visitor', noJs: true },
    { name: 'connect-wallet', path: '/connect-wallet', as: 'visitor', noJs: true },
    { name: 'sign-in-with-a-code', path: '/connect-wallet/code', as: 'visitor', noJs: true },
    { name: 'home', path: '/home', as: 'user', noJs: true },
    { name: 'scan', path: '/scan', as: 'user', noJs: true },
    { name: 'scan-new-wallet', path: '/scan', as: 'newWallet', noJs: true },
    { name: 'scan-form', path: `/scan?analysis=${ids.analysisId}`, as: 'user', noJs: true },
    { name: 'receipt-result', path: `/scan/receipts/${ids.receiptId}`, as: 'user' },
    { name: 'my-receipts', path: '/receipts', as: 'user', noJs: true },
    { name: 'e-receipts', path: '/e-receipts', as: 'user', noJs: true },
    { name: 'achievements', path: '/achievements', as: 'user' },
    { name: 'achievements-share', path: '/achievements?share=five_receipts', as: 'user', noJs: true },
    { name: 'impact-explorer', path: '/impact-explorer', as: 'user' },
    { name: 'transactions', path: '/transactions', as: 'user', noJs: true },
    { name: 'transaction-detail', path: `/transactions/${ids.transactionId}`, as: 'user' },
    { name: 'rewards', path: '/rewards', as: 'user', noJs: true },
    { name: 'profile', path: '/profile', as: 'user' },
    { name: 'stores', path: '/stores', as: 'user', noJs: true },
    { name: 'store-detail', path: `/stores/${ids.storeId}`, as: 'user' },
    { name: 'add-store', path: '/add-store', as: 'user', noJs: true },
    { name: 'invite-friend', path: '/invite-friend', as: 'user', noJs: true },
    { name: 'redeem', path: '/redeem', as: 'user' },
    { name: 'help', path: '/help', as: 'visitor' },
    { name: 'feedback', path: '/feedback', as: 'user', noJs: true },
    { name: 'device', path: '/device', as: 'user', noJs: true },
    { name: 'terms-of-service', path: '/terms-of-service', as: 'visitor' },
    { name: 'not-found', path: '/no-such-page', as: 'visitor', status: 404 },
    { name: 'admin-overview', path: '/admin', as: 'admin', noJs: true },
    { name: 'admin-receipts', path: '/admin/receipts', as: 'admin', noJs: true },
    { name: 'admin-pending-submissions', path: '/admin/pending-submissions', as: 'admin', noJs: true },
    { name: 'admin-feedback', path: '/admin/feedback', as: 'admin' },
    { name: 'admin-payouts', path: '/admin/payouts', as: 'admin' },
    { name: 'contract-status', path: '/contract-status', as: 'admin' },
    { name: 'admin-debug-logs', path: '/admin/debug-logs', as: 'admin' },
  ]
}

/** tsx (scripts/dev/screenshots.ts) compiles with keepNames: functions sent to the page call its __name helper. */
const NAME_SHIM = 'globalThis.__name ??= (f) => f'

/** A 360 px context with the test wallet injected, as VeWorld would be. */
export async function walletContext(browser: Browser, wallet: TestWallet): Promise<BrowserContext> {
  const context = await browser.newContext({ ...MOBILE, deviceScaleFactor: 1 })
  await context.addInitScript({ content: NAME_SHIM })
  await injectTestWallet(context, wallet)
  return context
}

/** Sign in with the test wallet on a 360 px page (needs JavaScript); returns the session and the user id. */
export async function signIn(browser: Browser, baseUrl: string, db: DB, wallet: TestWallet) {
  const signing = await walletContext(browser, wallet)
  const page = await signing.newPage()
  await signInFromLanding(page, baseUrl)
  const storageState = await signing.storageState()
  await signing.close()
  const user = await db.selectFrom('users').select('id').where('wallet_address', '=', wallet.address.toLowerCase()).executeTakeFirstOrThrow()
  return { storageState, userId: user.id }
}

const now = () => new Date().toISOString()

/** A photo's analysis as the receipts code stores it (the review page reads it through its schema). */
function storedAnalysis(read: { storeName: string; category: string; cents: number; confidence: number; ocrText: string; reasons?: string[] }): string {
  const analysis: StoredAnalysis = {
    isValid: true,
    storeName: read.storeName,
    category: read.category,
    totalAmount: read.cents / 100,
    purchaseDate: now().slice(0, 10),
    isAcceptable: !read.reasons?.length,
    needsManualReview: !!read.reasons?.length,
    reasons: read.reasons ?? [],
    confidence: read.confidence,
    ocrText: read.ocrText,
    reader: 'tesseract',
  }
  return JSON.stringify(analysis)
}

/** The review signals a submission stores, with what VeBetter Passport said (issues 22 and 31). */
function reviewSignals(isPerson: boolean) {
  const personReason = isPerson ? 'User has participated in enough actions' : 'User does not meet the criteria to be considered a person'
  return JSON.stringify({
    walletAgeDays: 0,
    referredByUserId: null,
    referredBySameCodeToday: 0,
    inviteeAutoApprovalsToday: 0,
    nearDuplicateOf: null,
    sameReceiptFromOtherAccount: null,
    passport: { ok: true, status: { blacklisted: false, signals: 0, isPerson, personReason } },
    ...(isPerson ? {} : { standing: { established: false, reason: 'new_wallet' } }),
  })
}

/**
 * A user with five receipts, a streak, a claim of that balance (paid where payouts are set up)
 * and a receipt since, a receipt and a store awaiting review, feedback and a debug log; the admin
 * signed in. Two new wallets (issue 31: NEW_WALLETS[2] and [3], which the node's VeBetter Passport
 * does not count as people) whose first photos wait for staff, from one address: the review page's
 * group; the first is signed in for its Scan page. Long names on purpose: rows must still fit.
 */
export async function seedScreens(browser: Browser, baseUrl: string, db: DB) {
  const user = await signIn(browser, baseUrl, db, createTestWallet())
  const admin = await signIn(browser, baseUrl, db, ADMIN_WALLET)
  const newWallet = await signIn(browser, baseUrl, db, NEW_WALLETS[2]!)
  const otherNewWallet = await signIn(browser, baseUrl, db, NEW_WALLETS[3]!)
  await seedFiveReceiptUser(db, user.userId)
  // One of the five came as a verified e-receipt (issue 21): My Receipts shows its sender.
  await db.updateTable('receipts').set({ verified_sender: 'uber.com' }).where('user_id', '=', user.userId).where('store_name', '=', 'Uber').execute()
  // The receipt with the on-chain hash: its result page and its ledger entry (with an explorer link).
  const transaction = await db
    .selectFrom('transactions')
    .select(['id', 'receipt_id'])
    .where('user_id', '=', user.userId)
    .where('tx_hash', '=', REAL_HASH)
    .executeTakeFirstOrThrow()
  const receipt = { id: transaction.receipt_id! }
  // The result page shows the reward breakdown the receipts code stores with an accepted receipt.
  const reward = computeReceiptReward({ category: 'scooter_bike', streak: 3 })
  await db.updateTable('receipts').set({ reward_milli: reward.totalMilli, reward_details_json: JSON.stringify(reward) }).where('id', '=', receipt.id).execute()
  await db.updateTable('transactions').set({ amount_milli: reward.totalMilli }).where('id', '=', transaction.id).execute()
  const claim = await claimAllTokens(db, { userId: user.userId, amountMilli: await getBalanceMilli(db, user.userId) })
  if (!claim.ok) throw new Error(`Seeding the claim failed: ${claim.error}`)
  await addApprovedReceipt(db, user.userId, { storeName: 'Bay Area Rapid Transit', category: 'public_transit' })
  const review = await db
    .insertInto('receipts')
    .values(
      receiptRow({
        user_id: user.userId,
        image: await receiptImage({ vendor: 'MTA', lines: [['Monthly pass', '$42.75']], total: '$42.75', date: writtenDate(todayUtc()), width: 600 }),
        image_mime: 'image/png',
        store_name: 'Metropolitan Transportation Authority',
        category: 'public_transit',
        amount_cents: 4275,
        purchase_date: now().slice(0, 10),
        user_category: 'public_transit',
        user_amount_cents: 4275,
        user_purchase_date: now().slice(0, 10),
        analysis_json: storedAnalysis({
          storeName: 'Metropolitan Transportation Authority',
          category: 'public_transit',
          cents: 4275,
          confidence: 0.62,
          ocrText: 'MTA\nMonthly pass\nTOTAL $42.75',
          reasons: ['Low confidence reading the receipt'],
        }),
        status: 'pending_review',
        review_reasons_json: JSON.stringify(['Low confidence reading the receipt']),
        // A Passport person: the review page lists it under established wallets.
        review_signals_json: reviewSignals(true),
        created_at: now(),
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  // The new wallets' photos, read well, waiting only for standing; the same (hashed) address links them.
  const sameAddress = crypto.randomBytes(16).toString('base64url')
  for (const [userId, vendor, cents, trip] of [
    [newWallet.userId, 'Lyft', 1140, 'LYFT-7Q2K9'],
    [otherNewWallet.userId, 'Uber', 1560, 'UBER-3MX81'],
  ] as const) {
    const total = `$${(cents / 100).toFixed(2)}`
    await db
      .insertInto('receipts')
      .values(
        receiptRow({
          user_id: userId,
          image: await receiptImage({ vendor, lines: [['Trip fare', total]], total, date: writtenDate(todayUtc()), width: 600 }),
          image_mime: 'image/png',
          store_name: vendor,
          category: 'ride_share',
          amount_cents: cents,
          purchase_date: now().slice(0, 10),
          user_category: 'ride_share',
          user_amount_cents: cents,
          user_purchase_date: now().slice(0, 10),
          analysis_json: storedAnalysis({ storeName: vendor, category: 'ride_share', cents, confidence: 0.94, ocrText: `${vendor}\nTrip fare ${total}\nTOTAL ${total}` }),
          status: 'pending_review',
          review_reasons_json: JSON.stringify([NEW_WALLET_REVIEW_REASON]),
          review_signals_json: reviewSignals(false),
          reference_number: trip,
          address_hash: sameAddress,
          created_at: now(),
        }),
      )
      .execute()
  }
  await db
    .insertInto('store_submissions')
    .values({
      user_id: user.userId,
      source: 'in_app',
      name: 'Second Chance Community Thrift & Repair Café',
      address: '1234 North Central Avenue, Suite 200',
      city: 'Phoenix',
      state: 'AZ',
      store_type: 'thrift',
      description: 'Clothes, furniture and a repair corner on Saturdays.',
      status: 'pending',
      reject_reason: null,
      store_id: null,
      reviewed_by_user_id: null,
      reviewed_at: null,
      created_at: now(),
    })
    .execute()
  await db
    .insertInto('feedback')
    .values({ user_id: user.userId, type: 'bug', text: 'The scan page took a while to read my bus ticket, but it worked in the end.', email: 'rider@example.com', created_at: now() })
    .execute()
  await db
    .insertInto('debug_logs')
    .values({
      user_id: user.userId,
      user_agent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      test_type: 'wallet',
      client_timestamp: now(),
      lines_json: JSON.stringify(['[info] wallet detected: VeWorld', '[error] signCert rejected by the user']),
      line_count: 2,
      created_at: now(),
    })
    .execute()
  // A receipt staff rejected since the last visit: Home's notice (Notifications, issue 24).
  await db
    .insertInto('receipts')
    .values(
      receiptRow({
        user_id: user.userId,
        store_name: 'Lyft',
        category: 'ride_share',
        amount_cents: 1890,
        purchase_date: now().slice(0, 10),
        user_category: 'ride_share',
        user_amount_cents: 2890,
        user_purchase_date: now().slice(0, 10),
        analysis_json: JSON.stringify({ storeName: 'Lyft', confidence: 0.71 }),
        status: 'rejected',
        review_reasons_json: JSON.stringify(['The total was changed from the one on the receipt']),
        reject_reason: 'The total on the photo is $18.90, not $28.90.',
        reviewed_by_user_id: admin.userId,
        reviewed_at: now(),
        created_at: now(),
      }),
    )
    .execute()
  // A photo read and waiting on the form step, with the reward the server would pay.
  const analysis = await analyzeAndStore(db, {
    userId: user.userId,
    image: await receiptImage({ vendor: 'Lime', lines: [['Ride 12 min', '$4.60']], total: '$4.60', date: writtenDate(todayUtc()), width: 600 }),
    analyze: async () => ({
      isValid: true,
      storeName: 'Lime',
      category: 'scooter_bike',
      totalAmount: 4.6,
      purchaseDate: todayUtc(),
      confidence: 0.95,
      isAcceptable: true,
      needsManualReview: false,
      reasons: [],
    }),
  })
  const store = await db.selectFrom('stores').select('id').orderBy('id').executeTakeFirstOrThrow()
  const ids: SeededIds = { receiptId: receipt.id, transactionId: transaction.id, storeId: store.id, analysisId: analysis.id }
  return { user, admin, newWallet, ids, reviewReceiptId: review.id }
}

export type Sessions = Awaited<ReturnType<typeof seedScreens>>

/**
 * A 360 px context for a visitor, the seeded user, the new wallet or the admin. The achievement toasts count as
 * already shown (once per browser session), so they do not cover the header of every page.
 */
export async function contextFor(browser: Browser, sessions: Sessions, as: Screen['as'], javaScriptEnabled: boolean): Promise<BrowserContext> {
  const storageState = as === 'visitor' ? undefined : sessions[as].storageState
  const context = await browser.newContext({ ...MOBILE, deviceScaleFactor: 1, javaScriptEnabled, storageState })
  const keys = ACHIEVEMENT_KEYS.map((key) => TOAST_SESSION_PREFIX + key)
  await context.addInitScript({ content: `${NAME_SHIM}; for (const k of ${JSON.stringify(keys)}) sessionStorage.setItem(k, '1')` })
  return context
}

/** Opens a screen and waits until it has settled (fonts, hydration). */
export async function openScreen(context: BrowserContext, baseUrl: string, screen: Screen): Promise<Page> {
  const page = await context.newPage()
  const res = await page.goto(`${baseUrl}${screen.path}`, { waitUntil: 'load' })
  const status = res?.status()
  if (status !== (screen.status ?? 200)) throw new Error(`${screen.path}: status ${status}, expected ${screen.status ?? 200}`)
  await page.evaluate(() => document.fonts.ready)
  return page
}

export type LowContrast = { text: string; color: string; background: string; ratio: number; large: boolean }
export type Audit = { scrollWidth: number; lowContrast: LowContrast[]; wrappedButtons: string[]; cutPlaceholders: string[] }

/**
 * Runs in the page: the document's width, and every visible text whose colour against the
 * background behind it falls below WCAG AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
 * The background is the element's own and its ancestors' colours composited down to the first opaque
 * one; a gradient counts as its worst colour. Disabled controls are exempt (WCAG 1.4.3). Also every
 * button whose label wrapped to a second line and every placeholder cut off by its field.
 */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core's violations on the page, as "rule: what it says (where)". It runs by evaluation, so
 * pages opened with JavaScript off are checked too. Colour contrast is auditPage's own check.
 */
export async function accessibilityViolations(page: Page, opts: { javaScriptEnabled: boolean }): Promise<string[]> {
  // With JavaScript off a page runs no timers, and axe needs them: its markup is checked without its
  // scripts in a page that runs them (the stylesheets load from the app, as in the real page).
  if (!opts.javaScriptEnabled) {
    const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, '').replace(/<head>/i, `<head><base href="${new URL(page.url()).origin}/">`)
    const context = await page.context().browser()!.newContext({ viewport: { width: 360, height: 740 } })
    try {
      const copy = await context.newPage()
      await copy.setContent(html, { waitUntil: 'load' })
      return await accessibilityViolations(copy, { javaScriptEnabled: true })
    } finally {
      await context.close()
    }
  }
  const violations = (await page.evaluate(
    `${AXE_SOURCE};\naxe.run(document, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } }).then((r) => r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) })))`,
  )) as Array<{ id: string; help: string; nodes: string[] }>
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.join(', ')})`)
}

export async function auditPage(page: Page): Promise<Audit> {
  await page.evaluate(NAME_SHIM)
  return page.evaluate(() => {
    type RGBA = [number, number, number, number]
    const parse = (c: string): RGBA[] =>
      [...c.matchAll(/rgba?\(([^)]+)\)/g)].map((m) => {
        const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number)
        return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]
      })
    const over = (top: RGBA, bottom: RGBA): RGBA => {
      const a = top[3]
      return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1]
    }
    const lum = (c: RGBA) => {
      const f = (v: number) => {
        const s = v / 255
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2])
    }
    const ratio = (a: RGBA, b: RGBA) => {
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x)
      return (hi + 0.05) / (lo + 0.05)
    }
    /** The possible backgrounds behind an element (several for a gradient). */
    const backgrounds = (el: Element): RGBA[] => {
      const layers: RGBA[] = []
      let base: RGBA[] = [[255, 255, 255, 1]]
      for (let node: Element | null = el; node; node = node.parentElement) {
        const style = getComputedStyle(node)
        if (style.backgroundImage.includes('gradient')) {
          base = parse(style.backgroundImage).map((c) => over(c, [255, 255, 255, 1]))
          break
        }
        const [bg] = parse(style.backgroundColor)
        if (bg && bg[3] > 0) {
          if (bg[3] >= 1) {
            base = [bg]
            break
          }
          layers.push(bg)
        }
      }
      return base.map((b) => layers.reduceRight((acc, layer) => over(layer, acc), b))
    }
    const visible = (el: Element) => {
      const rect = el.getBoundingClientRect()
      if (rect.width < 2 || rect.height < 2) return false
      const style = getComputedStyle(el)
      if (style.visibility !== 'visible' || style.clip === 'rect(0px, 0px, 0px, 0px)') return false
      for (let node: Element | null = el; node; node = node.parentElement) {
        const s = getComputedStyle(node)
        if (Number(s.opacity) === 0 || s.display === 'none') return false
        if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') return false
      }
      return true
    }
    const disabled = (el: Element) => !!el.closest('[disabled], [aria-disabled="true"]')
    const lowContrast: LowContrast[] = []
    const check = (el: Element, text: string, colorValue: string) => {
      if (!visible(el) || disabled(el)) return
      const style = getComputedStyle(el)
      const size = parseFloat(style.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
      const [fg] = parse(colorValue)
      if (!fg) return
      for (const bg of backgrounds(el)) {
        const r = ratio(over(fg, bg), bg)
        if (r < (large ? 3 : 4.5)) {
          lowContrast.push({ text: text.slice(0, 60), color: colorValue, background: `rgb(${bg.slice(0, 3).map(Math.round).join(', ')})`, ratio: Math.round(r * 100) / 100, large })
          return
        }
      }
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE'].includes(el.tagName)) continue
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
        if (el.type === 'hidden' || el.type === 'file') continue
        if (el.value) check(el, el.value, getComputedStyle(el).color)
        else if (el.placeholder) check(el, el.placeholder, getComputedStyle(el, '::placeholder').color)
        continue
      }
      const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim()
      if (!own) continue
      check(el, own, el instanceof SVGElement ? getComputedStyle(el).fill : getComputedStyle(el).color)
    }
    // A button is one line of text (44 px high); taller means its label wrapped.
    const wrappedButtons = [...document.querySelectorAll('.btn')]
      .filter((b) => visible(b) && b.getBoundingClientRect().height > 56)
      .map((b) => (b.textContent ?? '').trim())
    // A placeholder wider than its empty field is cut off.
    const measure = document.createElement('canvas').getContext('2d')!
    const cutPlaceholders = [...document.querySelectorAll<HTMLInputElement>('input[placeholder]')]
      .filter((input) => {
        if (!visible(input) || input.value) return false
        const s = getComputedStyle(input)
        measure.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`
        return measure.measureText(input.placeholder).width > input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
      })
      .map((input) => input.placeholder)
    return { scrollWidth: document.documentElement.scrollWidth, lowContrast, wrappedButtons, cutPlaceholders }
  })
}

/**
 * Issue 40 at 360 px, JavaScript on and off: two receipts waiting for staff promise what approval
 * will credit (19.0 with the first-receipt bonus, 9.0 without), Home says what is in review, staff
 * approve them (the later one first), and the rider's balance on Home and Tokens is the sum promised.
 */
import { describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { DB } from '../../db/db.server'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { receiptRow } from '../utils/receipt-rows'
import { ADMIN_WALLET } from '../utils/wallet'
import { signedInContext, signedInWithId } from './browser'
import { openBrowserAndDb } from './suite'

const baseUrl = inject('baseUrl')
let browser: Browser
let db: DB

openBrowserAndDb((opened) => ({ browser, db } = opened))

/** A ride photo waiting for staff, sent `minutesAgo` minutes ago, with fares no other test uses. */
async function waitingReceipt(userId: number, minutesAgo: number, cents: number) {
  const created = new Date(Date.now() - minutesAgo * 60_000).toISOString()
  const total = `$${(cents / 100).toFixed(2)}`
  const row = await db
    .insertInto('receipts')
    .values(
      receiptRow({
        user_id: userId,
        image: await receiptImage({ vendor: 'Lyft', lines: [['Ride', total]], total, date: writtenDate(todayUtc()), width: 600 }),
        image_mime: 'image/png',
        store_name: 'Lyft',
        category: 'ride_share',
        amount_cents: cents,
        purchase_date: todayUtc(),
        user_category: 'ride_share',
        user_amount_cents: cents,
        user_purchase_date: todayUtc(),
        analysis_json: JSON.stringify({ isValid: true, storeName: 'Lyft', category: 'ride_share', totalAmount: cents / 100, purchaseDate: todayUtc(), isAcceptable: true, needsManualReview: false, reasons: [] }),
        status: 'pending_review',
        review_reasons_json: JSON.stringify(['Checked by staff']),
        created_at: created,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

const balance = (page: Page) => page.getByTestId('header-balance').getAttribute('aria-label')

describe('promise to balance (issue 40)', () => {
  it.each([true, false])('JavaScript %s: 19.0 and 9.0 promised, 28.0 in review, 28.0 credited', async (javaScriptEnabled) => {
    const rider = await signedInWithId(browser, db, baseUrl, javaScriptEnabled)
    const cents = 1700 + (javaScriptEnabled ? 11 : 23)
    const first = await waitingReceipt(rider.userId, 20, cents)
    const second = await waitingReceipt(rider.userId, 10, cents + 100)
    const page = await rider.context.newPage()
    for (const [id, promised] of [
      [first, 'Once approved it earns 19.0 B3TR (including the 10.0 B3TR first-receipt bonus).'],
      [second, 'Once approved it earns 9.0 B3TR.'],
    ] as const) {
      await page.goto(`${baseUrl}/scan/receipts/${id}`)
      await expect(page.getByTestId('approval-promise').textContent()).resolves.toBe(promised)
    }
    await page.goto(`${baseUrl}/home`)
    await expect(page.getByTestId('money-in-review').textContent()).resolves.toBe('28.0 B3TR in review: what approval of 2 receipts will credit')
    await expect(balance(page)).resolves.toBe('Balance: 0.0 B3TR')
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360)

    const adminContext = await signedInContext(browser, baseUrl, { javaScriptEnabled, wallet: ADMIN_WALLET })
    const admin = await adminContext.newPage()
    for (const id of [second, first]) {
      await admin.goto(`${baseUrl}/admin/receipts`)
      const card = admin.locator('article', { has: admin.getByRole('heading', { name: `Receipt #${id}`, exact: true }) })
      await card.getByRole('button', { name: 'Approve' }).click()
      await admin.locator('.toast').getByText('Receipt approved').waitFor()
    }
    await adminContext.close()

    await page.goto(`${baseUrl}/home`)
    await expect(balance(page)).resolves.toBe('Balance: 28.0 B3TR')
    await expect(page.getByTestId('money-in-review').count()).resolves.toBe(0)
    await page.goto(`${baseUrl}/transactions`)
    await expect(page.getByTestId('tokens-balance').textContent()).resolves.toBe('28.0 B3TR')
    await rider.context.close()
  }, 90_000)
})

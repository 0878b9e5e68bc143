import { describe, expect, it } from 'vitest'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { submitReceipt } from '../app/receipts/receipts.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import { takeActionSlot } from '../app/rewards/daily-limit.server'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { action as scanAction, loader as scanLoader } from '../app/routes/scan/route'
import { getDb } from '../app/utils/db.server'
import { noiseImage, receiptImage, todayUtc, writtenDate } from './utils/images'
import { bodyOf, getRequest, jsonRequest, signInNewUser } from './utils/requests'

// Issue 10, "refuse early": the duplicate, age-window and daily-limit checks answer on the analysis
// step, and at the daily limit no analysis is run at all. The submission still re-checks everything.

const ctx = { context: {}, params: {} }
const TODAY = todayUtc()
let trips = 0
const tripTotal = () => 70 + (process.pid % 100) + ++trips / 100

const analysis = (over: Partial<StoredAnalysis>): StoredAnalysis => ({
  isValid: true,
  storeName: 'Lyft',
  category: 'ride_share',
  totalAmount: tripTotal(),
  purchaseDate: TODAY,
  referenceNumber: null,
  confidence: 0.97,
  isAcceptable: true,
  needsManualReview: false,
  reasons: [],
  ...over,
})

async function fillDailySlots(userId: number) {
  for (let i = 0; i < 3; i++) await takeActionSlot(getDb(), { userId, kind: 'store_submission' })
}

async function analysesOf(userId: number) {
  return getDb().selectFrom('receipt_analyses').select('id').where('user_id', '=', userId).execute()
}

async function scanPage(cookie: string, analysisId: number) {
  return bodyOf(await scanLoader({ ...ctx, request: getRequest(`/scan?analysis=${analysisId}`, cookie) }))
}

describe('refusing on the analysis step', () => {
  it('at the daily limit the API answers 429 and runs no analysis', async () => {
    const { user, cookie } = await signInNewUser()
    await fillDailySlots(user.id)
    const image = await noiseImage()
    const body = { image: `data:image/png;base64,${image.toString('base64')}` }
    const res = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', body, { headers: { Cookie: cookie } }) }).catch((r: Response) => r)
    expect(res.status).toBe(429)
    // The one intake's daily-limit refusal (issue 36), the same on every way in.
    expect(await bodyOf(res)).toEqual({ error: 'Daily action limit reached' })
    expect(await analysesOf(user.id)).toHaveLength(0)
  })

  it('at the daily limit the scan page refuses the photo (no JavaScript) and stores nothing', async () => {
    const { user, cookie } = await signInNewUser()
    await fillDailySlots(user.id)
    const form = new FormData()
    form.set('image', new Blob([new Uint8Array(await noiseImage())], { type: 'image/png' }), 'receipt.png')
    const request = new Request('http://localhost:3000/scan', { method: 'POST', body: form, headers: { Cookie: cookie } })
    const res = await scanAction({ ...ctx, request })
    expect(res.status).toBe(429)
    expect(await bodyOf(res)).toMatchObject({ step: 'camera', error: 'Daily action limit reached', advice: { title: 'Daily Action Limit Reached' } })
    expect(await analysesOf(user.id)).toHaveLength(0)
  })

  it('says "older than 14 days" with the real reader, before the form is filled in', async () => {
    const { user, cookie } = await signInNewUser()
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)
    const image = await receiptImage({ vendor: 'Uber', lines: [['Trip fare', '$12.40'], ['Booking fee', '$2.35']], total: '$14.75', date: writtenDate(old) })
    const body = { image: `data:image/png;base64,${image.toString('base64')}` }
    const res = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', body, { headers: { Cookie: cookie } }) })
    expect(res.status).toBe(200)
    const result = await bodyOf(res)
    expect(result).toMatchObject({ purchaseDate: old, isAcceptable: false, needsManualReview: false, refusal: { code: 'too_old' } })
    expect(result.reasons[0]).toBe('Receipts older than 14 days are not eligible.')
    const page = await scanPage(cookie, result.analysisId)
    expect(page.analysis.refusal).toMatchObject({ code: 'too_old', message: 'Receipts older than 14 days are not eligible.' })
  }, 30_000)

  it('says "already submitted" for the same trip from the same account, but not for another account', async () => {
    const a = await signInNewUser()
    const b = await signInNewUser()
    const trip = analysis({})
    const first = await analyzeAndStore(getDb(), { userId: a.user.id, image: await noiseImage(), analyze: async () => trip })
    expect(await scanPage(a.cookie, first.id)).toMatchObject({ analysis: { refusal: null } })
    const values = { category: 'ride_share', amountCents: Math.round(trip.totalAmount! * 100), purchaseDate: TODAY }
    expect(await submitReceipt(getDb(), { userId: a.user.id, analysisId: first.id, values, maxAgeDays: 14 })).toMatchObject({ ok: true })

    // Another photo of the same trip: refused on the analysis step for the same account…
    const again = await analyzeAndStore(getDb(), { userId: a.user.id, image: await noiseImage(), analyze: async () => trip })
    expect((await scanPage(a.cookie, again.id)).analysis.refusal).toMatchObject({ code: 'duplicate', title: 'Already submitted' })
    // …and the submission, which re-checks, still refuses it.
    expect(await submitReceipt(getDb(), { userId: a.user.id, analysisId: again.id, values, maxAgeDays: 14 })).toMatchObject({ ok: false, status: 409 })

    // Another account's copy is not refused here: it goes to review when submitted.
    const copy = await analyzeAndStore(getDb(), { userId: b.user.id, image: await noiseImage(), analyze: async () => trip })
    expect((await scanPage(b.cookie, copy.id)).analysis.refusal).toBeNull()
    expect(await submitReceipt(getDb(), { userId: b.user.id, analysisId: copy.id, values, maxAgeDays: 14 })).toMatchObject({ ok: true, status: 'pending_review' })
  })

  it('shows the daily limit on an analysis made before the limit was reached', async () => {
    const { user, cookie } = await signInNewUser()
    const stored = await analyzeAndStore(getDb(), { userId: user.id, image: await noiseImage(), analyze: async () => analysis({}) })
    await fillDailySlots(user.id)
    expect((await scanPage(cookie, stored.id)).analysis.refusal).toMatchObject({ code: 'daily_limit', title: 'Daily Action Limit Reached' })
  })
})

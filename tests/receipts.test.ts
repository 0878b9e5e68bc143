import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { approveReceipt, rejectReceipt } from '../app/receipts/review.server'
import { readReceipt } from '../app/receipts/intake.server'
import { submitReceipt } from '../app/receipts/receipts.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import { action as submitAction } from '../app/routes/api.receipts'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { loader as servicesLoader } from '../app/routes/api.transportation-services'
import { loader as receiptsLoader } from '../app/routes/api.users.$id.receipts'
import { getDb } from '../app/utils/db.server'
import { noiseImage, receiptImage, todayUtc, writtenDate } from './utils/images'
import { oddFileMessage } from '../app/analysis/file-kinds'
import { bodyOf, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'
import { asPassportPeople, asPerson } from './utils/standing'

const ctx = { context: {}, params: {} }
const NOW = new Date()
const TODAY = NOW.toISOString().slice(0, 10)

function daysAgo(n: number) {
  return new Date(NOW.getTime() - n * 86_400_000).toISOString().slice(0, 10)
}

let trips = 0
/** Each call is another trip (its own printed trip number) unless the test says otherwise. */
const uberAnalysis = (over: Partial<StoredAnalysis> = {}): StoredAnalysis => ({
  referenceNumber: `TRIP${process.pid}X${++trips}`,
  isValid: true,
  storeName: 'Uber',
  category: 'ride_share',
  totalAmount: 23.75,
  purchaseDate: TODAY,
  confidence: 0.97,
  isAcceptable: true,
  needsManualReview: false,
  reasons: [],
  ...over,
})

const fixed = (analysis: StoredAnalysis) => async () => analysis
const values = { category: 'ride_share', amountCents: 2375, purchaseDate: TODAY }

async function entries(userId: number) {
  return getDb().selectFrom('transactions').select(['type', 'amount_milli', 'description', 'idempotency_key']).where('user_id', '=', userId).orderBy('id').execute()
}

async function analyzed(userId: number, analysis = uberAnalysis()) {
  return analyzeAndStore(getDb(), { userId, image: await noiseImage(), analyze: fixed(analysis) })
}

describe('image checks (spec 1 §5 messages)', () => {
  it.each([
    ['an empty file', async () => Buffer.alloc(0), 'No image file provided'],
    ['a text file named .jpg', async () => Buffer.from('hello, this is not an image at all'), 'Invalid file type. Please upload an image'],
    ['an image 400 px wide', () => noiseImage(400, 800), 'Image resolution is too low. Please take a clearer photo'],
    ['a truncated JPEG', async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]), 'Failed to load image for validation'],
    ['a 6 MB image', async () => Buffer.concat([await sharp({ create: { width: 600, height: 600, channels: 3, background: '#fff' } }).png().toBuffer(), Buffer.alloc(6 * 1024 * 1024)]), 'Image file is too large. Maximum size is 5MB'],
  ])('refuses %s', async (_name, make, message) => {
    const { user } = await signInNewUser()
    await expect(analyzeAndStore(getDb(), { userId: user.id, image: await make(), analyze: fixed(uberAnalysis()) })).rejects.toThrow(message)
  })

  it('refuses a decompression bomb without decoding it', async () => {
    const { user } = await signInNewUser()
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer()
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024)
    await expect(analyzeAndStore(getDb(), { userId: user.id, image: bomb, analyze: fixed(uberAnalysis()) })).rejects.toThrow()
  })
})

describe('analysis timeout', () => {
  it("falls back to manual review with the spec's reason when analysis is too slow", async () => {
    const { user } = await signInNewUser()
    let aborted = false
    const slow = (_image: Buffer, { signal }: { signal: AbortSignal }) =>
      new Promise<StoredAnalysis>((resolve) => signal.addEventListener('abort', () => { aborted = true; resolve(uberAnalysis()) }))
    const stored = await analyzeAndStore(getDb(), { userId: user.id, image: await noiseImage(), analyze: slow, timeoutMs: 50 })
    expect(aborted).toBe(true)
    expect(stored.analysis).toMatchObject({
      isValid: false,
      needsManualReview: true,
      timeoutFallback: true,
      reasons: ["We couldn't automatically determine if this receipt qualifies. Please enter the details manually."],
    })
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values, maxAgeDays: 14, passport: asPerson })
    expect(result).toMatchObject({ ok: true, status: 'pending_review', reward: null })
    expect(await getBalanceMilli(getDb(), user.id)).toBe(0)
  })
})

describe('submitting a receipt', () => {
  it('credits a first rideshare receipt: 9 B3TR + 10 first-receipt bonus, plus the 30 % fund share', async () => {
    const { user } = await signInNewUser()
    const stored = await analyzed(user.id)
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values, maxAgeDays: 14, passport: asPerson })
    expect(result).toMatchObject({ ok: true, status: 'approved', firstReceiptBonusMilli: 10_000, streak: { increased: true, current: 1 } })
    // Decision 100: base 8 whatever the total; floor(8 × 1.0 streak × 1.2 transport) = floor(9.6) = 9, + 10 bonus.
    expect(result.ok && result.reward).toMatchObject({ baseReward: 8, streakMultiplier: 1, transportMultiplier: 1.2, total: 9 })
    expect(await getBalanceMilli(getDb(), user.id)).toBe(19_000)
    const ledger = await entries(user.id)
    expect(ledger.map((e) => [e.type, e.amount_milli])).toEqual([
      ['receipt_verification', 9000],
      ['sustainability_app', 2700],
      ['achievement_reward', 10000],
      ['sustainability_app', 3000],
    ])
    expect(ledger[0].description).toBe('Receipt verified: Uber (transport bonus ×1.2)')
    expect(ledger[2].description).toBe('Achievement Reward: first_receipt')
  })

  it('pays the first-receipt bonus only once', async () => {
    const { user } = await signInNewUser()
    await submitReceipt(getDb(), { userId: user.id, analysisId: (await analyzed(user.id)).id, values, maxAgeDays: 14, passport: asPerson })
    const second = await analyzed(user.id, uberAnalysis({ totalAmount: 12, storeName: 'Lyft' }))
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: second.id, values: { ...values, amountCents: 1200 }, maxAgeDays: 14, passport: asPerson })
    expect(result).toMatchObject({ ok: true, status: 'approved', firstReceiptBonusMilli: 0 })
    // A $12 ride earns what the first $23.75 one did (decision 100): floor(8 × 1.0 × 1.2) = 9, no bonus
    // (the streak is still 1: same UTC day).
    expect(await getBalanceMilli(getDb(), user.id)).toBe(19_000 + 9_000)
  })

  it("pays the referrer 15 B3TR once, on the friend's first accepted receipt", async () => {
    const { attachReferral } = await import('../app/referrals/referrals.server')
    const referrer = await signInNewUser()
    const friend = await signInNewUser()
    expect(await attachReferral(getDb(), { userId: friend.user.id, code: referrer.user.referralCode })).toMatchObject({ ok: true })
    await submitReceipt(getDb(), { userId: friend.user.id, analysisId: (await analyzed(friend.user.id)).id, values, maxAgeDays: 14, passport: asPerson })
    const second = await analyzed(friend.user.id, uberAnalysis({ totalAmount: 30, storeName: 'Lyft' }))
    await submitReceipt(getDb(), { userId: friend.user.id, analysisId: second.id, values: { ...values, amountCents: 3000 }, maxAgeDays: 14, passport: asPerson })
    expect(await getBalanceMilli(getDb(), referrer.user.id)).toBe(15_000)
    expect((await entries(referrer.user.id)).filter((e) => e.type === 'referral_reward')).toHaveLength(1)
  })

  it('refuses the same image twice (any user) with 409', async () => {
    const alice = await signInNewUser()
    const bob = await signInNewUser()
    const image = await noiseImage()
    const a = await analyzeAndStore(getDb(), { userId: alice.user.id, image, analyze: fixed(uberAnalysis()) })
    expect((await submitReceipt(getDb(), { userId: alice.user.id, analysisId: a.id, values, maxAgeDays: 14, passport: asPerson })).ok).toBe(true)
    // The intake refuses the same bytes unread (issue 36); an analysis stored before is refused on submission.
    await expect(readReceipt(getDb(), { userId: bob.user.id, limits: [] }, image, { analyze: fixed(uberAnalysis()) })).rejects.toMatchObject({ status: 409, message: 'This receipt has already been submitted.' })
    const b = await analyzeAndStore(getDb(), { userId: bob.user.id, image, analyze: fixed(uberAnalysis()) })
    expect(await submitReceipt(getDb(), { userId: bob.user.id, analysisId: b.id, values, maxAgeDays: 14, passport: asPerson })).toEqual({ ok: false, status: 409, error: 'This receipt has already been submitted.' })
  })

  it('sends a near-duplicate photo (same picture, re-encoded) to review', async () => {
    const alice = await signInNewUser()
    const bob = await signInNewUser()
    // A receipt-like picture (the fingerprint reads the text block; random noise is no receipt).
    const png = await receiptImage({ vendor: 'Uber', lines: [['Trip fare', `$${process.pid % 50}.40`], ['Booking fee', '$2.35']], total: '$23.75', date: 'June 2, 2026' })
    const jpeg = await sharp(png).jpeg({ quality: 70 }).toBuffer()
    const a = await analyzeAndStore(getDb(), { userId: alice.user.id, image: png, analyze: fixed(uberAnalysis()) })
    await submitReceipt(getDb(), { userId: alice.user.id, analysisId: a.id, values, maxAgeDays: 14, passport: asPerson })
    const b = await analyzeAndStore(getDb(), { userId: bob.user.id, image: jpeg, analyze: fixed(uberAnalysis()) })
    const result = await submitReceipt(getDb(), { userId: bob.user.id, analysisId: b.id, values, maxAgeDays: 14, passport: asPerson })
    expect(result).toMatchObject({ ok: true, status: 'pending_review' })
    expect(result.ok && result.reasons.join(' ')).toMatch(/already submitted/)
  })

  it('refuses the same trip (vendor, total, date) from the same account with 409, as a duplicate', async () => {
    const { user } = await signInNewUser()
    const trip = uberAnalysis({ referenceNumber: null, totalAmount: 31.17 })
    const first = await submitReceipt(getDb(), { userId: user.id, analysisId: (await analyzed(user.id, trip)).id, values: { ...values, amountCents: 3117 }, maxAgeDays: 14, passport: asPerson })
    expect(first).toMatchObject({ ok: true, status: 'approved' })
    const again = await submitReceipt(getDb(), { userId: user.id, analysisId: (await analyzed(user.id, trip)).id, values: { ...values, amountCents: 3117 }, maxAgeDays: 14, passport: asPerson })
    expect(again).toEqual({ ok: false, status: 409, error: 'This receipt has already been submitted.' })
    expect(await getDb().selectFrom('action_slots').selectAll().where('user_id', '=', user.id).execute()).toHaveLength(1)
  })

  it.each([
    ['a receipt dated 15 days ago', uberAnalysis({ purchaseDate: daysAgo(15) }), daysAgo(15), /older than 14 days/],
    ['a receipt dated in 3 days', uberAnalysis({ purchaseDate: daysAgo(-3) }), daysAgo(-3), /future/],
    ['a fuel receipt', uberAnalysis({ storeName: 'Shell', category: null, isAcceptable: false, reasons: ['Fuel purchases are not eligible'] }), TODAY, /Fuel/],
  ])('answers 400 with a reason for %s, and records nothing', async (_name, analysis, date, reason) => {
    const { user } = await signInNewUser()
    const stored = await analyzed(user.id, analysis)
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values: { ...values, purchaseDate: date }, maxAgeDays: 14, passport: asPerson })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.status).toBe(400)
    expect(!result.ok && result.error).toMatch(reason)
    expect(await entries(user.id)).toEqual([])
    expect(await getDb().selectFrom('action_slots').selectAll().where('user_id', '=', user.id).execute()).toEqual([])
  })

  it('accepts a receipt exactly 14 days old', async () => {
    const { user } = await signInNewUser()
    const stored = await analyzed(user.id, uberAnalysis({ purchaseDate: daysAgo(14) }))
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values: { ...values, purchaseDate: daysAgo(14) }, maxAgeDays: 14, passport: asPerson })
    expect(result).toMatchObject({ ok: true, status: 'approved' })
  })

  it('sends an edited total to review instead of paying the edited value; the admin approves once', async () => {
    const { user } = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    const stored = await analyzed(user.id)
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values: { ...values, amountCents: 9999 }, maxAgeDays: 14, passport: asPerson })
    expect(result).toMatchObject({ ok: true, status: 'pending_review', reward: null })
    expect(await getBalanceMilli(getDb(), user.id)).toBe(0)
    const receiptId = result.ok ? result.receiptId : 0

    const approvals = await Promise.all(Array.from({ length: 10 }, () => approveReceipt(getDb(), { adminUserId: admin.user.id, receiptId })))
    expect(approvals.filter((r) => r.ok)).toHaveLength(1)
    // The reviewer approved the user's values: $99.99 rideshare → base 8 × 1.2 = 9, + first bonus 10.
    expect(await getBalanceMilli(getDb(), user.id)).toBe(19_000)
    expect(await rejectReceipt(getDb(), { adminUserId: admin.user.id, receiptId, reason: 'late' })).toMatchObject({ ok: false, status: 409 })
    const audit = await getDb().selectFrom('audit_log').selectAll().where('target_id', '=', receiptId).where('target_type', '=', 'receipt').execute()
    expect(audit.map((a) => a.action)).toEqual(['receipt.approve'])
  })

  it('rejects a reviewed receipt with a reason the user sees, paying nothing', async () => {
    const { user } = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    const stored = await analyzed(user.id, uberAnalysis({ needsManualReview: true, isAcceptable: false, reasons: ['Blurry'] }))
    const result = await submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values, maxAgeDays: 14, passport: asPerson })
    const receiptId = result.ok ? result.receiptId : 0
    expect(await rejectReceipt(getDb(), { adminUserId: admin.user.id, receiptId, reason: 'The total is not readable' })).toEqual({ ok: true })
    expect(await getBalanceMilli(getDb(), user.id)).toBe(0)
    const list = await bodyOf(await receiptsLoader({ ...ctx, params: { id: String(user.id) }, request: getRequest('/x', (await signInNewUser(undefined)).cookie) }).catch((r) => r))
    expect(list.error).toBe('Forbidden')
  })

  it('accepts 3 of 10 concurrent submissions by one user on one day (daily limit)', async () => {
    const { user } = await signInNewUser()
    const stored = await Promise.all(Array.from({ length: 10 }, (_, i) => analyzed(user.id, uberAnalysis({ totalAmount: 10 + i }))))
    const results = await Promise.all(
      stored.map((s, i) => submitReceipt(getDb(), { userId: user.id, analysisId: s.id, values: { ...values, amountCents: 1000 + i * 100 }, maxAgeDays: 14, passport: asPerson })),
    )
    expect(results.filter((r) => r.ok)).toHaveLength(3)
    expect(results.filter((r) => !r.ok && r.status === 429)).toHaveLength(7)
    expect(results.find((r) => !r.ok)).toMatchObject({ error: 'Daily action limit reached' })
    const receipts = await getDb().selectFrom('receipts').select('id').where('user_id', '=', user.id).execute()
    expect(receipts).toHaveLength(3)
  })

  it('credits one submission of the same analysis sent 10 times at once', async () => {
    const { user } = await signInNewUser()
    const stored = await analyzed(user.id)
    const results = await Promise.all(Array.from({ length: 10 }, () => submitReceipt(getDb(), { userId: user.id, analysisId: stored.id, values, maxAgeDays: 14, passport: asPerson })))
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    // floor(8 × 1.2) = 9, + 10 first-receipt bonus.
    expect(await getBalanceMilli(getDb(), user.id)).toBe(19_000)
  })

  it('grows the streak on consecutive UTC days and restarts after a gap', async () => {
    const { user } = await signInNewUser()
    const day = (n: number) => new Date(NOW.getTime() + n * 86_400_000)
    const submitOn = async (n: number) => {
      const date = day(n).toISOString().slice(0, 10)
      const s = await analyzed(user.id, uberAnalysis({ purchaseDate: date, totalAmount: 20 + n }))
      const r = await submitReceipt(getDb(), { userId: user.id, analysisId: s.id, values: { ...values, purchaseDate: date, amountCents: 2000 + n * 100 }, maxAgeDays: 14, now: day(n), passport: asPerson })
      return r.ok ? r.streak.current : -1
    }
    expect(await submitOn(0)).toBe(1)
    expect(await submitOn(1)).toBe(2)
    expect(await submitOn(2)).toBe(3)
    expect(await submitOn(4)).toBe(1)
  })
})

describe('receipt API routes', () => {
  it('validates a photographed Uber receipt with the real OCR pipeline and pays it once', async () => {
    const { user, cookie } = await signInNewUser()
    // An established wallet (issue 31): VeBetter Passport counts it as a person.
    await asPassportPeople([user.walletAddress], async () => {
      const image = await receiptImage({ vendor: 'Uber', lines: [['Trip fare', '$18.40'], ['Booking fee', '$2.35'], ['Tip', '$3.20']], total: '$23.95', date: writtenDate(todayUtc()) })
      const dataUrl = `data:image/png;base64,${image.toString('base64')}`
      const validate = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', { image: dataUrl, imageName: 'uber.png', userId: user.id }, { headers: { Cookie: cookie } }) })
      expect(validate.status).toBe(200)
      const analysis = await bodyOf(validate)
      expect(analysis).toMatchObject({ storeName: 'Uber', category: 'ride_share', totalAmount: 23.95, purchaseDate: todayUtc(), isAcceptable: true, needsManualReview: false })

      // The client's hints (aiAnalysis, tokenReward) change nothing.
      const payload = { storeId: '1', category: 'ride_share', amount: 23.95, purchaseDate: todayUtc(), userId: user.id, image: dataUrl, aiAnalysis: { isAcceptable: true }, tokenReward: 500 }
      const submit = await submitAction({ ...ctx, request: jsonRequest('/api/receipts', payload, { headers: { Cookie: cookie } }) })
      expect(submit.status).toBe(201)
      // Base 8 (decision 100), floor(8 × 1.2 transport) = 9, + 10 first-receipt bonus = 19.
      expect(await bodyOf(submit)).toMatchObject({ tokenReward: 9, needsManualReview: false, rewardDetails: { baseReward: 8, streakMultiplier: 1, firstReceiptBonus: 10 }, streakInfo: { streakIncreased: true, currentStreak: 1 } })
      const again = await submitAction({ ...ctx, request: jsonRequest('/api/receipts', payload, { headers: { Cookie: cookie } }) })
      expect(again.status).toBe(409)
      expect(await getBalanceMilli(getDb(), user.id)).toBe(19_000)

      const list = await receiptsLoader({ ...ctx, params: { id: String(user.id) }, request: getRequest('/x', cookie) })
      expect(await bodyOf(list)).toMatchObject([{ storeName: 'Uber', amount: 23.95, purchaseDate: todayUtc(), status: 'approved' }])
    })
  })

  it('accepts 3 of 10 concurrent POST /api/receipts by one user (429 for the rest)', async () => {
    const { user, cookie } = await signInNewUser()
    const stored = await Promise.all(Array.from({ length: 10 }, (_, i) => analyzed(user.id, uberAnalysis({ totalAmount: 40 + i }))))
    const responses = await Promise.all(
      stored.map((s, i) =>
        submitAction({
          ...ctx,
          request: jsonRequest('/api/receipts', { analysisId: s.id, storeId: '1', category: 'ride_share', amount: 40 + i, purchaseDate: TODAY }, { headers: { Cookie: cookie } }),
        }),
      ),
    )
    expect(responses.filter((r) => r.status === 201)).toHaveLength(3)
    const refused = responses.filter((r) => r.status === 429)
    expect(refused).toHaveLength(7)
    expect(await bodyOf(refused[0])).toEqual({ error: 'Daily action limit reached' })
  })

  it.each([
    ['an edited amount goes to review', { amount: 99 }, 201, { needsManualReview: true, tokenReward: 0 }],
    ['a date outside the window is refused with the reason', { purchaseDate: daysAgo(20), analysis: { purchaseDate: daysAgo(20) } }, 400, { error: expect.stringMatching(/older than 14 days/) }],
  ])('POST /api/receipts: %s', async (_name, change, status, body) => {
    const { user, cookie } = await signInNewUser()
    const { analysis: analysisChange, ...fieldChange } = change as { analysis?: Partial<StoredAnalysis> } & Record<string, unknown>
    const s = await analyzed(user.id, uberAnalysis(analysisChange ?? {}))
    const res = await submitAction({
      ...ctx,
      request: jsonRequest('/api/receipts', { analysisId: s.id, storeId: '1', category: 'ride_share', amount: 23.75, purchaseDate: TODAY, ...fieldChange }, { headers: { Cookie: cookie } }),
    })
    expect(res.status).toBe(status)
    expect(await bodyOf(res)).toMatchObject(body)
  })

  it('answers 401 without a session and 403 for another userId', async () => {
    const { cookie } = await signInNewUser()
    const anon = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', { image: 'data:,' }) }).catch((r) => r)
    expect(anon.status).toBe(401)
    const other = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', { image: `data:image/png;base64,${(await noiseImage()).toString('base64')}`, userId: 999999 }, { headers: { Cookie: cookie } }) }).catch((r) => r)
    expect(other.status).toBe(403)
  })

  it.each([
    ['no image', {}, 'No image file provided'],
    // Issue 39: the spec's sentence, then what the file is and what is accepted.
    ['a text data URL', { image: `data:text/plain;base64,${Buffer.from('just text').toString('base64')}` }, oddFileMessage('text')],
  ])('answers 400 for %s with the spec message', async (_n, body, message) => {
    const { cookie } = await signInNewUser()
    const res = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', body, { headers: { Cookie: cookie } }) })
    expect(res.status).toBe(400)
    expect(await bodyOf(res)).toEqual({ error: message })
  })

  it('accepts multipart uploads (the JavaScript-off flow)', async () => {
    const { cookie } = await signInNewUser()
    const form = new FormData()
    form.set('image', new Blob([new Uint8Array(Buffer.from('not an image'))], { type: 'image/jpeg' }), 'x.jpg')
    const res = await validateAction({ ...ctx, request: new Request('http://localhost:3000/api/receipts/validate', { method: 'POST', body: form, headers: { Cookie: cookie } }) })
    expect(res.status).toBe(400)
    expect(await bodyOf(res)).toEqual({ error: oddFileMessage('text') })
  })

  it('validates the form fields with the spec messages', async () => {
    const { cookie } = await signInNewUser()
    const res = await submitAction({ ...ctx, request: jsonRequest('/api/receipts', { storeId: '', category: '', amount: 'abc', purchaseDate: '' }, { headers: { Cookie: cookie } }) })
    expect(res.status).toBe(400)
    expect((await bodyOf(res)).fieldErrors).toEqual({
      storeId: ['Please select a store'],
      category: ['Please select a purchase category'],
      amount: ['Amount must be greater than 0'],
      purchaseDate: ['Please select a date'],
    })
  })

  it('lists the seeded transportation services', async () => {
    const body = await bodyOf(await servicesLoader())
    expect(body.length).toBeGreaterThan(10)
    expect(body[0]).toEqual({ id: expect.any(Number), name: 'Uber', category: 'ride_share' })
  })
})

describe('admin review queue', () => {
  it('names the reader that decided and shows both texts when two readers read the photo (issue 13)', async () => {
    const { loader: queueLoader } = await import('../app/routes/admin.receipts/route')
    const user = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    const twoReaders = await analyzed(
      user.user.id,
      uberAnalysis({
        needsManualReview: true,
        isAcceptable: false,
        reasons: ['The two readings of this photo disagree on the total: staff will check it'],
        ocrText: 'Uber\nTotal $23.75',
        reader: 'paddleocr',
        otherReading: { reader: 'tesseract', ocrText: 'Uber\nTota1 $28.75' },
      }),
    )
    const first = await submitReceipt(getDb(), { userId: user.user.id, analysisId: twoReaders.id, values, maxAgeDays: 14, passport: asPerson })
    const older = await analyzed(user.user.id, uberAnalysis({ needsManualReview: true, isAcceptable: false, ocrText: 'Uber', totalAmount: 11 }))
    const second = await submitReceipt(getDb(), { userId: user.user.id, analysisId: older.id, values: { ...values, amountCents: 1100 }, maxAgeDays: 14, passport: asPerson })
    const queue = (await bodyOf(await queueLoader({ ...ctx, request: getRequest('/admin/receipts', admin.cookie) }))).queue as Array<{
      id: number
      reader: string
      ocrText: string
      otherReading: { reader: string; ocrText: string } | null
    }>
    const both = queue.find((r) => first.ok && r.id === first.receiptId)
    expect(both).toMatchObject({ reader: 'PaddleOCR', ocrText: 'Uber\nTotal $23.75', otherReading: { reader: 'Tesseract', ocrText: 'Uber\nTota1 $28.75' } })
    // An analysis stored before the second reader existed was read by tesseract alone.
    expect(queue.find((r) => second.ok && r.id === second.receiptId)).toMatchObject({ reader: 'Tesseract', otherReading: null })
  })

  it('is for admins only, and approves through the form once', async () => {
    const { loader: queueLoader, action: queueAction } = await import('../app/routes/admin.receipts/route')
    const user = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    const notAdmin = await queueLoader({ ...ctx, request: getRequest('/admin/receipts', user.cookie) }).catch((r) => r)
    expect(notAdmin.status).toBe(403)
    const anon = await queueLoader({ ...ctx, request: getRequest('/admin/receipts') }).catch((r) => r)
    expect(anon.status).toBe(302)

    const stored = await analyzed(user.user.id, uberAnalysis({ needsManualReview: true, isAcceptable: false, reasons: ['Low confidence'] }))
    const submitted = await submitReceipt(getDb(), { userId: user.user.id, analysisId: stored.id, values, maxAgeDays: 14, passport: asPerson })
    const receiptId = submitted.ok ? submitted.receiptId : 0
    const queue = await bodyOf(await queueLoader({ ...ctx, request: getRequest('/admin/receipts', admin.cookie) }))
    expect(queue.queue.map((r: { id: number }) => r.id)).toContain(receiptId)

    const post = (fields: Record<string, string>, cookie: string) =>
      queueAction({ ...ctx, request: new Request('http://localhost:3000/admin/receipts', { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) }) }).catch((r) => r)
    expect((await post({ intent: 'approve', receiptId: String(receiptId) }, user.cookie)).status).toBe(403)
    expect((await post({ intent: 'reject', receiptId: String(receiptId), reason: '' }, admin.cookie)).status).toBe(400)
    expect((await post({ intent: 'approve', receiptId: String(receiptId) }, admin.cookie)).status).toBe(302)
    expect((await post({ intent: 'approve', receiptId: String(receiptId) }, admin.cookie)).status).toBe(409)
    // Approved at streak 0 (nothing accepted before): floor(8 × 1.2) = 9, + 10 first-receipt bonus.
    expect(await getBalanceMilli(getDb(), user.user.id)).toBe(19_000)
  })
})

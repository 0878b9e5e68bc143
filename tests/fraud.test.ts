import fs from 'node:fs'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { attachReferral } from '../app/referrals/referrals.server'
import { photoAnalyzer } from '../app/analysis/readers.server'
import { readReceipt } from '../app/receipts/intake.server'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { submitReceipt } from '../app/receipts/receipts.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { loader as reviewLoader } from '../app/routes/admin.receipts/route'
import { getDb } from '../app/utils/db.server'
import { noiseImage, receiptImage } from './utils/images'
import { bodyOf, getRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'
import { asPerson } from './utils/standing'

// Issue 10: one receipt pays once across all wallets.

const NOW = new Date()
const TODAY = NOW.toISOString().slice(0, 10)
let amounts = 0
/** A fresh trip: its own total (cents) so receipts of other tests never match it. */
const tripTotal = () => 50 + (process.pid % 100) + ++amounts / 100

const analysis = (over: Partial<StoredAnalysis>): StoredAnalysis => ({
  isValid: true,
  storeName: 'Lyft',
  category: 'ride_share',
  totalAmount: 10,
  purchaseDate: TODAY,
  referenceNumber: null,
  confidence: 0.97,
  isAcceptable: true,
  needsManualReview: false,
  reasons: [],
  ...over,
})

async function submit(userId: number, a: StoredAnalysis, opts: { image?: Buffer; now?: Date; cap?: number } = {}) {
  const stored = await analyzeAndStore(getDb(), { userId, image: opts.image ?? (await noiseImage()), analyze: async () => a })
  const cents = Math.round((a.totalAmount ?? 0) * 100)
  return submitReceipt(getDb(), {
    userId,
    analysisId: stored.id,
    values: { category: a.category ?? 'ride_share', amountCents: cents, purchaseDate: a.purchaseDate ?? TODAY },
    maxAgeDays: 14,
    inviteeAutoApprovalsPerDay: opts.cap,
    now: opts.now,
    passport: asPerson,
  })
}

describe('the same receipt from several wallets', () => {
  it('reproduction: a Tesla receipt rotated by 1° from two invited wallets is never paid again, and the referrer gets nothing', async () => {
    const original = fs.readFileSync('tests/fixtures/receipts/dev-012-tesla.png')
    const rotated = await sharp(original).rotate(1, { background: '#ffffff' }).png().toBuffer()
    const rotatedJpeg = await sharp(original).rotate(1, { background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer()
    const referrer = await signInNewUser()
    const a = await signInNewUser()
    const b = await signInNewUser()
    const c = await signInNewUser()
    for (const friend of [b, c]) expect(await attachReferral(getDb(), { userId: friend.user.id, code: referrer.user.referralCode })).toMatchObject({ ok: true })

    const first = await analyzeAndStore(getDb(), { userId: a.user.id, image: original, analyze: photoAnalyzer })
    expect(first.analysis).toMatchObject({ storeName: 'Tesla', isAcceptable: true })
    // Inside the receipt's age window whatever day the test runs.
    const now = new Date(`${first.analysis.purchaseDate}T18:00:00Z`)
    const values = { category: 'electric_vehicle', amountCents: Math.round(first.analysis.totalAmount! * 100), purchaseDate: first.analysis.purchaseDate! }
    const paid = await submitReceipt(getDb(), { userId: a.user.id, analysisId: first.id, values, maxAgeDays: 14, now, passport: asPerson })
    expect(paid).toMatchObject({ ok: true, status: 'approved' })

    for (const [copier, image] of [[b, rotated], [c, rotatedJpeg]] as const) {
      // A different file: the intake's byte-hash check lets it through (readReceipt would refuse the same bytes).
      const stored = await readReceipt(getDb(), { userId: copier.user.id, limits: [] }, image, { analyze: photoAnalyzer })
      const result = await submitReceipt(getDb(), { userId: copier.user.id, analysisId: stored.id, values, maxAgeDays: 14, now, passport: asPerson })
      expect(result).toMatchObject({ ok: true, status: 'pending_review', reward: null })
      expect(result.ok && result.reasons).toContain('This receipt was already submitted from another account.')
      expect(await getBalanceMilli(getDb(), copier.user.id)).toBe(0)
    }
    expect(await getBalanceMilli(getDb(), referrer.user.id)).toBe(0)
  }, 60_000)

  it('sends the same trip from another account to review with the signals on the entry; the same account gets 409', async () => {
    const total = tripTotal()
    const owner = await signInNewUser()
    const other = await signInNewUser()
    const admin = await signInNewUser(ADMIN_WALLET)
    expect(await submit(owner.user.id, analysis({ totalAmount: total }))).toMatchObject({ ok: true, status: 'approved' })
    const copy = await submit(other.user.id, analysis({ totalAmount: total }))
    expect(copy).toMatchObject({ ok: true, status: 'pending_review' })
    const again = await submit(owner.user.id, analysis({ totalAmount: total }))
    expect(again).toEqual({ ok: false, status: 409, error: 'This receipt has already been submitted.' })

    const queue = (await bodyOf(await reviewLoader({ context: {}, params: {}, request: getRequest('/admin/receipts', admin.cookie) }))).queue
    const entry = queue.find((q: { id: number }) => copy.ok && q.id === copy.receiptId)
    expect(entry.signals.join('\n')).toMatch(/already submitted from another account \(receipt #\d+\)/)
    expect(entry.signals.join('\n')).toMatch(/New wallet: signed up today/)
  })

  it('matches the printed trip number even when the total was read differently', async () => {
    const owner = await signInNewUser()
    const other = await signInNewUser()
    const ref = `T${process.pid}${Date.now()}`
    expect(await submit(owner.user.id, analysis({ totalAmount: tripTotal(), referenceNumber: ref }))).toMatchObject({ ok: true, status: 'approved' })
    expect(await submit(other.user.id, analysis({ totalAmount: tripTotal(), referenceNumber: ref }))).toMatchObject({ ok: true, status: 'pending_review' })
  })

  it('pays two trips with the same vendor, fare and day when their printed numbers differ (a return ticket)', async () => {
    const rider = await signInNewUser()
    const total = tripTotal()
    expect(await submit(rider.user.id, analysis({ storeName: 'BART', category: 'public_transit', totalAmount: total, referenceNumber: `OUT${process.pid}${amounts}` }))).toMatchObject({ ok: true, status: 'approved' })
    expect(await submit(rider.user.id, analysis({ storeName: 'BART', category: 'public_transit', totalAmount: total, referenceNumber: `BACK${process.pid}${amounts}` }))).toMatchObject({ ok: true, status: 'approved' })
  })

  it('a rejected receipt does not block the trip', async () => {
    const { rejectReceipt } = await import('../app/receipts/review.server')
    const admin = await signInNewUser(ADMIN_WALLET)
    const first = await signInNewUser()
    const total = tripTotal()
    const edited = await submitReceipt(getDb(), {
      userId: first.user.id,
      analysisId: (await analyzeAndStore(getDb(), { userId: first.user.id, image: await noiseImage(), analyze: async () => analysis({ totalAmount: total }) })).id,
      values: { category: 'ride_share', amountCents: 1, purchaseDate: TODAY },
      maxAgeDays: 14,
      passport: asPerson,
    })
    expect(edited).toMatchObject({ ok: true, status: 'pending_review' })
    expect(edited.ok && (await rejectReceipt(getDb(), { adminUserId: admin.user.id, receiptId: edited.receiptId, reason: 'wrong amount' }))).toMatchObject({ ok: true })
    const second = await signInNewUser()
    expect(await submit(second.user.id, analysis({ totalAmount: total }))).toMatchObject({ ok: true, status: 'approved' })
  })

  it('approves exactly one of five wallets submitting the same trip at once', async () => {
    const total = tripTotal()
    const users = await Promise.all(Array.from({ length: 5 }, () => signInNewUser()))
    const stored = await Promise.all(users.map(async (u) => analyzeAndStore(getDb(), { userId: u.user.id, image: await noiseImage(), analyze: async () => analysis({ totalAmount: total }) })))
    const results = await Promise.all(
      users.map((u, i) =>
        submitReceipt(getDb(), { userId: u.user.id, analysisId: stored[i]!.id, values: { category: 'ride_share', amountCents: Math.round(total * 100), purchaseDate: TODAY }, maxAgeDays: 14, passport: asPerson }),
      ),
    )
    expect(results.filter((r) => r.ok && r.status === 'approved')).toHaveLength(1)
    expect(results.filter((r) => r.ok && r.status === 'pending_review')).toHaveLength(4)
  })
})

describe("a referrer's invitees", () => {
  it('are approved automatically up to the daily cap, then go to review with the reason and the signals', async () => {
    const referrer = await signInNewUser()
    const invitees = [await signInNewUser(), await signInNewUser(), await signInNewUser()]
    for (const i of invitees) await attachReferral(getDb(), { userId: i.user.id, code: referrer.user.referralCode })
    const results = []
    for (const i of invitees) results.push(await submit(i.user.id, analysis({ totalAmount: tripTotal() }), { cap: 2 }))
    expect(results.map((r) => r.ok && r.status)).toEqual(['approved', 'approved', 'pending_review'])
    expect(results[2]!.ok && results[2]!.reasons).toContain('Many receipts came today from accounts invited by the same person.')
    const row = await getDb().selectFrom('receipts').select('review_signals_json').where('id', '=', results[2]!.ok ? results[2]!.receiptId : 0).executeTakeFirstOrThrow()
    expect(JSON.parse(row.review_signals_json!)).toMatchObject({ referredByUserId: referrer.user.id, referredBySameCodeToday: 3, inviteeAutoApprovalsToday: 2, walletAgeDays: 0 })
  })

  it('does not limit accounts nobody invited', async () => {
    const results = []
    for (let n = 0; n < 3; n++) {
      const u = await signInNewUser()
      results.push(await submit(u.user.id, analysis({ totalAmount: tripTotal() }), { cap: 0 }))
    }
    expect(results.map((r) => r.ok && r.status)).toEqual(['approved', 'approved', 'approved'])
  })
})

describe('photo fingerprints', () => {
  it('sends a rotated, scaled, cropped or re-encoded copy read differently to review, naming the original', async () => {
    const original = fs.readFileSync('tests/fixtures/receipts/dev-003-lyft.jpg')
    const meta = await sharp(original).metadata()
    const copies = [
      await sharp(original).rotate(1.5, { background: '#808080' }).jpeg({ quality: 80 }).toBuffer(),
      await sharp(original).resize(Math.round(meta.width! * 0.85)).png().toBuffer(),
      await sharp(original).extract({ left: 10, top: 10, width: meta.width! - 20, height: meta.height! - 20 }).jpeg({ quality: 70 }).toBuffer(),
    ]
    const total = tripTotal()
    const owner = await signInNewUser()
    const first = await submit(owner.user.id, analysis({ totalAmount: total }), { image: original })
    expect(first).toMatchObject({ ok: true, status: 'approved' })
    for (const copy of copies) {
      const copier = await signInNewUser()
      // Read with another date, so the trip's content does not match: only the photo does.
      const result = await submit(copier.user.id, analysis({ totalAmount: total, purchaseDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) }), { image: copy })
      expect(result).toMatchObject({ ok: true, status: 'pending_review', reward: null })
      expect(result.ok && result.reasons).toContain('This photo looks like a receipt that was already submitted.')
      const row = await getDb().selectFrom('receipts').select('review_signals_json').where('id', '=', result.ok ? result.receiptId : 0).executeTakeFirstOrThrow()
      expect(JSON.parse(row.review_signals_json!)).toMatchObject({ nearDuplicateOf: first.ok ? first.receiptId : -1 })
    }
  }, 60_000)

  it('does not mistake another receipt of the same vendor for a copy', async () => {
    const total = tripTotal()
    const a = await signInNewUser()
    const b = await signInNewUser()
    // One vendor's template, another trip: different lines, total and date on the paper.
    const imageA = await receiptImage({ vendor: 'Lyft', lines: [['Ride fare', '$9.10'], ['Service fee', '$1.95']], total: '$11.05', date: 'June 3, 2026' })
    const imageB = await receiptImage({ vendor: 'Lyft', lines: [['Ride fare', '$17.80'], ['Airport fee', '$4.00'], ['Tip', '$2.00']], total: '$23.80', date: 'June 9, 2026' })
    expect(await submit(a.user.id, analysis({ totalAmount: total }), { image: imageA })).toMatchObject({ ok: true, status: 'approved' })
    const other = await submit(b.user.id, analysis({ totalAmount: total, purchaseDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) }), { image: imageB })
    expect(other).toMatchObject({ ok: true, status: 'approved' })
  }, 60_000)
})

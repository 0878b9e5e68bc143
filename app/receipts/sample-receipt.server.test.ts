import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { createOcrPool } from '~/ocr/tesseract.server'
import { renderSampleReceipt, sampleReceipt } from '~/receipts/sample-receipt.server'
import { loader } from '~/routes/scan_.sample-receipt'
import { resetEnvCache } from '~/utils/env.server'
import { BASE_URL, getRequest, signInNewUser } from '../../tests/utils/requests'

/** Small seeded generator (mulberry32), so each case draws the same receipt every run. */
function seeded(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const NOW = new Date('2026-03-09T08:30:00Z')

describe('sampleReceipt', () => {
  test('dated today (UTC), items adding up to the total, a trip number, a file name', () => {
    const r = sampleReceipt(NOW, seeded(1))
    expect(r.date).toBe('2026-03-09')
    expect(r.lines.reduce((sum, [, c]) => sum + c, 0)).toBe(r.totalCents)
    expect(r.reference).toMatch(/^(Trip|Ride) ID: \d{4}-\d{4}-\d{4}$/)
    expect(r.filename).toMatch(/^sample-receipt-[a-z]+-2026-03-09-\d{4}\.png$/)
  })

  test('two draws differ (total or number), so they are two receipts', () => {
    const a = sampleReceipt(NOW)
    const b = sampleReceipt(NOW)
    expect(a.reference === b.reference && a.totalCents === b.totalCents).toBe(false)
  })
})

// The real pipeline (sharp + tesseract + extraction + verdict) on the rendered picture.
describe('a rendered sample receipt through the real analysis', () => {
  const pool = createOcrPool({ size: 1 })
  afterAll(() => pool.terminate())
  const today = new Date()
  // Seeds chosen so that every template is drawn (Uber, Lyft, Waymo, Lime).
  const receipts = [1, 4, 7, 8, 12, 14, 18, 20].map((seed) => sampleReceipt(today, seeded(seed)))

  test('the seeds cover every vendor', () => {
    expect(new Set(receipts.map((r) => r.vendor))).toEqual(new Set(['Uber', 'Lyft', 'Waymo', 'Lime']))
  })

  test.each(receipts.map((r) => ({ title: `${r.vendor} $${(r.totalCents / 100).toFixed(2)}`, receipt: r })))('$title', async ({ receipt }) => {
    const a = await analyzeReceipt(await renderSampleReceipt(receipt), { ocr: pool.recognize })
    expect(a).toMatchObject({
      storeName: receipt.vendor,
      totalAmount: receipt.totalCents / 100,
      purchaseDate: today.toISOString().slice(0, 10),
      isAcceptable: true,
      needsManualReview: false,
    })
    expect(a.referenceNumber).toBe(receipt.reference.replace(/^\w+ ID: /, '').replace(/-/g, ''))
  }, 60_000)
})

describe('GET /scan/sample-receipt', () => {
  const saved = { APP_ENV: process.env.APP_ENV, ALLOW_TEST_WALLET: process.env.ALLOW_TEST_WALLET }
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
    resetEnvCache()
  })
  const setEnv = (vars: Record<string, string>) => {
    Object.assign(process.env, vars)
    resetEnvCache()
  }
  const call = (request: Request) => loader({ request, params: {}, context: {} })

  test('outside production: a PNG download for a signed-in user', async () => {
    setEnv({ APP_ENV: '', ALLOW_TEST_WALLET: '' })
    const { cookie } = await signInNewUser()
    const res = await call(getRequest('/scan/sample-receipt', cookie))
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('image/png')
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="sample-receipt-[a-z]+-\d{4}-\d{2}-\d{2}-\d{4}\.png"$/)
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.subarray(1, 4).toString()).toBe('PNG')
  })

  test('signed out: sent to connect a wallet', async () => {
    setEnv({ APP_ENV: '', ALLOW_TEST_WALLET: '' })
    const res = await call(new Request(`${BASE_URL}/scan/sample-receipt`)).catch((r: Response) => r)
    expect(res.status).toBe(302)
  })

  test('in production: 404, unless ALLOW_TEST_WALLET=1', async () => {
    setEnv({ APP_ENV: 'production', ALLOW_TEST_WALLET: '' })
    const { cookie } = await signInNewUser()
    const refused = await call(getRequest('/scan/sample-receipt', cookie)).catch((r: Response) => r)
    expect(refused.status).toBe(404)
    setEnv({ APP_ENV: 'production', ALLOW_TEST_WALLET: '1' })
    const allowed = await call(getRequest('/scan/sample-receipt', cookie))
    expect(allowed.status).toBe(200)
  })
})

import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { ReceiptImageError } from '~/ocr/photo.server'
import { createOcrPool, type OcrFn } from '~/ocr/tesseract.server'

const fixture = (name: string) => fs.readFileSync(path.resolve('tests/fixtures/receipts', name))

const fakeOcr =
  (text: string, confidence = 93): OcrFn =>
  async () => ({
    text,
    confidence,
    lines: text.split('\n').map((t) => ({ text: t, confidence })),
  })

describe('analyzeReceipt with an injected OCR function', () => {
  test('returns the spec shape', async () => {
    const text = 'Lime\nYour Lime ride receipt\n09/01/2026\nUnlock $1.00\nRiding (23 min) $8.97\nTotal $9.97\nVisa ****1866'
    const a = await analyzeReceipt(fixture('dev-015-bird.jpg'), { ocr: fakeOcr(text) })
    expect(a).toMatchObject({
      isValid: true,
      storeName: 'Lime',
      isThriftStore: false,
      isSustainableStore: true,
      sustainableCategory: 'scooter_bike',
      purchaseCategory: 'scooter_bike',
      category: 'scooter_bike',
      purchaseDate: '2026-09-01',
      totalAmount: 9.97,
      confidence: 1,
      reasons: [],
      isAcceptable: true,
      estimatedReward: null,
      testMode: false,
      timeoutFallback: false,
      containsPreOwnedItems: false,
      preOwnedKeywordsFound: [],
      needsManualReview: false,
      paymentMethod: { method: 'Visa', cardLastFour: '1866', isDigital: false },
      ocrText: text,
    })
    expect(a.sustainabilityReasons[0]).toBe('Lime is an e-scooter / bike service')
    expect(a.timings.totalMs).toBeGreaterThanOrEqual(0)
  })

  test('thrift receipt: pre-owned flags and staff review', async () => {
    const a = await analyzeReceipt(fixture('dev-021-goodwill.png'), {
      ocr: fakeOcr('GameStop\n11/06/2026\nPRE-OWNED GAME $35.99\nTOTAL $35.99'),
    })
    expect(a).toMatchObject({
      isThriftStore: true,
      containsPreOwnedItems: true,
      preOwnedKeywordsFound: ['pre-owned'],
      isAcceptable: false,
      needsManualReview: true,
      purchaseCategory: 'thrift',
      category: null,
    })
  })

  test('a file that is not an image never reaches OCR', async () => {
    let called = false
    const ocr: OcrFn = async () => {
      called = true
      return { text: '', lines: [], confidence: 0 }
    }
    await expect(analyzeReceipt(Buffer.from('not an image'), { ocr })).rejects.toBeInstanceOf(ReceiptImageError)
    expect(called).toBe(false)
  })

  test('an aborted request stops before OCR', async () => {
    const controller = new AbortController()
    controller.abort(new Error('timeout'))
    await expect(analyzeReceipt(fixture('dev-015-bird.jpg'), { ocr: fakeOcr(''), signal: controller.signal })).rejects.toThrow('timeout')
  })
})

// Real tesseract on a few receipts from the development corpus (tests/fixtures/receipts).
describe('analyzeReceipt with tesseract', () => {
  const pool = createOcrPool({ size: 1 })
  afterAll(() => pool.terminate())

  test.each([
    ['dev-015-bird.jpg', { storeName: 'Bird', category: 'scooter_bike', totalAmount: 7.72, purchaseDate: '2026-08-09', isAcceptable: true, needsManualReview: false }],
    ['dev-012-tesla.png', { storeName: 'Tesla', category: 'electric_vehicle', totalAmount: 342.44, purchaseDate: '2026-11-14', isAcceptable: true, needsManualReview: false }],
    ['dev-003-lyft.jpg', { storeName: 'Lyft', category: 'ride_share', totalAmount: 34.07, purchaseDate: '2026-01-04' }],
    ['dev-040-coffee.jpg', { storeName: 'Starbucks', category: null, totalAmount: 6.31, isAcceptable: false, needsManualReview: false }],
    ['dev-021-goodwill.png', { storeName: 'Goodwill', isThriftStore: true, totalAmount: 29.61, isAcceptable: false, needsManualReview: true }],
  ])('%s', async (file, expected) => {
    const a = await analyzeReceipt(fixture(file), { ocr: pool.recognize })
    expect(a).toMatchObject(expected)
    expect(a.ocrText.length).toBeGreaterThan(20)
  }, 60_000)
})

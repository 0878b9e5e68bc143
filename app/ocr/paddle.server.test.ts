import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, describe, expect, test } from 'vitest'
import { createPaddleReader } from '~/ocr/paddle.server'
import { createOcrPool } from '~/ocr/tesseract.server'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'

// The real models from node_modules (no network): a badly taken Waymo photo (dev corpus, blur 1.5,
// noise 59, half scale) whose total tesseract cannot read.
const photo = fs.readFileSync(path.resolve('tests/fixtures/receipts/dev-005-waymo.jpg'))
const reader = createPaddleReader()
const pool = createOcrPool({ size: 1 })
afterAll(async () => {
  await reader.close()
  await pool.terminate()
})

describe('the PaddleOCR reader', () => {
  test('reads the lines of a blurred photo with spaces and a US date', async () => {
    const result = await reader.read(photo)
    expect(result.text).toMatch(/Waymo/i)
    expect(result.text).toMatch(/Mar 22, 2026/)
    expect(result.text).toMatch(/20\.42/)
    expect(result.lines.length).toBeGreaterThan(5)
    expect(result.confidence).toBeGreaterThan(50)
    expect(result.confidence).toBeLessThanOrEqual(100)
  })

  test('scores the least sure digit of each line: a line with digits has one, a line without none (issue 23)', async () => {
    const { lines } = await reader.read(photo)
    const withDigits = lines.filter((l) => /[0-9]/.test(l.text))
    expect(withDigits.length).toBeGreaterThan(2)
    for (const line of withDigits) {
      expect(line.digitConfidence).toBeGreaterThan(0)
      expect(line.digitConfidence).toBeLessThanOrEqual(100)
    }
    for (const line of lines.filter((l) => !/[0-9]/.test(l.text))) expect(line.digitConfidence).toBeNull()
  })

  test('reads a long screenshot in bands: its receipt at text size, and its footer (issue 37)', async () => {
    const receipt = await sharp(fs.readFileSync(path.resolve('tests/fixtures/receipts/dev-012-tesla.png'))).flatten({ background: '#fff' }).resize({ width: 1170 }).png().toBuffer()
    const footer = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="120"><text x="585" y="70" font-size="40" font-family="DejaVu Sans" text-anchor="middle">Tesla Help Privacy</text></svg>')
    const page = await sharp({ create: { width: 1170, height: 6400, channels: 3, background: '#fff' } })
      .composite([{ input: receipt, top: 200, left: 0 }, { input: footer, top: 6250, left: 0 }])
      .png()
      .toBuffer()
    const { text } = await reader.read(page)
    expect(text).toMatch(/TESLA/i)
    expect(text).toMatch(/Help/)
    // The receipt's total is read at a useful size (at 960 px long its text would be 5 px high).
    expect(text).toMatch(/\d+\.\d{2}/)
  })

  test('reads one photo at a time: concurrent reads all answer', async () => {
    const results = await Promise.all([reader.read(photo), reader.read(photo)])
    expect(results[0].text).toBe(results[1].text)
  })

  test('with two engines, two readings at once each take one; alone, one engine does (decision 122)', async () => {
    const two = createPaddleReader({ engines: 2 })
    const [a, b] = await Promise.all([two.read(photo), two.read(photo)])
    expect(a.text).toBe(b.text)
    expect(two.enginesRunning()).toBe(2)
    await two.close()
    expect(two.enginesRunning()).toBe(0)
    const lone = createPaddleReader({ engines: 2 })
    await lone.read(photo)
    await lone.read(photo)
    expect(lone.enginesRunning()).toBe(1)
    await lone.close()
    expect(reader.enginesRunning()).toBeLessThanOrEqual(1)
  })

  test('after close, the next reading starts a new engine', async () => {
    const own = createPaddleReader()
    await own.warmUp()
    await own.close()
    expect((await own.read(photo)).text).toMatch(/Waymo/i)
    await own.close()
  })

  test('an aborted read is refused before it starts', async () => {
    await expect(reader.read(photo, { signal: AbortSignal.abort() })).rejects.toThrow()
  })

  test('a read waiting its turn is answered as soon as its caller gives up; the reads around it go on', async () => {
    const first = reader.read(photo)
    const giveUp = new AbortController()
    const waiting = reader.read(photo, { signal: giveUp.signal })
    giveUp.abort(new Error('the analysis timed out'))
    await expect(waiting).rejects.toThrow('the analysis timed out')
    expect((await first).text).toMatch(/Waymo/i)
    expect((await reader.read(photo)).text).toMatch(/Waymo/i)
  })

  test('closing while a read is under way lets it finish; the next reading starts a new engine', async () => {
    const own = createPaddleReader()
    await own.warmUp()
    const during = own.read(photo)
    await own.close()
    expect((await during).text).toMatch(/Waymo/i)
    expect((await own.read(photo)).text).toMatch(/Waymo/i)
    await own.close()
  })

  test('readings past the waiting limit are refused at once', async () => {
    const own = createPaddleReader({ maxWaiting: 2 })
    const reads = [own.read(photo), own.read(photo), own.read(photo)].map((r) => r.then(() => 'read', (e: Error) => e.message))
    expect(await Promise.all(reads)).toEqual(['read', 'read', 'PaddleOCR is busy: 2 readings are waiting'])
    await own.close()
  })

  test('a worker silent past the turn limit is given up on, and its caller told', async () => {
    const own = createPaddleReader({ turnLimitMs: 1 })
    await own.warmUp().catch(() => undefined)
    await expect(own.read(photo)).rejects.toThrow('given up on')
    await own.close()
  })

  test('a caller kept past the time limit gets an error instead of waiting on', async () => {
    const own = createPaddleReader({ readLimitMs: 20 })
    await expect(own.read(photo)).rejects.toThrow('did not answer within 20 ms')
    await expect(own.read(photo)).rejects.toThrow('did not answer within 20 ms')
    await own.close()
  })
})

describe('analysis with both readers', () => {
  test('tesseract misses the total; PaddleOCR reads it and decides, and both texts are kept', async () => {
    const alone = await analyzeReceipt(photo, { ocr: pool.recognize, secondReader: null })
    expect(alone.totalAmount).toBeNull()
    expect(alone.reader).toBe('tesseract')
    expect(alone.otherReading).toBeNull()

    const both = await analyzeReceipt(photo, { ocr: pool.recognize, secondReader: reader.read })
    expect(both).toMatchObject({ reader: 'paddleocr', storeName: 'Waymo', totalAmount: 20.42, purchaseDate: '2026-03-22' })
    expect(both.otherReading).toEqual({ reader: 'tesseract', ocrText: alone.ocrText })
    expect(both.timings.secondReaderMs).toBeGreaterThan(0)
  })

  test('a second reader that fails leaves the decision to tesseract instead of failing the analysis', async () => {
    const failing = async () => {
      throw new Error('The PaddleOCR worker stopped (exit code 1)')
    }
    const analysis = await analyzeReceipt(photo, { ocr: pool.recognize, secondReader: failing })
    expect(analysis).toMatchObject({ reader: 'tesseract', otherReading: null, totalAmount: null })
    expect(analysis.isAcceptable).toBe(false)
  })

  test('a photo tesseract reads fully is never read twice', async () => {
    let calls = 0
    const counting = async (b: Buffer) => (calls++, reader.read(b))
    const clean = fs.readFileSync(path.resolve('tests/fixtures/receipts/dev-015-bird.jpg'))
    const a = await analyzeReceipt(clean, { ocr: pool.recognize, secondReader: counting })
    expect(a.reader).toBe('tesseract')
    expect(calls).toBe(0)
  })
})

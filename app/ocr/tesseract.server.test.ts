import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { prepareForOcr } from '~/ocr/preprocess.server'
import { createOcrPool, localLangPath, poolSizeFromEnv } from '~/ocr/tesseract.server'

test('language data comes from the local package, never a CDN', () => {
  const dir = localLangPath('4.0.0_best_int')
  expect(dir).toContain(path.join('node_modules', '@tesseract.js-data', 'eng'))
  expect(fs.existsSync(path.join(dir, 'eng.traineddata.gz'))).toBe(true)
})

test.each([
  [undefined, 2],
  ['3', 3],
  ['0', 2],
  ['lots', 2],
])('OCR_WORKERS=%s -> %i workers', (value, expected) => {
  expect(poolSizeFromEnv({ OCR_WORKERS: value })).toBe(expected)
})

test('a recycled worker keeps answering; a terminated pool refuses work', async () => {
  const pool = createOcrPool({ size: 1, recycleAfter: 1 })
  const { image } = await prepareForOcr(fs.readFileSync(path.resolve('tests/fixtures/receipts/dev-012-tesla.png')))
  const first = await pool.recognize(image)
  const second = await pool.recognize(image)
  expect(first.text).toContain('TESLA')
  expect(second.text).toBe(first.text)
  expect(second.lines.length).toBeGreaterThan(3)
  await pool.terminate()
  await expect(pool.recognize(image)).rejects.toThrow('terminated')
}, 60_000)

test('a job still queued when its request is aborted is dropped', async () => {
  const pool = createOcrPool({ size: 1 })
  const { image } = await prepareForOcr(fs.readFileSync(path.resolve('tests/fixtures/receipts/dev-015-bird.jpg')))
  const controller = new AbortController()
  const running = pool.recognize(image)
  const queued = pool.recognize(image, { signal: controller.signal })
  controller.abort(new Error('client went away'))
  await expect(queued).rejects.toThrow('client went away')
  await expect(running).resolves.toMatchObject({ confidence: expect.any(Number) })
  await pool.terminate()
}, 60_000)

test('each line carries the score of its least sure digit, from tesseract symbols (issue 23)', async () => {
  const pool = createOcrPool({ size: 1 })
  const { image } = await prepareForOcr(fs.readFileSync(path.resolve('tests/fixtures/receipts/dev-012-tesla.png')))
  const { lines } = await pool.recognize(image)
  await pool.terminate()
  const withDigits = lines.filter((l) => /[0-9]/.test(l.text))
  expect(withDigits.length).toBeGreaterThan(2)
  for (const line of withDigits) expect(line.digitConfidence).toBeGreaterThan(0)
  for (const line of lines.filter((l) => !/[0-9]/.test(l.text))) expect(line.digitConfidence).toBeNull()
}, 60_000)

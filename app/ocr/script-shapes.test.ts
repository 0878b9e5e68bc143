import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { prepareForOcr } from '~/ocr/preprocess.server'
import { greyOfPgm, lineScript, scriptFromShapes } from '~/ocr/script-shapes'

const fixture = (name: string) => fs.readFileSync(path.resolve('tests/fixtures/receipts', name))

test.each([
  ['lang-th.png', 'Thai'],
  ['lang-de-db.png', null],
  ['lang-ko-taxi.png', null],
  ['lang-zh-taxi.png', null],
  ['dev-015-bird.jpg', null],
  ['dev-003-lyft.jpg', null],
  ['dev-012-tesla.png', null],
])('%s: the shapes say %s', async (name, script) => {
  const grey = greyOfPgm((await prepareForOcr(fixture(name))).image)!
  expect(scriptFromShapes(grey)).toBe(script)
})

test.each([
  ['a headline with long runs above the middle', { height: 40, peakAt: 0.27, peakRatio: 3.6, longRunsAbove: 0.1, thirds: [0.3, 0.5, 0.2] as [number, number, number] }, 'Devanagari'],
  ['an empty top third and a sharp baseline', { height: 40, peakAt: 0.7, peakRatio: 2.6, longRunsAbove: 0, thirds: [0.16, 0.5, 0.34] as [number, number, number] }, 'Arabic'],
  ['an empty top third and a flat, low profile', { height: 40, peakAt: 0.5, peakRatio: 1.8, longRunsAbove: 0, thirds: [0.15, 0.41, 0.44] as [number, number, number] }, 'Thai'],
  ['Latin', { height: 36, peakAt: 0.7, peakRatio: 2.2, longRunsAbove: 0, thirds: [0.31, 0.44, 0.25] as [number, number, number] }, null],
  ['Han', { height: 32, peakAt: 0.4, peakRatio: 1.65, longRunsAbove: 0, thirds: [0.34, 0.37, 0.29] as [number, number, number] }, null],
])('one line: %s', (_, shape, script) => {
  expect(lineScript(shape)).toBe(script)
})

test('a PGM that is not one is no page', () => {
  expect(greyOfPgm(Buffer.from('P6\n1 1\n255\n\0\0\0'))).toBeNull()
})

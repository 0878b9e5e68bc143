import { describe, expect, it } from 'vitest'
import {
  MILLI_PER_B3TR,
  b3trToMilli,
  floorB3tr,
  formatB3tr,
  formatSigned,
  b3trText,
  wholeB3trText,
  parseUsdToCents,
} from './money'

describe('b3trToMilli', () => {
  it('uses 1000 milli per B3TR', () => {
    expect(MILLI_PER_B3TR).toBe(1000)
  })

  it.each([
    [0, 0],
    [-0, 0],
    [1, 1000],
    [18, 18000],
    [5.4, 5400],
    [2.4, 2400],
    [8.4, 8400],
    [0.1, 100],
    [0.001, 1],
    [1.005, 1005],
    [1.015, 1015],
    [4.35, 4350],
    [12.345, 12345],
    [-5, -5000],
    [-0.3, -300],
    [0.0004, 0],
    [0.0005, 1],
    [1.0005, 1001],
    [1.0004999, 1000],
    [-1.0005, -1001],
    [-0.0004, 0],
    [1e-7, 0],
    [123456789.123, 123456789123],
  ])('%s B3TR -> %s milli', (b3tr, milli) => {
    expect(b3trToMilli(b3tr)).toBe(milli)
  })

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], [1e300]])('rejects %s', (n) => {
    expect(() => b3trToMilli(n)).toThrow(RangeError)
  })
})

describe('formatB3tr', () => {
  it.each([
    [18000, undefined, '18.0'],
    [5400, undefined, '5.4'],
    [2400, undefined, '2.4'],
    // Issue 40: by default every digit the ledger holds, at least one decimal, never rounded.
    [12345, undefined, '12.345'],
    [12350, undefined, '12.35'],
    [12349, undefined, '12.349'],
    [12345, 2, '12.35'],
    [12344, 2, '12.34'],
    [12345, 3, '12.345'],
    [12345, 0, '12'],
    [12500, 0, '13'],
    [12499, 0, '12'],
    [12345, 4, '12.3450'],
    [0, undefined, '0.0'],
    [1, undefined, '0.001'],
    [49, undefined, '0.049'],
    [50, undefined, '0.05'],
    [999, undefined, '0.999'],
    [950, undefined, '0.95'],
    [949, undefined, '0.949'],
    [-5000, undefined, '-5.0'],
    [-5450, undefined, '-5.45'],
    [-5449, undefined, '-5.449'],
    [-12345, 2, '-12.35'],
    [-49, undefined, '-0.049'],
    [-50, undefined, '-0.05'],
    [1234567000, 1, '1234567.0'],
  ])('%s milli with %s decimals -> %s', (milli, decimals, expected) => {
    expect(formatB3tr(milli, decimals)).toBe(expected)
  })

  it.each([[1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('rejects non-integer milli %s', (milli) => {
    expect(() => formatB3tr(milli)).toThrow(RangeError)
  })

  it.each([[-1], [1.5], [21]])('rejects decimals %s', (decimals) => {
    expect(() => formatB3tr(1000, decimals)).toThrow(RangeError)
  })
})

describe('formatSigned', () => {
  it.each([
    // One decimal by default, as every amount on screen (issue 40; was two for history rows).
    [18000, undefined, '+18.0'],
    [-5000, undefined, '-5.0'],
    [5400, undefined, '+5.4'],
    [12345, undefined, '+12.345'],
    [0, undefined, '0.0'],
    [40, undefined, '+0.04'],
    [-40, undefined, '-0.04'],
    [50, undefined, '+0.05'],
    [-50, undefined, '-0.05'],
    [12345, 2, '+12.35'],
    [-8000, 0, '-8'],
  ])('%s milli with %s decimals -> %s', (milli, decimals, expected) => {
    expect(formatSigned(milli, decimals)).toBe(expected)
  })
})

describe('b3trText (one format for every B3TR amount on screen)', () => {
  it.each([
    [b3trText(19_000), '19.0 B3TR'],
    [b3trText(0), '0.0 B3TR'],
    [b3trText(5400), '5.4 B3TR'],
    [wholeB3trText(8), '8.0 B3TR'],
    [b3trText(7250), '7.25 B3TR'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected)
  })
})

describe('floorB3tr', () => {
  it.each([
    [0, 0],
    [999, 0],
    [1000, 1],
    [18999, 18],
    [-1, -1],
    [-1000, -1],
  ])('%s milli -> %s B3TR', (milli, whole) => {
    expect(floorB3tr(milli)).toBe(whole)
  })
})

describe('parseUsdToCents', () => {
  it.each([
    ['12.5', 1250],
    ['12.50', 1250],
    ['12.05', 1205],
    ['12', 1200],
    ['12.', 1200],
    ['0', 0],
    ['0.00', 0],
    ['0.01', 1],
    ['.5', 50],
    ['.05', 5],
    ['$3.99', 399],
    ['  35.99  ', 3599],
    ['007.10', 710],
    ['10.10', 1010],
    ['4.35', 435],
    ['1.15', 115],
    ['123456.78', 12345678],
  ])('%j -> %s cents', (input, cents) => {
    expect(parseUsdToCents(input)).toBe(cents)
  })

  it.each([
    [''],
    ['   '],
    ['abc'],
    ['12abc'],
    ['12.345'],
    ['0.001'],
    ['-1'],
    ['-0.5'],
    ['+1'],
    ['1,234.56'],
    ['12,50'],
    ['1e3'],
    ['.'],
    ['$'],
    ['1.2.3'],
    ['12 .5'],
    ['Infinity'],
    ['NaN'],
    ['99999999999999999999'],
  ])('%j -> null', (input) => {
    expect(parseUsdToCents(input)).toBeNull()
  })
})

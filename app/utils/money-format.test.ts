import { describe, expect, it } from 'vitest'
import { formatAmount, formatCents } from './money-format'

describe('formatAmount', () => {
  it.each([
    [12.34, null, '$12.34'],
    [12.34, undefined, '$12.34'],
    [1234.5, null, '$1234.50'],
    [12.34, 'USD', '$12.34'],
    [27700, 'KRW', '₩27,700'],
    [27700, 'krw', '₩27,700'],
    [86.43, 'EUR', '€86.43'],
    [3200, 'JPY', '¥3,200'],
    [1499.5, 'INR', '₹1,499.50'],
    [12.34, '', '$12.34'],
  ])('%s %s -> %s', (value, currency, expected) => {
    expect(formatAmount(value, currency)).toBe(expected)
  })

  it('falls back to the number alone for a code Intl refuses, and does not throw', () => {
    expect(formatAmount(12.34, 'not-a-code')).toBe('12.34')
    expect(formatAmount(12.34, 'US')).toBe('12.34')
    // Refused once, remembered: the second call answers from the cache.
    expect(formatAmount(27700, 'not-a-code')).toBe('27700.00')
  })

  it('names a well-formed code Intl has no sign for', () => {
    expect(formatAmount(12.34, 'XYZ')).toBe('XYZ\u00a012.34')
  })

  it('prints stored cents the same way, and a dash when no amount was read', () => {
    expect(formatCents(2_770_000, 'KRW')).toBe('₩27,700')
    expect(formatCents(1234, null)).toBe('$12.34')
    expect(formatCents(null, 'EUR')).toBe('—')
  })
})

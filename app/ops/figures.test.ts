import { describe, expect, it } from 'vitest'
import { ageSeconds, formatAge, formatMs, latencySummary, ledgerTotals, percentile, startOfUtcDay } from './figures'

describe('ledgerTotals', () => {
  it.each([
    ['nothing', [], { creditedMilli: 0, claimedMilli: 0, paidMilli: 0 }],
    [
      'credits of every earning type, the funds left out',
      [
        { type: 'receipt_verification', status: 'completed', total: 10_000 },
        { type: 'achievement_reward', status: 'completed', total: 5_000 },
        { type: 'referral_reward', status: 'completed', total: 2_500 },
        { type: 'sustainability_app', status: 'completed', total: 3_000 },
        { type: 'sustainability_creator', status: 'completed', total: 1_000 },
      ],
      { creditedMilli: 17_500, claimedMilli: 0, paidMilli: 0 },
    ],
    [
      'claims pending and confirmed; a failed claim is back in the balance',
      [
        { type: 'receipt_verification', status: 'completed', total: 30_000 },
        { type: 'token_claim', status: 'pending', total: -7_000 },
        { type: 'token_claim', status: 'confirmed', total: -12_000 },
        { type: 'token_claim', status: 'failed', total: -4_000 },
      ],
      { creditedMilli: 30_000, claimedMilli: 19_000, paidMilli: 12_000 },
    ],
    [
      'a failed credit does not count',
      [{ type: 'receipt_verification', status: 'failed', total: 9_000 }],
      { creditedMilli: 0, claimedMilli: 0, paidMilli: 0 },
    ],
  ] as const)('%s', (_name, rows, expected) => {
    expect(ledgerTotals([...rows])).toEqual(expected)
  })
})

describe('ageSeconds', () => {
  const now = new Date('2026-11-24T12:00:00.000Z')
  it.each([
    [null, 0],
    [undefined, 0],
    ['2026-11-24T11:59:00.000Z', 60],
    ['2026-11-23T12:00:00.000Z', 86_400],
    ['2026-11-24T12:00:05.000Z', 0],
    ['not a date', 0],
  ])('%s → %s s', (iso, expected) => {
    expect(ageSeconds(iso, now)).toBe(expected)
  })
})

describe('percentile and latencySummary', () => {
  it.each([
    [[], 50, null],
    [[7], 50, 7],
    [[7], 90, 7],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
    [[10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 90, 9],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 100, 10],
    [[300, 100, 200], 0, 100],
  ])('percentile(%j, %s) = %s', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected)
  })

  it('summarises, ignoring values that are not durations', () => {
    expect(latencySummary([240, 310, 220, Number.NaN, -1, 1800])).toEqual({ count: 4, medianMs: 240, p90Ms: 1800, maxMs: 1800 })
    expect(latencySummary([])).toEqual({ count: 0, medianMs: null, p90Ms: null, maxMs: null })
  })
})

it('startOfUtcDay', () => {
  expect(startOfUtcDay(new Date('2026-11-24T23:59:59.999Z'))).toBe('2026-11-24T00:00:00.000Z')
  expect(startOfUtcDay(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24T00:00:00.000Z')
})

describe('formatAge and formatMs', () => {
  it.each([
    [0, '0 s'],
    [Number.NaN, '—'],
    [-5, '—'],
    [42, '42 s'],
    [60, '1 min'],
    [59 * 60 + 59, '59 min'],
    [3600, '1 h'],
    [3600 + 12 * 60, '1 h 12 min'],
    [47 * 3600, '47 h'],
    [48 * 3600, '2 d'],
    [3 * 86_400 + 5 * 3600, '3 d 5 h'],
  ])('formatAge(%s) = %s', (seconds, expected) => {
    expect(formatAge(seconds)).toBe(expected)
  })

  it.each([
    [null, '—'],
    [0, '0 ms'],
    [237.4, '237 ms'],
    [999, '999 ms'],
    [1000, '1.0 s'],
    [2540, '2.5 s'],
  ])('formatMs(%s) = %s', (ms, expected) => {
    expect(formatMs(ms)).toBe(expected)
  })
})

import { describe, expect, it } from 'vitest'
import { evidenceStrength, maturingExplained, maturingLine, photoAuditRate, photoClaimableAt, sampledForAudit } from './maturing'

const NOW = new Date('2026-11-26T14:00:00.000Z')

describe('photoClaimableAt', () => {
  it.each([
    [72, '2026-11-29T14:00:00.000Z'],
    [0.5, '2026-11-26T14:30:00.000Z'],
    [1.25, '2026-11-26T15:15:00.000Z'],
    [0, null],
  ])('%s hours -> %s', (hours, expected) => {
    expect(photoClaimableAt(NOW, hours)?.toISOString() ?? null).toBe(expected)
  })
})

describe('the audit rate (decision 109)', () => {
  it.each([
    [{ approvedEReceipt: true, staffLooks: 0 }, 'firm'],
    [{ approvedEReceipt: false, staffLooks: 2 }, 'firm'],
    [{ approvedEReceipt: false, staffLooks: 1 }, 'thin'],
    [{ approvedEReceipt: false, staffLooks: 0 }, 'thin'],
  ] as const)('%o is %s evidence', (facts, strength) => {
    expect(evidenceStrength(facts)).toBe(strength)
  })

  it.each([
    [0.1, 'firm', 0.1],
    [0.1, 'thin', 0.5],
    [0.3, 'thin', 1],
    [0, 'thin', 0],
    [1.5, 'firm', 1],
  ] as const)('base %s on %s evidence -> %s', (base, strength, rate) => {
    expect(photoAuditRate(base, strength)).toBeCloseTo(rate, 10)
  })

  it('samples a draw below the rate, never at rate 0', () => {
    expect(sampledForAudit(0.09, 0.1)).toBe(true)
    expect(sampledForAudit(0.1, 0.1)).toBe(false)
    expect(sampledForAudit(0, 0)).toBe(false)
    expect(sampledForAudit(0.999, 1)).toBe(true)
  })
})

describe('what a user is told', () => {
  it('says nothing when nothing matures', () => {
    expect(maturingLine(0, [])).toBeNull()
    expect(maturingLine(0, [{ claimableAt: '2026-11-29T14:00:00.000Z', amountMilli: 0 }])).toBeNull()
  })

  it('names one time, or the first part and when all of it is claimable', () => {
    expect(maturingLine(12_000, [{ claimableAt: '2026-11-29T14:00:00.000Z', amountMilli: 12_000 }])).toBe('12.0 B3TR maturing: claimable from 29 Nov, 14:00 UTC')
    expect(
      maturingLine(12_000, [
        { claimableAt: '2026-11-27T10:00:00.000Z', amountMilli: 9_000 },
        { claimableAt: '2026-11-29T14:05:00.000Z', amountMilli: 3_000 },
      ]),
    ).toBe('12.0 B3TR maturing: 9.0 B3TR claimable from 27 Nov, 10:00 UTC, all by 29 Nov, 14:05 UTC')
  })

  it('explains the hold in hours', () => {
    expect(maturingExplained(72)).toMatch(/^Photo receipts approved automatically can be claimed 72 hours later/)
    expect(maturingExplained(0.5)).toMatch(/claimed 0.5 hours later/)
  })
})

import { describe, expect, it } from 'vitest'
import { extractReceipt } from '~/analysis/extract'
import { findVendorByName } from '~/analysis/vendors'
import { ERECEIPT_REASONS, judgeEReceipt } from '~/analysis/email-verdict'

const fields = (over: Partial<ReturnType<typeof extractReceipt>> = {}) => ({
  ...extractReceipt('Uber\nTotal $12.40\nNovember 22, 2026'),
  vendor: findVendorByName('Uber'),
  category: 'ride_share' as const,
  ...over,
})
const signed = { signedSentAt: '2026-11-22T20:00:00.000Z', recipientSigned: true }

describe('e-receipt verdict (issue 21)', () => {
  it('approves an eligible service with a total and a date', () => {
    expect(judgeEReceipt(fields(), signed)).toMatchObject({ isAcceptable: true, needsManualReview: false, reasons: [] })
  })

  it.each([
    ['no total', { totalAmount: null }, signed, ERECEIPT_REASONS.noTotal],
    ['no date', { purchaseDate: null }, signed, ERECEIPT_REASONS.noDate],
    ['a car rental without an EV', { category: null }, signed, ERECEIPT_REASONS.notElectric],
    ['a trip dated after the e-mail', { purchaseDate: '2026-11-24' }, signed, ERECEIPT_REASONS.newerThanEmail],
    ['an unsigned recipient', {}, { ...signed, recipientSigned: false }, ERECEIPT_REASONS.recipientUnsigned],
  ])('sends %s to review', (_name, over, context, reason) => {
    const verdict = judgeEReceipt(fields(over), context)
    expect(verdict).toMatchObject({ isAcceptable: false, needsManualReview: true })
    expect(verdict.reasons).toContain(reason)
  })

  it('allows the sender a day ahead of UTC (receipts print local dates), not two', () => {
    expect(judgeEReceipt(fields({ purchaseDate: '2026-11-23' }), signed).isAcceptable).toBe(true)
    expect(judgeEReceipt(fields({ purchaseDate: '2026-11-22' }), { ...signed, signedSentAt: null }).isAcceptable).toBe(true)
  })
})

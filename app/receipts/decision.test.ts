import { describe, expect, it } from 'vitest'
import { decideSubmission, type AnalysisFacts } from './decision'

const NOW = new Date('2026-11-21T12:00:00Z')
const good: AnalysisFacts = {
  isValid: true,
  storeName: 'Uber',
  category: 'ride_share',
  totalAmount: 24.5,
  purchaseDate: '2026-11-20',
  isAcceptable: true,
  needsManualReview: false,
  reasons: [],
}
const user = { category: 'ride_share', amountCents: 2450, purchaseDate: '2026-11-20' }
const base = { analysis: good, user, now: NOW, maxAgeDays: 14, nearDuplicate: false, sameReceiptFromOtherAccount: false, inviteeCapReached: false }

describe('decideSubmission', () => {
  it('approves a confident transport receipt whose values the user kept', () => {
    expect(decideSubmission(base)).toEqual({ kind: 'approve' })
  })

  it.each([
    ['a grocery receipt', { analysis: { ...good, category: null, isAcceptable: false, reasons: ['Groceries are not eligible'] } }, 'Groceries are not eligible'],
    ['a demo analysis', { analysis: { ...good, testMode: true } }, 'Demo receipts never earn tokens.'],
    ['a receipt from the future', { analysis: { ...good, purchaseDate: '2026-11-25' }, user: { ...user, purchaseDate: '2026-11-25' } }, 'future'],
    ['a receipt 15 days old', { analysis: { ...good, purchaseDate: '2026-11-06' }, user: { ...user, purchaseDate: '2026-11-06' } }, '14 days'],
  ])('rejects %s', (_name, change, reason) => {
    const result = decideSubmission({ ...base, ...change })
    expect(result.kind).toBe('reject')
    expect(result.kind === 'reject' && result.reason).toContain(reason)
  })

  it('accepts a receipt exactly 14 days old', () => {
    const d = '2026-11-07'
    expect(decideSubmission({ ...base, analysis: { ...good, purchaseDate: d }, user: { ...user, purchaseDate: d } }).kind).toBe('approve')
  })

  it.each([
    ['the analysis asks for review (thrift)', { analysis: { ...good, category: null, isAcceptable: false, needsManualReview: true, reasons: ['Second-hand purchase'] } }],
    ['an edited amount', { user: { ...user, amountCents: 9900 } }],
    ['an edited date', { user: { ...user, purchaseDate: '2026-11-19' } }],
    ['an edited category', { user: { ...user, category: 'electric_vehicle' } }],
    ['an unread total', { analysis: { ...good, totalAmount: null } }],
    ['an unread date', { analysis: { ...good, purchaseDate: null } }],
    ['a near-duplicate photo', { nearDuplicate: true }],
    ['the same trip from another account', { sameReceiptFromOtherAccount: true }],
    ['a referrer whose invitees used up the day', { inviteeCapReached: true }],
    ['a timeout fallback', { analysis: { ...good, isValid: false, isAcceptable: false, needsManualReview: true, totalAmount: null, purchaseDate: null, category: null, timeoutFallback: true, reasons: ["We couldn't automatically determine if this receipt qualifies. Please enter the details manually."] } }],
  ])('sends to review: %s', (_name, change) => {
    const result = decideSubmission({ ...base, ...change })
    expect(result.kind).toBe('review')
    expect(result.kind === 'review' && result.reasons.length).toBeGreaterThan(0)
  })

  it('never approves on the user\'s values alone', () => {
    const result = decideSubmission({ ...base, analysis: { ...good, isAcceptable: false, needsManualReview: true, reasons: [] } })
    expect(result.kind).toBe('review')
  })
})

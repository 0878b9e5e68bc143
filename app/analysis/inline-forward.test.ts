import { describe, expect, it } from 'vitest'
import { extractReceipt } from './extract'
import { INLINE_FORWARD_REASON, judgeInlineForward, quotedOriginal } from './inline-forward'
import { findVendorByName } from './vendors'

const BODY = 'Total $14.20\nNovember 24, 2026\nTrip ID: 1234-ABCD'

describe('the original quoted in an inline forward (issue 39)', () => {
  it.each([
    ['the Gmail app', `Look\n\n---------- Forwarded message ---------\nFrom: Uber Receipts <noreply@uber.com>\nDate: Mon, Nov 24, 2026 at 6:42 PM\nSubject: Your trip\nTo: <me@example.org>\n\n\n${BODY}`],
    ['iPhone Mail', `Sent from my iPhone\n\nBegin forwarded message:\n\nFrom: Uber Receipts <noreply@uber.com>\nDate: November 24, 2026 at 6:42:10 PM GMT\nTo: me@example.org\nSubject: Your trip\n\n${BODY}`],
    ['iPhone Mail, quoted', `Sent from my iPhone\n\n> Begin forwarded message:\n\n> From: Uber Receipts <noreply@uber.com>\n> Date: November 24, 2026\n> To: me@example.org\n> Subject: Your trip\n\n> ${BODY.split('\n').join('\n> ')}`],
    ['the Outlook app', `Get Outlook for iOS\n________________________________\nFrom: Uber Receipts <noreply@uber.com>\nSent: Monday, November 24, 2026 6:42:10 PM\nTo: me@example.org <me@example.org>\nSubject: Your trip\n\n${BODY}`],
    ['Outlook without its rule', `-----\nFrom: Uber Receipts <noreply@uber.com>\nSent: Monday, November 24, 2026 6:42:10 PM\nSubject: Your trip\n\n${BODY}`],
  ])('%s', (_app, text) => {
    const quoted = quotedOriginal(text)
    expect(quoted).toMatchObject({ fromDomain: 'uber.com', subject: 'Your trip', text: BODY })
  })

  it('finds none in a message that forwards nothing', () => {
    expect(quotedOriginal('Hi, my receipt is attached.\nFrom: me')).toBeNull()
  })
})

describe('the verdict on an inline forward', () => {
  const uber = findVendorByName('Uber')!
  it('approves a complete trip receipt like a clean photo, and says it is unverified', () => {
    const verdict = judgeInlineForward(extractReceipt(BODY, { vendor: uber }))
    expect(verdict).toMatchObject({ isAcceptable: true, needsManualReview: false, reasons: [INLINE_FORWARD_REASON] })
  })

  it('a lone priced amount or a credit earned is no total: staff look', () => {
    const lyft = findVendorByName('Lyft')!
    const lone = extractReceipt('Lyft\nNov 20, 2026\nPickup 7:48 PM 500 Main St\nDrop-off 8:12 PM SFO Terminal 2\nYour ride $18.12', { vendor: lyft })
    expect(judgeInlineForward(lone)).toMatchObject({ isAcceptable: false, needsManualReview: true })
    const credit = extractReceipt('Lyft\nNov 20, 2026\nYou earned $5.00 in Lyft credit', { vendor: lyft })
    expect(credit.totalAmount).toBeNull()
    expect(judgeInlineForward(credit)).toMatchObject({ isAcceptable: false, needsManualReview: true })
  })

  it('sends an unknown service or a missing total to staff, and refuses a merchant that is no transport', () => {
    expect(judgeInlineForward(extractReceipt('Some Ride Co\nNovember 24, 2026\nTrip ID: 1'))).toMatchObject({ isAcceptable: false, needsManualReview: true })
    const grocery = judgeInlineForward(extractReceipt(BODY, { vendor: findVendorByName('Walmart') ?? findVendorByName('Costco')! }))
    expect(grocery).toMatchObject({ isAcceptable: false, needsManualReview: false })
    expect(grocery.reasons.at(-1)).toBe(INLINE_FORWARD_REASON)
  })
})

/**
 * Issue 37: real receipt e-mail templates through the whole submission. The bodies are short
 * excerpts of real Uber mails (a ride's receipt, and the same ride's receipt sent again when the
 * rider added a tip), signed with a test key published for uber.com on a loopback DNS server, so
 * only the reading is under test. One rider's trip pays once, in either order.
 */
import crypto from 'node:crypto'
import MailComposer from 'nodemailer/lib/mail-composer'
import { describe, expect, it } from 'vitest'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { action as submitAction } from '../app/routes/api.receipts'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { getDb } from '../app/utils/db.server'
import { useDkimDns } from './utils/dkim-env'
import { publishKey, signMessage, styleOf, testKey } from './utils/ereceipts'
import { bodyOf, jsonRequest, signInNewUser } from './utils/requests'

const dns = useDkimDns()
const ctx = { context: {}, params: {} }

/** Today's date in Uber's words ("Jul 12, 2026"), so the receipt is inside the age window. */
function uberDay(d: Date) {
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}

function firstReceipt(day: string) {
  return `<p>${day}</p><p>3:06 PM</p><p>Thanks for riding, Alex Rider</p><p>We hope you enjoyed your ride this afternoon.</p>
<table><tr><td>Total</td><td>$20.87</td></tr></table><p>Payments</p>
<table><tr><td>American Express ••••1234</td><td>$20.87</td></tr></table>
<p>Trip details</p><p>Comfort</p><p>5.23 miles, 15 minutes</p><p>3:08 PM</p><p>100 Main Street, Springfield</p><p>3:23 PM</p><p>123 Test Street, Test City</p>`
}

function tipAdded(day: string) {
  return `<p>${day}</p><p>3:06 PM</p><p>Tip</p><p>Thanks for tipping, Alex Rider</p><p>We hope you enjoyed your ride this afternoon.</p>
<table><tr><td>Total</td><td>$27.87</td></tr><tr><td>Trip fare</td><td>$17.87</td></tr><tr><td>Booking Fee</td><td>$2.60</td></tr>
<tr><td>DC Fee</td><td>$1.18</td></tr><tr><td>Tip</td><td>$7.00</td></tr></table><p>Payments</p>
<table><tr><td>American Express ••••1234</td><td>$20.87</td></tr><tr><td>American Express ••••1234</td><td>$7.00</td></tr></table>
<p>Trip details</p><p>Comfort</p><p>5.23 miles, 15 minutes</p><p>3:08 PM</p><p>100 Main Street, Springfield</p><p>3:23 PM</p><p>123 Test Street, Test City</p>
<p>Receipt ID # ${crypto.randomUUID()}</p>`
}

async function uberMail(html: string, to: string) {
  const style = styleOf('Uber')
  const keys = testKey(style.signingDomain)
  publishKey(dns.current, style.signingDomain, style.selector, keys)
  const sentAt = new Date()
  const raw = await new MailComposer({
    from: style.from,
    to,
    subject: '[Personal] Your Sunday afternoon trip with Uber',
    date: sentAt,
    messageId: `<${crypto.randomUUID()}@uber.com>`,
    html,
  })
    .compile()
    .build()
  return signMessage(raw, { domain: style.signingDomain, selector: style.selector, privateKey: keys.privateKey, headerList: style.headerList, signTime: sentAt })
}

async function send(cookie: string, raw: Buffer) {
  const body = { image: `data:message/rfc822;base64,${raw.toString('base64')}` }
  const validated = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', body, { headers: { Cookie: cookie } }) }).catch((r: Response) => r)
  const analysis = await bodyOf(validated)
  if (validated.status !== 200) return { status: validated.status, body: analysis }
  const res = await submitAction({
    ...ctx,
    request: jsonRequest(
      '/api/receipts',
      { analysisId: analysis.analysisId, amount: analysis.totalAmount, purchaseDate: analysis.purchaseDate, category: analysis.category },
      { headers: { Cookie: cookie } },
    ),
  }).catch((r: Response) => r)
  return { status: res.status, body: await bodyOf(res), analysis }
}

describe("a ride's receipt and its tip-added resend (real Uber templates)", () => {
  it.each([
    ['the receipt first', [firstReceipt, tipAdded]],
    ['the resend first', [tipAdded, firstReceipt]],
  ] as const)('pay once: %s', async (_name, order) => {
    const { user, cookie } = await signInNewUser()
    const to = `rider-${user.id}@example.org`
    const day = uberDay(new Date())
    const first = await send(cookie, await uberMail(order[0](day), to))
    expect(first.status).toBe(201)
    expect(first.analysis).toMatchObject({ storeName: 'Uber', category: 'ride_share', isAcceptable: true })
    const paid = await getBalanceMilli(getDb(), user.id)
    expect(paid).toBeGreaterThan(0)
    const second = await send(cookie, await uberMail(order[1](day), to))
    expect(second.body.refusal?.code ?? (second.status === 409 ? 'duplicate' : null)).toBe('duplicate')
    expect(await getBalanceMilli(getDb(), user.id)).toBe(paid)
  })
})

describe('the same ride as two photos (a receipt, then its tip-added resend)', () => {
  it('pays one rider once, and another rider is not refused by the minute', async () => {
    const { analyzeAndStore } = await import('../app/analysis/analyses.server')
    const { tripMomentOf } = await import('../app/analysis/to-analysis')
    const { submitReceipt } = await import('../app/receipts/receipts.server')
    const { noiseImage, todayUtc } = await import('./utils/images')
    const day = uberDay(new Date())
    const photoOf = (total: number, text: string) => async () => ({
      isValid: true,
      storeName: 'Uber',
      category: 'ride_share',
      totalAmount: total,
      purchaseDate: todayUtc(),
      confidence: 0.97,
      isAcceptable: true,
      needsManualReview: false,
      reasons: [],
      tripMoment: tripMomentOf('Uber', text),
    })
    const first = `${day}\n3:06 PM\nThanks for riding, Alex Rider\nTotal $20.87`
    const resend = `${day}\n3:06 PM\nTip\nThanks for tipping, Alex Rider\nTotal $27.87\nReceipt ID # 762c201a`
    const values = (cents: number) => ({ category: 'ride_share', amountCents: cents, purchaseDate: todayUtc() })
    const { asPerson: passport } = await import('./utils/standing')
    const rider = await signInNewUser()
    const a = await analyzeAndStore(getDb(), { userId: rider.user.id, image: await noiseImage(), analyze: photoOf(20.87, first) })
    expect(await submitReceipt(getDb(), { userId: rider.user.id, analysisId: a.id, values: values(2087), maxAgeDays: 14, passport })).toMatchObject({ ok: true })
    const b = await analyzeAndStore(getDb(), { userId: rider.user.id, image: await noiseImage(), analyze: photoOf(27.87, resend) })
    expect(await submitReceipt(getDb(), { userId: rider.user.id, analysisId: b.id, values: values(2787), maxAgeDays: 14, passport })).toEqual({
      ok: false,
      status: 409,
      error: 'This receipt has already been submitted.',
    })
    // Another rider's trip in the same minute is another trip.
    const other = await signInNewUser()
    const c = await analyzeAndStore(getDb(), { userId: other.user.id, image: await noiseImage(), analyze: photoOf(13.4, first.replace('20.87', '13.40')) })
    expect(await submitReceipt(getDb(), { userId: other.user.id, analysisId: c.id, values: values(1340), maxAgeDays: 14, passport })).toMatchObject({ ok: true })
  })
})

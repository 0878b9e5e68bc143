/**
 * Issue 32: e-receipts a user can find and follow. The guide lists the supported senders and the
 * steps for each mail app, says so when forwarding is not set up, and a forwarded receipt shows on
 * Home, credited or refused, with the reason.
 */
import crypto from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { getInboundAddress } from '../app/ereceipts/inbound.server'
import { receiveForwardedEmail } from '../app/receipts/forwarded.server'
import * as guidePage from '../app/routes/e-receipts'
import * as helpPage from '../app/routes/help'
import * as homePage from '../app/routes/home'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { useDkimDns } from './utils/dkim-env'
import { makeTrip, signedNewsletter, signedReceipt } from './utils/ereceipts'
import { renderRoute, textOf } from './utils/render'
import { signInNewUser } from './utils/requests'

const dns = useDkimDns()
afterAll(() => {
  delete process.env.INBOUND_DOMAIN
  resetEnvCache()
})

function setInbound(domain: string | null) {
  if (domain) process.env.INBOUND_DOMAIN = domain
  else delete process.env.INBOUND_DOMAIN
  resetEnvCache()
}

describe('the e-receipt guide', () => {
  it('lists the built-in and configured senders, the steps for Gmail, Apple Mail and Outlook, and the personal address', async () => {
    setInbound('in.recircle.test')
    const { cookie } = await signInNewUser()
    const text = textOf(await renderRoute('/e-receipts', guidePage, '/e-receipts', cookie))
    for (const name of ['Uber', 'Lyft', 'Lime', 'Bird', 'Zipcar']) expect(text).toContain(name)
    for (const app of ['Gmail', 'Apple Mail', 'Outlook']) expect(text).toContain(app)
    expect(text).toContain('Forward as attachment')
    expect(text).toContain('Forward every receipt automatically')
    expect(text).toContain('Save it as an .eml to upload')
    expect(text).toMatch(/@in\.recircle\.test/)
  })

  it('says when forwarding is not set up, and explains upload', async () => {
    setInbound(null)
    const { cookie } = await signInNewUser()
    const html = await renderRoute('/e-receipts', guidePage, '/e-receipts', cookie)
    expect(textOf(html)).toContain('Forwarding by e-mail is not set up on this ReCircle server')
    expect(textOf(html)).not.toContain('Forward every receipt automatically')
  })

  it('is reached from Help', async () => {
    const html = await renderRoute('/help', helpPage, '/help?topic=scanning', undefined)
    expect(html).toContain('href="/e-receipts"')
  })
})

describe('a forwarded receipt on Home', () => {
  it('shows "Uber receipt received by e-mail, +19.0 B3TR" once credited, and a refused forward with its reason', async () => {
    setInbound('in.recircle.test')
    const { user, cookie } = await signInNewUser()
    const address = (await getInboundAddress(getDb(), user.id))!
    const trip = makeTrip(process.pid + 31, new Date(Date.now() - 86_400_000), `rider-${crypto.randomUUID()}@example.org`)
    const credited = await receiveForwardedEmail(getDb(), { recipients: [address], raw: await signedReceipt(dns.current, 'Uber', trip) })
    expect(credited).toMatchObject({ ok: true, status: 'approved' })
    const refused = await receiveForwardedEmail(getDb(), { recipients: [address], raw: await signedNewsletter(dns.current) })
    expect(refused.ok).toBe(false)
    const text = textOf(await renderRoute('/home', homePage, '/home', cookie))
    expect(text).toContain('Uber receipt received by e-mail, +19.0 B3TR')
    expect(text).toContain('E-mailed receipt not accepted')
    if (!refused.ok) expect(text).toContain(refused.error)
  })
})

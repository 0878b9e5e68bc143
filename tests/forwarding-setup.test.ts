/**
 * Issue 39: e-receipts set up once. Real SMTP sessions and the webhook deliver to a rider's
 * forwarding address; DKIM keys (google.com's and the services') come from a DNS server on the
 * loopback. Gmail's forwarding confirmation is shown to its owner alone and a forged one refused; a
 * receipt relayed by automatic forwarding is credited once; an inline forward from each phone app
 * goes to review for a new wallet; an honest sender is served during a flood; and without
 * INBOUND_DOMAIN no screen offers forwarding.
 */
import crypto from 'node:crypto'
import net from 'node:net'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { oddFileMessage } from '../app/analysis/file-kinds'
import { INLINE_FORWARD_REASON } from '../app/analysis/inline-forward'
import { getInboundAddress } from '../app/ereceipts/inbound.server'
import { admitSession, startInboundSmtp, type InboundSmtp } from '../app/ereceipts/smtp.server'
import { signDelivery } from '../app/ereceipts/webhook.server'
import { INLINE_FORWARD_NOTE, receiveForwardedEmail } from '../app/receipts/forwarded.server'
import { listConfirmations, purgeExpiredConfirmations } from '../app/receipts/forwarding-confirmations.server'
import { approveReceipt } from '../app/receipts/review.server'
import { getStanding } from '../app/receipts/standing.server'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { countActionsToday } from '../app/rewards/daily-limit.server'
import * as guidePage from '../app/routes/e-receipts'
import * as helpPage from '../app/routes/help'
import * as homePage from '../app/routes/home'
import * as receiptsPage from '../app/routes/receipts'
import * as reviewPage from '../app/routes/admin.receipts/route'
import * as scanPage from '../app/routes/scan/route'
import { action as inboundAction } from '../app/routes/api.inbound-email'
import { action as homeAction } from '../app/routes/home'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { useDkimDns } from './utils/dkim-env'
import { makeTrip, signedReceipt } from './utils/ereceipts'
import { autoForwarded, confirmationLink, gmailConfirmation } from './utils/forwarding'
import { forwardInlineFrom, PHONE_APPS } from './utils/inline-forwards'
import { renderRoute, textOf } from './utils/render'
import { BASE_URL, bodyOf, formRequest, jsonRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

const dns = useDkimDns()
const SECRET = 'inbound-webhook-secret-for-forwarding'
const DOMAIN = 'in.recircle.test'

function setInbound(domain: string | null) {
  if (domain) process.env.INBOUND_DOMAIN = domain
  else delete process.env.INBOUND_DOMAIN
  resetEnvCache()
}

let smtp: InboundSmtp
beforeAll(async () => {
  process.env.INBOUND_WEBHOOK_SECRET = SECRET
  setInbound(DOMAIN)
  smtp = await startInboundSmtp(getDb(), { port: 0, host: '127.0.0.1', receive: receiveForwardedEmail })
})
afterAll(async () => {
  await smtp.close()
  delete process.env.INBOUND_WEBHOOK_SECRET
  setInbound(null)
})

async function rider() {
  setInbound(DOMAIN)
  const { user, cookie } = await signInNewUser()
  return { user, cookie, address: (await getInboundAddress(getDb(), user.id))! }
}

/** One SMTP delivery; the server's reply, accepted or refused. */
async function deliver(raw: Buffer, to: string, opts: { from?: string; localAddress?: string; port?: number } = {}) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: opts.port ?? smtp.port, secure: false, ignoreTLS: true, localAddress: opts.localAddress })
  try {
    const info = await transport.sendMail({ envelope: { from: opts.from ?? 'someone@gmail.com', to: [to] }, raw })
    return { code: 250, response: info.response }
  } catch (error) {
    const e = error as { responseCode?: number; response?: string; message: string }
    return { code: e.responseCode ?? 0, response: e.response ?? e.message }
  } finally {
    transport.close()
  }
}

const yesterday = () => new Date(Date.now() - 86_400_000)
let seed = process.pid * 7

const receiptsOf = (userId: number) =>
  getDb().selectFrom('receipts').select(['id', 'status', 'verified_sender', 'review_reasons_json']).where('user_id', '=', userId).orderBy('id').execute()

describe("Gmail's forwarding confirmation", () => {
  it('is shown to its owner alone, with its code and link, on Home and /e-receipts; never a receipt or an action of the day', async () => {
    const owner = await rider()
    const code = '738291046'
    const link = confirmationLink()
    const reply = await deliver(await gmailConfirmation(dns.current, { to: owner.address, code, link }), owner.address, { from: 'forwarding-noreply@google.com' })
    expect(reply.code).toBe(250)
    expect(reply.response).toMatch(/Forwarding confirmation received/)
    // The SMTP answer carries neither the code nor the link.
    expect(reply.response).not.toContain(code)
    expect(reply.response).not.toContain('mail-settings')

    const home = await renderRoute('/home', homePage, '/home', owner.cookie)
    expect(textOf(home)).toContain(`Confirmation code: ${code}`)
    expect(textOf(home)).toContain('Confirm forwarding from Gmail')
    expect(textOf(home)).toContain('Gmail (s…r@gmail.com) asks to forward mail to your ReCircle address')
    expect(home).toContain(`href="${link}"`)
    expect(home).toContain('rel="noopener noreferrer"')
    // No cache keeps a page with the link.
    const homeData = await homePage.loader({ request: new Request(`${BASE_URL}/home`, { headers: { Cookie: owner.cookie } }), params: {}, context: {} })
    expect(homeData.headers.get('Cache-Control')).toBe('private, no-store')
    const guide = await renderRoute('/e-receipts', guidePage, '/e-receipts', owner.cookie)
    expect(textOf(guide)).toContain(code)
    expect(guide).toContain(`href="${link}"`)

    // Nobody else sees it.
    const other = await rider()
    for (const [path, page] of [['/home', homePage], ['/e-receipts', guidePage]] as const) {
      const html = await renderRoute(path, page, path, other.cookie)
      expect(html).not.toContain(code)
      expect(html).not.toContain(link)
    }

    // Not a receipt, no action of the day, no notice of a refusal.
    expect(await receiptsOf(owner.user.id)).toEqual([])
    expect(await countActionsToday(getDb(), owner.user.id)).toBe(0)
    expect(textOf(home)).not.toContain('not accepted')

    // Done hides it; another user's Done changes nothing.
    const [shown] = await listConfirmations(getDb(), owner.user.id)
    await homeAction({ request: formRequest('/home', { intent: 'dismiss-confirmation', confirmationId: String(shown.id) }, other.cookie), params: {}, context: {} })
    expect(await listConfirmations(getDb(), owner.user.id)).toHaveLength(1)
    const done = await homeAction({ request: formRequest('/home', { intent: 'dismiss-confirmation', confirmationId: String(shown.id) }, owner.cookie), params: {}, context: {} })
    expect(done.status).toBe(302)
    expect(await listConfirmations(getDb(), owner.user.id)).toEqual([])
  })

  it('is kept once when delivered twice, and expires', async () => {
    const owner = await rider()
    const raw = await gmailConfirmation(dns.current, { to: owner.address })
    expect((await deliver(raw, owner.address)).code).toBe(250)
    expect((await deliver(raw, owner.address)).code).toBe(250)
    expect(await listConfirmations(getDb(), owner.user.id)).toHaveLength(1)
    const later = new Date(Date.now() + 73 * 3600_000)
    expect(await listConfirmations(getDb(), owner.user.id, later)).toEqual([])
    expect(await purgeExpiredConfirmations(getDb(), later)).toBeGreaterThanOrEqual(1)
    expect(await getDb().selectFrom('forwarding_confirmations').select('id').where('user_id', '=', owner.user.id).execute()).toEqual([])
  })

  it('arrives by the webhook too: 200, without its code or link', async () => {
    const owner = await rider()
    const raw = await gmailConfirmation(dns.current, { to: owner.address, code: '555123987' })
    const headers = signDelivery({ secret: SECRET, body: raw, recipient: owner.address, token: crypto.randomBytes(12).toString('hex'), timestamp: Math.floor(Date.now() / 1000) })
    const res = await inboundAction({ request: new Request(`${BASE_URL}/api/inbound-email`, { method: 'POST', body: new Uint8Array(raw), headers }), params: {}, context: {} })
    expect(res.status).toBe(200)
    const body = await bodyOf(res)
    expect(body).toEqual({ confirmation: 'gmail' })
    expect((await listConfirmations(getDb(), owner.user.id))[0]).toMatchObject({ code: '555123987' })
  })

  it.each([
    ['unsigned', null],
    ['signed by another domain', 'gmail-forwarding.example'],
    ["signed by a Gmail user's domain", 'gmail.com'],
  ])('refuses a forged one (%s): 550, nothing kept, a notice on Home', async (_name, signedBy) => {
    const owner = await rider()
    const raw = await gmailConfirmation(dns.current, { to: owner.address, code: '111222333', signedBy })
    const reply = await deliver(raw, owner.address)
    expect(reply.code).toBe(550)
    expect(reply.response).toMatch(/signature is missing or does not verify/)
    expect(await listConfirmations(getDb(), owner.user.id)).toEqual([])
    const home = textOf(await renderRoute('/home', homePage, '/home', owner.cookie))
    expect(home).not.toContain('111222333')
    expect(home).toContain('E-mailed receipt not accepted')
  })

  it("refuses one sent for another rider's address", async () => {
    const owner = await rider()
    const victim = await rider()
    const raw = await gmailConfirmation(dns.current, { to: owner.address })
    const reply = await deliver(raw, victim.address)
    expect(reply.code).toBe(550)
    expect(reply.response).toMatch(/another ReCircle address/)
    expect(await listConfirmations(getDb(), victim.user.id)).toEqual([])
  })
})

describe('a receipt relayed by automatic forwarding', () => {
  it('is verified and credited once: the original unchanged, a new envelope sender', async () => {
    const owner = await rider()
    const mailbox = `rider-${crypto.randomUUID()}@gmail.com`
    const original = await signedReceipt(dns.current, 'Uber', makeTrip(++seed, yesterday(), mailbox))
    const relayed = autoForwarded(original, { mailbox, to: owner.address })
    const envelopeFrom = mailbox.replace('@', `+caf_=${owner.address.replace('@', '=')}@`)
    const first = await deliver(relayed, owner.address, { from: envelopeFrom })
    expect(first).toMatchObject({ code: 250 })
    expect(first.response).toMatch(/Receipt credited/)
    const balance = await getBalanceMilli(getDb(), owner.user.id)
    expect(balance).toBeGreaterThan(0)
    // Gmail retries a delivery it thinks failed: it pays once.
    const again = await deliver(relayed, owner.address, { from: envelopeFrom })
    expect(again.code).toBe(550)
    expect(await getBalanceMilli(getDb(), owner.user.id)).toBe(balance)
    expect(await receiptsOf(owner.user.id)).toMatchObject([{ status: 'approved', verified_sender: 'uber.com' }])
  })
})

describe('an inline forward from a phone', () => {
  const variants = PHONE_APPS.flatMap((app) => [false, true].map((html) => [app, html] as const))
  it.each(variants)('%s (HTML %s): read, in review for a new wallet, never a verified e-receipt', async (app, html) => {
    const owner = await rider()
    const original = await signedReceipt(dns.current, 'Lyft', makeTrip(++seed, yesterday()))
    const raw = await forwardInlineFrom(app, original, { from: 'me@gmail.com', to: owner.address, html })
    const reply = await deliver(raw, owner.address, { from: 'me@gmail.com' })
    expect(reply.code).toBe(250)
    expect(reply.response).toMatch(/received for review/)
    expect(reply.response).toContain('Automatic forwarding')
    const [receipt] = await receiptsOf(owner.user.id)
    expect(receipt).toMatchObject({ status: 'pending_review', verified_sender: null })
    const analysis = await getDb().selectFrom('receipts').select('analysis_json').where('id', '=', receipt.id).executeTakeFirstOrThrow()
    expect(JSON.parse(analysis.analysis_json)).toMatchObject({ inlineForward: true, storeName: 'Lyft', verifiedSender: null, ereceipt: null })
    expect(JSON.parse(analysis.analysis_json).reasons).toContain(INLINE_FORWARD_REASON)
    // It gives no standing of its own.
    expect(await getStanding(getDb(), owner.user.id, null)).toMatchObject({ established: false, reason: 'new_wallet' })
    expect(textOf(await renderRoute('/home', homePage, '/home', owner.cookie))).toContain(INLINE_FORWARD_NOTE)
  })

  it("once staff approve it, it counts as a staff approval (decision 110), never as a verified e-receipt", async () => {
    const owner = await rider()
    const original = await signedReceipt(dns.current, 'Lime', makeTrip(++seed, yesterday()))
    await deliver(await forwardInlineFrom('iphone', original, { from: 'me@icloud.com', to: owner.address, html: true }), owner.address)
    const [receipt] = await receiptsOf(owner.user.id)
    const admin = await signInNewUser(ADMIN_WALLET)
    // Staff see what it is, and its quoted text instead of a picture.
    const queue = textOf(await renderRoute('/admin/receipts', reviewPage, '/admin/receipts', admin.cookie))
    expect(queue).toContain('Forwarded inline: its sender could not be verified. Judge it like a photo')
    expect(queue).toContain('Read by the text of an inline forward')
    expect(await approveReceipt(getDb(), { adminUserId: admin.user.id, receiptId: receipt.id })).toEqual({ ok: true })
    expect(await getStanding(getDb(), owner.user.id, null)).toEqual({ established: true, reason: 'staff_approved' })
    expect((await receiptsOf(owner.user.id))[0].verified_sender).toBeNull()
  })
})

describe('the SMTP listener during a flood', () => {
  it('admits by a share per address and keeps the last sessions for new addresses', () => {
    const limits = { maxClients: 100, perAddress: 4, reserved: 10 }
    expect(admitSession(limits, 0, 0)).toBeNull()
    expect(admitSession(limits, 50, 4)).toMatch(/from your address/)
    expect(admitSession(limits, 89, 2)).toBeNull()
    expect(admitSession(limits, 90, 1)).toMatch(/Busy/)
    expect(admitSession(limits, 99, 0)).toBeNull()
    expect(admitSession(limits, 100, 0)).toMatch(/Too many connected clients/)
  })

  /** A session that connects and waits: its greeting. */
  function hold(port: number, localAddress: string, sockets: net.Socket[]) {
    return new Promise<string>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress })
      sockets.push(socket)
      let data = ''
      socket.on('data', (chunk) => {
        data += chunk.toString()
        if (/\r\n/.test(data)) resolve(data.slice(0, 3))
      })
      socket.on('error', () => resolve('err'))
      socket.on('close', () => resolve(data.slice(0, 3) || 'closed'))
    })
  }

  it.each([
    ['10 connections from each of 11 addresses', 11, 10],
    ['4 connections from each of 30 addresses', 30, 4],
  ])('serves an honest forward during %s', async (_name, addresses, each) => {
    const flooded = await startInboundSmtp(getDb(), { port: 0, host: '127.0.0.1', receive: receiveForwardedEmail })
    const sockets: net.Socket[] = []
    try {
      const greetings: Array<Promise<string>> = []
      for (let a = 0; a < addresses; a++) for (let c = 0; c < each; c++) greetings.push(hold(flooded.port, `127.0.${a + 10}.1`, sockets))
      const codes = await Promise.all(greetings)
      expect(codes.filter((c) => c === '220').length).toBeLessThanOrEqual(100)
      const owner = await rider()
      const original = await signedReceipt(dns.current, 'Uber', makeTrip(++seed, yesterday(), `rider-${crypto.randomUUID()}@example.org`))
      const reply = await deliver(autoForwarded(original, { mailbox: 'me@gmail.com', to: owner.address }), owner.address, { port: flooded.port, localAddress: '127.0.200.1' })
      expect(reply.response).toMatch(/Receipt credited/)
    } finally {
      for (const s of sockets) s.destroy()
      await flooded.close()
    }
  })
})

describe('without an inbound domain', () => {
  it('no screen offers forwarding: Scan, Help, the e-receipts page, Home, My Receipts', async () => {
    setInbound(null)
    try {
      const { cookie } = await signInNewUser()
      const pages = await Promise.all([
        renderRoute('/scan', scanPage, '/scan', cookie),
        renderRoute('/help', helpPage, '/help?topic=scanning', cookie),
        renderRoute('/e-receipts', guidePage, '/e-receipts', cookie),
        renderRoute('/home', homePage, '/home', cookie),
        renderRoute('/receipts', receiptsPage, '/receipts', cookie),
      ])
      for (const html of pages) {
        const text = textOf(html)
        expect(text).not.toMatch(/forward (?:an|it|one|every|the receipt|your)|personal ReCircle address|Forward as attachment|forwarding address/i)
        expect(html).not.toContain('data-testid="inbound-address"')
      }
      expect(textOf(pages[2])).toContain('Save it as an .eml to upload')
      expect(textOf(pages[1])).toContain('Save it as an .eml file and upload it on Scan')
    } finally {
      setInbound(DOMAIN)
    }
  })
})

describe('odd files', () => {
  const dataUrl = (raw: Buffer, type = 'application/octet-stream') => `data:${type};base64,${raw.toString('base64')}`
  async function validate(bytes: Buffer) {
    const { cookie } = await signInNewUser()
    const res = await validateAction({ request: jsonRequest('/api/receipts/validate', { image: dataUrl(bytes) }, { headers: { Cookie: cookie } }), params: {}, context: {} })
    return { status: res.status, error: (await bodyOf(res)).error as string }
  }

  it('an .eml whose first header is 70 KB: its header section is too large', async () => {
    const eml = Buffer.from(`X-Pad: ${'a'.repeat(70 * 1024)}\r\nFrom: noreply@uber.com\r\nTo: a@b.c\r\n\r\nTotal $5.00\r\n`)
    expect(await validate(eml)).toEqual({ status: 400, error: 'This e-mail could not be read: its header section is too large.' })
  })

  it.each([
    ['a PDF', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n'), oddFileMessage('pdf')],
    ['a .txt', Buffer.from('Uber, $12.40, yesterday\n'), oddFileMessage('text')],
  ])('%s: says what it is and what is accepted', async (_name, bytes, message) => {
    expect(await validate(bytes)).toEqual({ status: 400, error: message })
  })

  it('an empty file chosen on Scan: says it is empty', async () => {
    const { cookie } = await signInNewUser()
    const form = new FormData()
    form.set('image', new Blob([], { type: 'image/jpeg' }), 'receipt.jpg')
    const res = await scanPage.action({ request: new Request(`${BASE_URL}/scan`, { method: 'POST', body: form, headers: { Cookie: cookie } }), params: {}, context: {} })
    expect(res.status).toBe(400)
    expect((await bodyOf(res)).error).toBe(oddFileMessage('empty'))
  })
})

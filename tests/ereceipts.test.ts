/**
 * Issue 21: e-receipts that prove themselves. Every e-mail here is signed with a test key that a real
 * DNS server on the loopback publishes; the app reads it through DNS_SERVERS, verifies with mailauth
 * and pays through the same submission code as a photo.
 */
import crypto from 'node:crypto'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startInboundSmtp, type InboundSmtp } from '../app/ereceipts/smtp.server'
import { receiveForwardedEmail } from '../app/receipts/forwarded.server'
import { getBalanceMilli } from '../app/rewards/ledger.server'
import { action as submitAction } from '../app/routes/api.receipts'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { action as inboundAction } from '../app/routes/api.inbound-email'
import { loader as inboundAddressLoader } from '../app/routes/api.users.$id.inbound-address'
import { loader as receiptsLoader } from '../app/routes/api.users.$id.receipts'
import { action as reviewAction } from '../app/routes/admin.receipts/route'
import { listUserTransactions } from '../app/users/history.server'
import { analyzeEReceipt } from '../app/analysis/email-analysis.server'
import { mailboxHash } from '../app/ereceipts/read.server'
import { createResolver } from '../app/ereceipts/dkim.server'
import { signDelivery } from '../app/ereceipts/webhook.server'
import { approveReceipt } from '../app/receipts/review.server'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { INLINE_FORWARD_REASON } from '../app/analysis/inline-forward'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { startDkimDns, type DkimDns } from './utils/dkim-dns'
import {
  forwardAsAttachment,
  forwardInline,
  lengthExtended,
  makeTrip,
  NON_TRIP_SAMPLES,
  resignedByOther,
  rewriteHeader,
  signedNonTrip,
  signedWithHeaders,
  withFakeSignatures,
  withSecondHeader,
  signedNewsletter,
  signedReceipt,
  tamperTotal,
  TEST_EXTRA_SENDERS,
  unalignedReceipt,
  weakKeyReceipt,
  withSecondFrom,
} from './utils/ereceipts'
import { bodyOf, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

const ctx = { context: {}, params: {} }
const SECRET = 'inbound-webhook-secret-for-tests'
let dns: DkimDns
let seed = 0

beforeAll(async () => {
  dns = await startDkimDns()
  process.env.DNS_SERVERS = dns.server
  process.env.ERECEIPT_SENDERS = TEST_EXTRA_SENDERS
  process.env.INBOUND_DOMAIN = 'in.recircle.test'
  process.env.INBOUND_WEBHOOK_SECRET = SECRET
  resetEnvCache()
})
afterAll(async () => {
  await dns.close()
  for (const k of ['DNS_SERVERS', 'ERECEIPT_SENDERS', 'INBOUND_DOMAIN', 'INBOUND_WEBHOOK_SECRET']) delete process.env[k]
  resetEnvCache()
})

/** A trip two days ago (inside the window), for its own mailbox unless one is given. */
function trip(to?: string) {
  seed += 1
  return makeTrip(seed + process.pid, new Date(Date.now() - 2 * 86_400_000), to ?? `rider-${crypto.randomUUID()}@example.org`)
}

const dataUrl = (raw: Buffer) => `data:message/rfc822;base64,${raw.toString('base64')}`

async function validate(cookie: string, raw: Buffer) {
  const res = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', { image: dataUrl(raw) }, { headers: { Cookie: cookie } }) })
  return { status: res.status, body: await bodyOf(res) }
}

async function submit(cookie: string, analysis: { analysisId: number; totalAmount: number; purchaseDate: string; category: string }) {
  const res = await submitAction({
    ...ctx,
    request: jsonRequest(
      '/api/receipts',
      { analysisId: analysis.analysisId, amount: analysis.totalAmount, purchaseDate: analysis.purchaseDate, category: analysis.category },
      { headers: { Cookie: cookie } },
    ),
  })
  return { status: res.status, body: await bodyOf(res) }
}

async function analysesOf(userId: number) {
  return getDb().selectFrom('receipt_analyses').select('id').where('user_id', '=', userId).execute()
}

describe('uploading an .eml', () => {
  it.each(['Uber', 'Lyft', 'Lime', 'Bird', 'Bolt', 'Via', 'Revel', 'Citi Bike', 'Zipcar'])('verifies, reads and pays a %s e-receipt', async (service) => {
    const { user, cookie } = await signInNewUser()
    const t = trip()
    const validated = await validate(cookie, await signedReceipt(dns, service, t))
    expect(validated.status).toBe(200)
    expect(validated.body).toMatchObject({
      storeName: service,
      totalAmount: t.totalCents / 100,
      purchaseDate: t.date.toISOString().slice(0, 10),
      isAcceptable: true,
      needsManualReview: false,
      reader: 'email',
      refusal: null,
    })
    expect(validated.body.verifiedSender).toMatch(/\./)
    const submitted = await submit(cookie, validated.body)
    expect(submitted.status).toBe(201)
    expect(submitted.body.status).toBe('approved')
    expect(await getBalanceMilli(getDb(), user.id)).toBeGreaterThan(0)
    const history = await listUserTransactions(getDb(), user.id)
    expect(history.find((h) => h.type === 'receipt_verification')?.verifiedSender).toBe(validated.body.verifiedSender)
    const receipts = await bodyOf(await receiptsLoader({ ...ctx, request: getRequest(`/api/users/${user.id}/receipts`, cookie), params: { id: String(user.id) } }))
    expect(receipts[0].verifiedSender).toBe(validated.body.verifiedSender)
  })

  it('takes a multipart upload of an .eml file, and a photo still goes the photo way', async () => {
    const { cookie } = await signInNewUser()
    const form = new FormData()
    form.set('image', new Blob([new Uint8Array(await signedReceipt(dns, 'Uber', trip()))], { type: 'message/rfc822' }), 'receipt.eml')
    const res = await validateAction({ ...ctx, request: new Request('http://localhost:3000/api/receipts/validate', { method: 'POST', body: form, headers: { Cookie: cookie } }) })
    expect(res.status).toBe(200)
    expect((await bodyOf(res)).verifiedSender).toBe('uber.com')
  })

  it("accepts Lyft's expired x= for a receipt inside the window, and records that it was expired", async () => {
    const { cookie } = await signInNewUser()
    const validated = await validate(cookie, await signedReceipt(dns, 'Lyft', trip()))
    expect(validated.body.isAcceptable).toBe(true)
    expect(validated.body.ereceipt.signatureExpired).toBe(true)
  })

  it('unwraps a receipt forwarded as an attachment', async () => {
    const { cookie } = await signInNewUser()
    const original = await signedReceipt(dns, 'Lime', trip())
    const validated = await validate(cookie, await forwardAsAttachment(original, 'me@example.org', 'r-whatever@in.recircle.test'))
    expect(validated.body).toMatchObject({ verifiedSender: 'li.me', isAcceptable: true })
    expect(validated.body.ereceipt.forwarded).toBe(true)
  })
})

describe('what never pays (4xx with a clear message, nothing stored)', () => {
  const cases: Array<[string, () => Promise<Buffer>, number, RegExp]> = [
    ['a total changed after signing', async () => { const t = trip(); return tamperTotal(await signedReceipt(dns, 'Uber', t), t) }, 400, /signature does not verify/],
    ['the text re-signed by another domain', () => resignedByOther(dns, 'Uber', trip()), 400, /no signature from the service/],
    ['a body extended past its l= length', () => lengthExtended(dns, 'Lyft', trip()), 400, /covers only part of its text/],
    ['a 512-bit key', () => weakKeyReceipt(dns, 'Uber', trip()), 400, /key too short/],
    ['a second From header', async () => withSecondFrom(await signedReceipt(dns, 'Lime', trip()), 'Lime <no-reply@li.me>'), 400, /repeats a header/],
    ['a From that does not align with d=', () => unalignedReceipt(dns, trip()), 400, /does not match the domain that signed it/],
    ['a signed newsletter', () => signedNewsletter(dns), 422, /does not look like a trip receipt/],
    ['an unknown sender', async () => Buffer.from('From: shop@example.com\r\nTo: me@example.org\r\nSubject: hi\r\n\r\nTotal $5.00\r\n'), 400, /services we know/],
    ['malformed MIME', async () => Buffer.from('From: noreply@uber.com\r\nContent-Type: multipart/mixed; boundary="x"\r\nSubject: a\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<p>'), 400, /signature|read/],
    ['huge headers', async () => Buffer.from(`From: noreply@uber.com\r\nTo: a@b.c\r\nX-Pad: ${'a'.repeat(70 * 1024)}\r\n\r\nbody`), 400, /header section is too large/],
    ['deep nesting', async () => {
      let body = 'Content-Type: text/plain\r\n\r\nTotal $5\r\n'
      for (let i = 0; i < 40; i++) body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}--b${i}--\r\n`
      return Buffer.from(`From: noreply@uber.com\r\nTo: a@b.c\r\nMIME-Version: 1.0\r\n${body}`)
    }, 400, /could not be read as an e-mail/],
    ['an attachment bomb', async () => {
      const parts = Array.from({ length: 200 }, (_, i) => `--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="f${i}.bin"\r\n\r\nAAAA\r\n`).join('')
      return Buffer.from(`From: noreply@uber.com\r\nTo: a@b.c\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`)
    }, 400, /too many attachments/],
  ]
  it.each(cases)('refuses %s', async (_name, make, status, message) => {
    const { user, cookie } = await signInNewUser()
    const result = await validate(cookie, await make())
    expect(result.status).toBe(status)
    expect(result.body.error).toMatch(message)
    expect(await analysesOf(user.id)).toHaveLength(0)
  })

  // Issue 39 changed this: an inline forward was refused (400, "Forward it as an attachment"); it is
  // now read like a photo, never as a verified e-receipt (tests/forwarding-setup.test.ts).
  it('reads an inline forward, never as a verified e-receipt', async () => {
    const { cookie } = await signInNewUser()
    const result = await validate(cookie, await forwardInline(await signedReceipt(dns, 'Uber', trip()), 'me@example.org', 'friend@example.org'))
    expect(result.status).toBe(200)
    expect(result.body).toMatchObject({ verifiedSender: null, ereceipt: null, inlineForward: true })
    expect(result.body.reasons).toContain(INLINE_FORWARD_REASON)
  })

  it('answers a DNS failure with a retryable 503, not a refusal', async () => {
    const { cookie } = await signInNewUser()
    const raw = await signedReceipt(dns, 'Via', trip())
    dns.fail('v1._domainkey.ridewithvia.com')
    try {
      const res = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', { image: dataUrl(raw) }, { headers: { Cookie: cookie } }) })
      expect(res.status).toBe(503)
      expect(res.headers.get('Retry-After')).toBeTruthy()
      expect((await bodyOf(res)).error).toMatch(/try again/)
    } finally {
      dns.reset()
    }
  })
})

describe('once across everyone', () => {
  it('pays a replayed e-mail once, whoever sends it again', async () => {
    const raw = await signedReceipt(dns, 'Uber', trip())
    const first = await signInNewUser()
    const a = await validate(first.cookie, raw)
    expect((await submit(first.cookie, a.body)).status).toBe(201)
    const second = await signInNewUser()
    // The one intake refuses the same bytes before reading them (issue 36).
    const b = await validate(second.cookie, raw)
    expect(b.status).toBe(409)
    expect(b.body.error).toBe('This receipt has already been submitted.')
    expect(await getBalanceMilli(getDb(), second.user.id)).toBe(0)
  })

  it('pays 10 concurrent submissions of one e-mail by 10 wallets once', async () => {
    const raw = await signedReceipt(dns, 'Bolt', trip())
    const users = await Promise.all(Array.from({ length: 10 }, () => signInNewUser()))
    const analyses = await Promise.all(users.map((u) => validate(u.cookie, raw)))
    const results = await Promise.all(users.map((u, i) => submit(u.cookie, analyses[i].body)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(9)
  })

  it('binds a mailbox to the first wallet; staff can move it', async () => {
    const mailbox = `shared-${crypto.randomUUID()}@example.org`
    const owner = await signInNewUser()
    const first = await validate(owner.cookie, await signedReceipt(dns, 'Lime', trip(mailbox)))
    expect((await submit(owner.cookie, first.body)).status).toBe(201)

    const other = await signInNewUser()
    const raw = await signedReceipt(dns, 'Lime', trip(mailbox))
    const second = await validate(other.cookie, raw)
    expect(second.body.refusal?.code).toBe('mailbox')
    const refused = await submit(other.cookie, second.body)
    expect(refused.status).toBe(409)
    expect(refused.body.error).toMatch(/linked to another wallet/)

    const admin = await signInNewUser(ADMIN_WALLET)
    const moved = await reviewAction({
      ...ctx,
      request: formRequest('/admin/receipts', { intent: 'rebind', mailbox: mailbox.toUpperCase(), wallet: other.user.walletAddress }, admin.cookie),
    })
    expect(moved.status).toBe(302)
    const again = await validate(other.cookie, raw)
    expect(again.body.refusal).toBeNull()
    expect((await submit(other.cookie, again.body)).status).toBe(201)
  })
})

describe('forwarding', () => {
  async function addressOf(user: { id: number }, cookie: string) {
    const res = await inboundAddressLoader({ ...ctx, request: getRequest(`/api/users/${user.id}/inbound-address`, cookie), params: { id: String(user.id) } })
    return (await bodyOf(res)).address as string
  }

  it('gives each user one stable personal address, and nobody else theirs', async () => {
    const { user, cookie } = await signInNewUser()
    const address = await addressOf(user, cookie)
    expect(address).toMatch(/^r-[a-z2-9]{12}@in\.recircle\.test$/)
    expect(await addressOf(user, cookie)).toBe(address)
    const other = await signInNewUser()
    await expect(inboundAddressLoader({ ...ctx, request: getRequest(`/api/users/${user.id}/inbound-address`, other.cookie), params: { id: String(user.id) } })).rejects.toMatchObject({ status: 403 })
  })

  /** The provider's signed headers for a delivery (app/ereceipts/webhook.server.ts). */
  function deliveryHeaders(raw: Buffer, to: string, over: { token?: string; timestamp?: number } = {}) {
    const token = over.token ?? crypto.randomBytes(16).toString('hex')
    return signDelivery({ secret: SECRET, body: raw, recipient: to, token, timestamp: over.timestamp ?? Math.floor(Date.now() / 1000) })
  }

  function post(raw: Buffer, headers: Record<string, string>) {
    const all = { 'Content-Type': 'message/rfc822', ...headers }
    return inboundAction({ ...ctx, request: new Request('http://localhost:3000/api/inbound-email', { method: 'POST', body: new Uint8Array(raw), headers: all }) })
  }

  function webhook(raw: Buffer, opts: { signature?: string; to: string }) {
    const headers = deliveryHeaders(raw, opts.to)
    if (opts.signature) headers['X-Inbound-Signature'] = opts.signature
    return post(raw, headers)
  }

  it('credits a receipt posted by the provider webhook to the address owner', async () => {
    const { user, cookie } = await signInNewUser()
    const address = await addressOf(user, cookie)
    const forwarded = await forwardAsAttachment(await signedReceipt(dns, 'Uber', trip()), 'me@example.org', address)
    const res = await webhook(forwarded, { to: address })
    expect(res.status).toBe(201)
    expect((await bodyOf(res)).status).toBe('approved')
    const history = await listUserTransactions(getDb(), user.id)
    expect(history.some((h) => h.type === 'receipt_verification' && h.verifiedSender === 'uber.com')).toBe(true)
  })

  it('refuses a webhook post without the right HMAC, or for nobody', async () => {
    const raw = await signedReceipt(dns, 'Uber', trip())
    expect((await webhook(raw, { signature: 'ab'.repeat(32), to: 'r-nobodyhere00@in.recircle.test' })).status).toBe(401)
    expect((await webhook(raw, { to: 'r-nobodyhere00@in.recircle.test' })).status).toBe(404)
  })

  describe('a captured delivery (issue 29)', () => {
    async function riderDelivery() {
      const rider = await signInNewUser()
      const address = await addressOf(rider.user, rider.cookie)
      const raw = await forwardAsAttachment(await signedReceipt(dns, 'Lime', trip()), 'me@example.org', address)
      return { rider, address, raw, headers: deliveryHeaders(raw, address) }
    }

    it('cannot be re-addressed: the signature covers the recipient, and the rider is still paid', async () => {
      const { rider, raw, headers } = await riderDelivery()
      const attacker = await signInNewUser()
      const attackerAddress = await addressOf(attacker.user, attacker.cookie)
      const readdressed = await post(raw, { ...headers, 'X-Inbound-Recipient': attackerAddress, 'X-Envelope-To': attackerAddress })
      expect(readdressed.status).toBe(401)
      expect(await getBalanceMilli(getDb(), attacker.user.id)).toBe(0)
      const genuine = await post(raw, headers)
      expect(genuine.status).toBe(201)
      expect(await getBalanceMilli(getDb(), rider.user.id)).toBeGreaterThan(0)
    })

    it('cannot be re-posted more than 5 minutes after it was signed', async () => {
      const { rider, raw, address } = await riderDelivery()
      const old = deliveryHeaders(raw, address, { timestamp: Math.floor(Date.now() / 1000) - 301 })
      const res = await post(raw, old)
      expect(res.status).toBe(401)
      expect((await bodyOf(res)).error).toMatch(/more than 5 minutes ago/)
      expect(await getBalanceMilli(getDb(), rider.user.id)).toBe(0)
    })

    it("answers the provider's retries of one delivery the same, and pays once", async () => {
      const { rider, raw, address } = await riderDelivery()
      const token = crypto.randomBytes(16).toString('hex')
      const first = await post(raw, deliveryHeaders(raw, address, { token }))
      expect(first.status).toBe(201)
      const answer = await bodyOf(first)
      const balance = await getBalanceMilli(getDb(), rider.user.id)
      // A retry is signed again, with a new timestamp; a replay of the very same request too.
      const retries = await Promise.all([post(raw, deliveryHeaders(raw, address, { token, timestamp: Math.floor(Date.now() / 1000) + 1 })), post(raw, deliveryHeaders(raw, address, { token }))])
      for (const retry of retries) {
        expect(retry.status).toBe(201)
        expect(await bodyOf(retry)).toEqual(answer)
      }
      expect(await getBalanceMilli(getDb(), rider.user.id)).toBe(balance)
      const receipts = await getDb().selectFrom('receipts').select('id').where('user_id', '=', rider.user.id).execute()
      expect(receipts).toHaveLength(1)
    })

    it('pays once when the same delivery arrives 5 times at once', async () => {
      const { rider, raw, address } = await riderDelivery()
      const token = crypto.randomBytes(16).toString('hex')
      const answers = await Promise.all(Array.from({ length: 5 }, () => post(raw, deliveryHeaders(raw, address, { token }))))
      expect(answers.every((a) => a.status === 201 || a.status === 503)).toBe(true)
      expect(answers.filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(1)
      const receipts = await getDb().selectFrom('receipts').select('id').where('user_id', '=', rider.user.id).execute()
      expect(receipts).toHaveLength(1)
    })

    it('refuses another message under a delivery id already used', async () => {
      const { raw, address } = await riderDelivery()
      const token = crypto.randomBytes(16).toString('hex')
      expect((await post(raw, deliveryHeaders(raw, address, { token }))).status).toBe(201)
      const other = await forwardAsAttachment(await signedReceipt(dns, 'Lime', trip()), 'me@example.org', address)
      const res = await post(other, deliveryHeaders(other, address, { token }))
      expect(res.status).toBe(409)
      expect((await bodyOf(res)).error).toMatch(/already used/)
    })

    it('runs a delivery again after a retryable answer (DNS down), and pays it then', async () => {
      const rider = await signInNewUser()
      const address = await addressOf(rider.user, rider.cookie)
      const raw = await forwardAsAttachment(await signedReceipt(dns, 'Via', trip()), 'me@example.org', address)
      const token = crypto.randomBytes(16).toString('hex')
      dns.fail('v1._domainkey.ridewithvia.com')
      let first: Response
      try {
        first = await post(raw, deliveryHeaders(raw, address, { token }))
      } finally {
        dns.reset()
      }
      expect(first.status).toBe(503)
      expect(first.headers.get('Retry-After')).toBeTruthy()
      await signedReceipt(dns, 'Via', trip()) // publishes the key again
      const retry = await post(raw, deliveryHeaders(raw, address, { token }))
      expect(retry.status).toBe(201)
      expect(await getBalanceMilli(getDb(), rider.user.id)).toBeGreaterThan(0)
    })
  })

  describe('SMTP listener', () => {
    let smtp: InboundSmtp
    beforeAll(async () => {
      smtp = await startInboundSmtp(getDb(), { port: 0, host: '127.0.0.1', receive: receiveForwardedEmail })
    })
    afterAll(async () => {
      await smtp.close()
    })
    const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true })

    it('credits a receipt forwarded as an attachment to the personal address', async () => {
      const { user, cookie } = await signInNewUser()
      const address = await addressOf(user, cookie)
      const forwarded = await forwardAsAttachment(await signedReceipt(dns, 'Citi Bike', trip()), 'me@example.org', address)
      const info = await transport().sendMail({ envelope: { from: 'me@example.org', to: [address] }, raw: forwarded })
      expect(info.response).toMatch(/credited/)
      const history = await listUserTransactions(getDb(), user.id)
      expect(history.some((h) => h.verifiedSender === 'citibikenyc.com')).toBe(true)
    })

    it('refuses unknown addresses at RCPT and bounces a tampered receipt with the reason', async () => {
      const raw = await signedReceipt(dns, 'Uber', trip())
      await expect(transport().sendMail({ envelope: { from: 'me@example.org', to: ['r-nobodyhere00@in.recircle.test'] }, raw })).rejects.toThrow(/No such ReCircle forwarding address/)
      const { user, cookie } = await signInNewUser()
      const address = await addressOf(user, cookie)
      const t = trip()
      const tampered = tamperTotal(await signedReceipt(dns, 'Uber', t), t)
      await expect(transport().sendMail({ envelope: { from: 'me@example.org', to: [address] }, raw: tampered })).rejects.toThrow(/signature does not verify/)
      expect(await getBalanceMilli(getDb(), user.id)).toBe(0)
    })
  })
})

describe('signed, but not a completed trip (issue 29)', () => {
  it.each(NON_TRIP_SAMPLES.map((sample) => [sample.name, sample] as const))('refuses %s and says why', async (_name, sample) => {
    const { user, cookie } = await signInNewUser()
    const result = await validate(cookie, await signedNonTrip(dns, sample, trip()))
    expect(result.status).toBe(422)
    expect(result.body.code).toBe(sample.kind)
    expect(result.body.error).toMatch(/not a trip|several trips|fee notice|pass, subscription/)
    expect(await analysesOf(user.id)).toHaveLength(0)
    expect(await getBalanceMilli(getDb(), user.id)).toBe(0)
  })
})

describe('the mailbox, the Date and the signature (issue 29)', () => {
  async function mailboxRow(address: string) {
    return getDb().selectFrom('ereceipt_mailboxes').select('user_id').where('address_hash', '=', mailboxHash(address)).executeTakeFirst()
  }

  it('never binds a mailbox from a To the signature does not cover', async () => {
    const victimMailbox = `victim-${crypto.randomUUID()}@example.org`
    const attacker = await signInNewUser()
    const unsignedTo = await signedWithHeaders(dns, 'Uber', trip(`attacker-${crypto.randomUUID()}@example.org`), ['from', 'subject', 'mime-version', 'content-type'])
    const rewritten = rewriteHeader(unsignedTo, 'To', victimMailbox)
    const a = await validate(attacker.cookie, rewritten)
    expect(a.status).toBe(200)
    expect(a.body.isAcceptable).toBe(false)
    expect(a.body.reasons).toContain("The e-mail's signature does not cover the address it was sent to.")
    expect((await submit(attacker.cookie, a.body)).body.status).toBe('pending_review')
    expect(await mailboxRow(victimMailbox)).toBeUndefined()

    const victim = await signInNewUser()
    const genuine = await validate(victim.cookie, await signedReceipt(dns, 'Uber', trip(victimMailbox)))
    expect(genuine.body.refusal).toBeNull()
    const paid = await submit(victim.cookie, genuine.body)
    expect(paid.status).toBe(201)
    expect(paid.body.status).toBe('approved')
    expect((await mailboxRow(victimMailbox))?.user_id).toBe(victim.user.id)
  })

  it('binds a mailbox on approval only: a receipt waiting for review takes nothing until staff approve it', async () => {
    const mailbox = `pending-${crypto.randomUUID()}@example.org`
    const rider = await signInNewUser()
    // Lyft signs Date: a trip dated after the e-mail was sent goes to review.
    const t = trip(mailbox)
    const raw = await signedWithHeaders(dns, 'Lyft', t, ['from', 'to', 'subject', 'date', 'mime-version', 'content-type'], new Date(t.date.getTime() - 3 * 86_400_000))
    const validated = await validate(rider.cookie, raw)
    expect(validated.body.reasons).toContain('The trip date in the e-receipt is later than the e-mail was sent.')
    const pending = await submit(rider.cookie, validated.body)
    expect(pending.body.status).toBe('pending_review')
    expect(await mailboxRow(mailbox)).toBeUndefined()

    const admin = await signInNewUser(ADMIN_WALLET)
    expect(await approveReceipt(getDb(), { adminUserId: admin.user.id, receiptId: pending.body.id })).toEqual({ ok: true })
    expect((await mailboxRow(mailbox))?.user_id).toBe(rider.user.id)
  })

  it('trusts a Date only when it is signed', async () => {
    const { cookie } = await signInNewUser()
    // Uber does not sign Date: rewriting it keeps the signature valid and decides nothing.
    const t = trip()
    const uber = rewriteHeader(await signedReceipt(dns, 'Uber', t), 'Date', new Date(t.date.getTime() - 5 * 86_400_000).toUTCString())
    const a = await validate(cookie, uber)
    expect(a.status).toBe(200)
    expect(a.body.isAcceptable).toBe(true)
    // Lime signs Date: the same rewrite breaks its signature.
    const lime = rewriteHeader(await signedReceipt(dns, 'Lime', trip()), 'Date', new Date(t.date.getTime() - 5 * 86_400_000).toUTCString())
    const b = await validate(cookie, lime)
    expect(b.status).toBe(400)
    expect(b.body.error).toMatch(/signature does not verify/)
  })

  it('reads at most five signatures and looks up no key of an unregistered domain', async () => {
    const { user, cookie } = await signInNewUser()
    const raw = await signedReceipt(dns, 'Bird', trip())
    dns.queries.length = 0
    const flooded = await validate(cookie, withFakeSignatures(raw, 100))
    expect(flooded.status).toBe(400)
    expect(flooded.body.error).toMatch(/more signatures than any real receipt/)
    expect(dns.queries).toEqual([])
    expect(await analysesOf(user.id)).toHaveLength(0)

    const few = await validate(cookie, withFakeSignatures(raw, 3))
    expect(few.status).toBe(200)
    expect(few.body.isAcceptable).toBe(true)
    expect(dns.queries.filter((q) => q.includes('fake'))).toEqual([])
    expect(dns.queries).toContain('bird1._domainkey.bird.co')
  })

  it('has no time limit when the caller sets none (the bench, the CLI)', async () => {
    const analysis = await analyzeEReceipt(await signedReceipt(dns, 'Bolt', trip()), { resolver: createResolver([dns.server]) })
    expect(analysis.isAcceptable).toBe(true)
  })

  it('answers a key lookup that never returns within the analysis time limit, retryable, nothing stored', async () => {
    const { user } = await signInNewUser()
    const raw = await signedReceipt(dns, 'Revel', trip())
    dns.hang('rv._domainkey.gorevel.com')
    try {
      const refused = analyzeAndStore(getDb(), { userId: user.id, image: raw, analyze: async () => { throw new Error('not a photo') }, timeoutMs: 300 })
      await expect(refused).rejects.toMatchObject({ code: 'timed_out', status: 503 })
    } finally {
      dns.reset()
    }
    expect(await analysesOf(user.id)).toHaveLength(0)
  })

  // The receipt is multipart/alternative: it has one Content-Type of its own and no top-level
  // Content-Transfer-Encoding, so the second case adds two.
  it.each([
    ['Content-Type', ['Content-Type: text/plain; charset=utf-8']],
    ['Content-Transfer-Encoding', ['Content-Transfer-Encoding: 7bit', 'Content-Transfer-Encoding: base64']],
  ])('refuses a repeated %s as malformed', async (_name, fields) => {
    const { user, cookie } = await signInNewUser()
    const raw = await signedReceipt(dns, 'Via', trip())
    const result = await validate(cookie, fields.reduce((m, field) => withSecondHeader(m, field), raw))
    expect(result.status).toBe(400)
    expect(result.body.code).toBe('malformed')
    expect(await analysesOf(user.id)).toHaveLength(0)
  })
})

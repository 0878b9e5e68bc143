/**
 * Issue 36: one way in for every receipt. The scan page, POST /api/receipts, POST
 * /api/receipts/validate and forwarded mail (the provider's webhook and the SMTP listener) give the
 * same refusal, with the same status and message, for a spent rate limit, a reached daily limit, an
 * unreadable file and a duplicate. And a flood of forwarded mail is admitted like uploads: past the
 * owner's limit it is told to try later before anything is read, with one Home notice per kind.
 */
import crypto from 'node:crypto'
import nodemailer from 'nodemailer'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { oddFileMessage } from '../app/analysis/file-kinds'
import { getInboundAddress } from '../app/ereceipts/inbound.server'
import { startInboundSmtp, type InboundSmtp } from '../app/ereceipts/smtp.server'
import { signDelivery } from '../app/ereceipts/webhook.server'
import { getMetrics } from '../app/ops/metrics.server'
import { receiveForwardedEmail } from '../app/receipts/forwarded.server'
import { DAILY_LIMIT_ERROR, DUPLICATE_MESSAGE } from '../app/receipts/receipts.server'
import { takeActionSlot } from '../app/rewards/daily-limit.server'
import { action as inboundAction } from '../app/routes/api.inbound-email'
import { action as submitAction } from '../app/routes/api.receipts'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { action as scanAction } from '../app/routes/scan/route'
import { listNotices } from '../app/users/notices.server'
import { getDb } from '../app/utils/db.server'
import { checkRateLimit, rateLimits, tooManyRequestsMessage } from '../app/utils/rate-limit.server'
import { useTestEnv } from './utils/env'
import { todayUtc } from './utils/images'
import { receiptRow } from './utils/receipt-rows'
import { BASE_URL, bodyOf, jsonRequest, signInNewUser } from './utils/requests'

const SECRET = 'inbound-webhook-secret-for-intake'
useTestEnv({
  INBOUND_DOMAIN: 'in.recircle.test',
  INBOUND_WEBHOOK_SECRET: SECRET,
  RATE_LIMIT_ANALYSIS_PER_USER_PER_HOUR: '20',
  RATE_LIMIT_ANALYSIS_PER_IP_PER_HOUR: '1000',
  RATE_LIMITS_DISABLED: '',
})

const HOUR = 3_600_000
/** 10:00:05 UTC today: 3595 s left in the hour, so every rate-limit message reads the same. */
const T0 = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR + 10 * HOUR + 5_000

let smtp: InboundSmtp
beforeAll(async () => {
  smtp = await startInboundSmtp(getDb(), { port: 0, host: '127.0.0.1', receive: receiveForwardedEmail })
})
afterAll(async () => {
  await smtp.close()
})
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(T0)
})
afterEach(() => {
  vi.useRealTimers()
})

/** A plain text file: neither a photo nor an e-mail. */
const UNREADABLE = Buffer.from('just some notes, not a receipt\r\n')

/** What a way in answered: an HTTP status (SMTP replies as their HTTP equivalent) and the message. */
type Answer = { status: number; message: string; smtpCode?: number }

type Rider = { userId: number; cookie: string; address: string }

async function newRider(): Promise<Rider> {
  const { user, cookie } = await signInNewUser()
  const address = await getInboundAddress(getDb(), user.id)
  return { userId: user.id, cookie, address: address! }
}

function multipart(path: string, cookie: string, bytes: Buffer, fields: Record<string, string> = {}) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  form.set('image', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'receipt.bin')
  return new Request(`${BASE_URL}${path}`, { method: 'POST', body: form, headers: { Cookie: cookie } })
}

const settle = (p: Promise<Response>) => p.catch((r: unknown) => (r instanceof Response ? r : Promise.reject(r)))
const args = (request: Request) => ({ request, params: {}, context: {} })

const WAYS: Record<string, (rider: Rider, bytes: Buffer) => Promise<Answer>> = {
  'the scan page': async (rider, bytes) => {
    const res = await settle(scanAction(args(multipart('/scan', rider.cookie, bytes))))
    return { status: res.status, message: (await bodyOf(res)).error }
  },
  'POST /api/receipts': async (rider, bytes) => {
    const fields = { category: 'ride_share', amount: '12.50', purchaseDate: todayUtc() }
    const res = await settle(submitAction(args(multipart('/api/receipts', rider.cookie, bytes, fields))))
    return { status: res.status, message: (await bodyOf(res)).error }
  },
  'POST /api/receipts/validate': async (rider, bytes) => {
    const body = { image: `data:application/octet-stream;base64,${bytes.toString('base64')}` }
    const res = await settle(validateAction(args(jsonRequest('/api/receipts/validate', body, { headers: { Cookie: rider.cookie } }))))
    return { status: res.status, message: (await bodyOf(res)).error }
  },
  'forwarded mail, webhook': async (rider, bytes) => {
    const headers = signDelivery({ secret: SECRET, body: bytes, recipient: rider.address, token: crypto.randomBytes(12).toString('hex'), timestamp: Math.floor(Date.now() / 1000) })
    const res = await inboundAction(args(new Request(`${BASE_URL}/api/inbound-email`, { method: 'POST', body: new Uint8Array(bytes), headers })))
    return { status: res.status, message: (await bodyOf(res)).error }
  },
  'forwarded mail, SMTP': async (rider, bytes) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true })
    try {
      await transport.sendMail({ envelope: { from: 'me@example.org', to: [rider.address] }, raw: bytes })
      return { status: 200, message: '' }
    } catch (error) {
      const e = error as { responseCode: number; response: string }
      const message = e.response.replace(/^\d{3}\s+/, '')
      // The reply code says what HTTP's status says: 451 try later (429, 503), 550 refused for good.
      const status = e.responseCode === 451 ? 429 : e.responseCode === 550 ? Number.NaN : e.responseCode
      return { status, message, smtpCode: e.responseCode }
    }
  },
}

/** A forwarded e-mail that is not a receipt (unsigned, unknown sender): read, then refused. */
function notAReceipt(n: number) {
  return Buffer.from(
    [`From: Newsletter <news@shop.example>`, `To: rider@example.org`, `Subject: Weekly deals ${n}`, `Date: ${new Date(T0).toUTCString()}`, `Message-ID: <${n}.${crypto.randomUUID()}@shop.example>`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', `Deal number ${n}: 20% off.`, ''].join('\r\n'),
  )
}

/** What each case expects: the HTTP status, and for SMTP the reply code. */
function expectSame(answer: Answer, way: string, status: number, message: string) {
  expect(answer.message, way).toBe(message)
  if (answer.smtpCode !== undefined) expect(answer.smtpCode, way).toBe(status === 429 || status === 503 ? 451 : 550)
  else expect(answer.status, way).toBe(status)
}

describe('every way in answers the same refusal', () => {
  it.each(Object.keys(WAYS))('rate limit spent: %s', async (way) => {
    const rider = await newRider()
    for (let i = 0; i < 20; i++) await checkRateLimit(getDb(), rateLimits.analysisByUser(rider.userId))
    expectSame(await WAYS[way]!(rider, notAReceipt(1)), way, 429, tooManyRequestsMessage(3595))
  })

  it.each(Object.keys(WAYS))('daily limit reached: %s', async (way) => {
    const rider = await newRider()
    for (let i = 0; i < 3; i++) await takeActionSlot(getDb(), { userId: rider.userId, kind: 'store_submission' })
    expectSame(await WAYS[way]!(rider, notAReceipt(2)), way, 429, DAILY_LIMIT_ERROR)
  })

  it.each(Object.keys(WAYS))('unreadable file: %s', async (way) => {
    const rider = await newRider()
    // Issue 39: the spec's sentence, then what the file is and what is accepted.
    expectSame(await WAYS[way]!(rider, UNREADABLE), way, 400, oddFileMessage('text'))
  })

  it.each(Object.keys(WAYS))('duplicate: %s', async (way) => {
    const rider = await newRider()
    const bytes = notAReceipt(Math.floor(Math.random() * 1e9))
    const someoneElse = await newRider()
    await getDb()
      .insertInto('receipts')
      .values(receiptRow({ user_id: someoneElse.userId, image_hash: crypto.createHash('sha256').update(bytes).digest('hex'), status: 'approved', analysis_json: '{}' }))
      .execute()
    expectSame(await WAYS[way]!(rider, bytes), way, 409, DUPLICATE_MESSAGE)
  })
})

describe('a flood of forwarded mail', () => {
  it('40 mails in a minute: past the limit the rest are told to try later before any reading, and Home shows one notice per kind', async () => {
    const rider = await newRider()
    const read = () => getMetrics().analyses.get().then((m) => m.values.filter((v) => v.labels.reader === 'email').reduce((sum, v) => sum + v.value, 0))
    const before = await read()
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true })
    const codes: number[] = []
    for (let i = 0; i < 40; i++) {
      try {
        await transport.sendMail({ envelope: { from: 'news@shop.example', to: [rider.address] }, raw: notAReceipt(1000 + i) })
        codes.push(250)
      } catch (error) {
        codes.push((error as { responseCode: number }).responseCode)
      }
    }
    // The first 20 were read and refused for good; the other 20 were not read and may come back later.
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(550))
    expect(codes.slice(20)).toEqual(Array(20).fill(451))
    expect((await read()) - before).toBe(20)
    const notices = await listNotices(getDb(), rider.userId, new Date(T0 - HOUR).toISOString())
    expect(notices.filter((n) => n.key.startsWith('forward-'))).toHaveLength(1)
  }, 60_000)
})

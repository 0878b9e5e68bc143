import { RETRYABLE_TITLE } from '../app/receipts/refusal-advice'
import { http, passthrough } from 'msw'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createChallenge } from '../app/auth/auth.server'
import { READER_BUSY_MESSAGE, ReaderBusyError, createAnalysisGate, getAnalysisGate, withReaderSlot } from '../app/ocr/tesseract.server'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import { purgeExpiredReceiptData } from '../app/receipts/retention.server'
import { action as addStoreAction } from '../app/routes/add-store'
import { action as certificateAction } from '../app/routes/api.auth.certificate'
import { action as challengeAction } from '../app/routes/api.auth.challenge'
import { action as googleFormAction } from '../app/routes/api.google-form-submission'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { action as walletFormAction } from '../app/routes/auth.wallet'
import { action as feedbackAction } from '../app/routes/feedback'
import { action as scanAction } from '../app/routes/scan/route'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { checkRateLimit, clientIpFrom, deleteExpiredRateLimits, ipKey, tooManyRequestsMessage } from '../app/utils/rate-limit.server'
import { readToast } from '../app/utils/toast.server'
import { createServerApp } from '../scripts/server'
import { server as msw } from './mocks/index'
import { noiseImage } from './utils/images'
import { BASE_URL, bodyOf, cookieFrom, formRequest, jsonRequest, signInNewUser } from './utils/requests'
import { createTestWallet, identificationCert, type TestWallet } from './utils/wallet'
import { resourceBuild } from './utils/remix-build'

const LIMITS: Record<string, string> = {
  RATE_LIMIT_CHALLENGE_PER_IP_PER_MINUTE: '3',
  RATE_LIMIT_CERTIFICATE_PER_IP_PER_MINUTE: '3',
  RATE_LIMIT_CERTIFICATE_PER_WALLET_PER_MINUTE: '2',
  RATE_LIMIT_FEEDBACK_PER_IP_PER_HOUR: '3',
  RATE_LIMIT_FEEDBACK_PER_USER_PER_HOUR: '2',
  RATE_LIMIT_ANALYSIS_PER_USER_PER_HOUR: '2',
  RATE_LIMIT_ANALYSIS_PER_IP_PER_HOUR: '4',
  RATE_LIMIT_STORE_SUBMISSION_PER_USER_PER_DAY: '2',
  OCR_MAX_QUEUE: '1',
  RATE_LIMITS_DISABLED: '',
}
const saved: Record<string, string | undefined> = {}

function setEnv(vars: Record<string, string>) {
  for (const [k, v] of Object.entries(vars)) {
    if (!(k in saved)) saved[k] = process.env[k]
    process.env[k] = v
  }
  resetEnvCache()
}

beforeAll(() => setEnv(LIMITS))
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  resetEnvCache()
})

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** Today 10:00:05 UTC: 55 s left in the minute, 3595 s in the hour, 13 h 59 min 55 s in the day. */
const T0 = Math.floor(Date.now() / DAY) * DAY + 10 * HOUR + 5_000

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(T0)
})
afterEach(() => {
  vi.useRealTimers()
  setEnv(LIMITS)
})

let ipCounter = 0
/** A fresh client address per use, so tests never share a counter by accident. */
const newIp = () => `198.51.100.${++ipCounter}`
const args = (request: Request, ip?: string) => ({ request, params: {}, context: ip ? { clientIp: ip } : {} })
/** Actions throw Responses (429, redirects): treat them as answers. */
const settle = (p: Promise<Response>) => p.catch((r: unknown) => (r instanceof Response ? r : Promise.reject(r)))

async function expectTooMany(res: Response, retryAfter: number) {
  expect(res.status).toBe(429)
  expect(res.headers.get('Retry-After')).toBe(String(retryAfter))
  return bodyOf(res)
}

const challenge = (ip?: string) => settle(challengeAction(args(new Request(`${BASE_URL}/api/auth/challenge`, { method: 'POST' }), ip)))

async function certFor(wallet: TestWallet) {
  return identificationCert(wallet, (await createChallenge(getDb())).content, 'localhost')
}
const postCertificate = (certificate: unknown, ip: string) =>
  settle(certificateAction(args(jsonRequest('/api/auth/certificate', { certificate }), ip)))

describe('messages and keys', () => {
  it.each([
    [1, 'Too many requests. Please try again in 1 second.'],
    [55, 'Too many requests. Please try again in 55 seconds.'],
    [3595, 'Too many requests. Please try again in 60 minutes.'],
    [50_395, 'Too many requests. Please try again in 14 hours.'],
  ])('%i s -> %s', (seconds, message) => {
    expect(tooManyRequestsMessage(seconds)).toBe(message)
  })

  it('reads the client IP from the load context, groups IPv6 by /64, and falls back to "unknown"', () => {
    expect(clientIpFrom({ clientIp: '203.0.113.9' })).toBe('203.0.113.9')
    expect(clientIpFrom({ clientIp: '::ffff:203.0.113.9' })).toBe('203.0.113.9')
    expect(clientIpFrom({ clientIp: '2001:db8:0:42:1:2:3:4' })).toBe(clientIpFrom({ clientIp: '2001:db8:0:42::9' }))
    expect(ipKey('2001:db8:0:42:1:2:3:4')).toBe('2001:db8:0:42::/64')
    expect(clientIpFrom({})).toBe('unknown')
    expect(clientIpFrom(undefined)).toBe('unknown')
  })
})

describe('the client address (scripts/server.ts getLoadContext)', () => {
  // A one-route build that echoes what the loader receives as context.clientIp.
  const build = resourceBuild({
    'routes/ip': { path: 'ip', module: { loader: ({ context }: { context: { clientIp?: string } }) => Response.json({ ip: context.clientIp }) } },
  })

  // Issue 29: behind one trusted proxy the client is the entry that proxy appended (10.0.0.1), not
  // the leftmost one, which the client writes itself.
  it.each([
    [false, '127.0.0.1'],
    [true, '10.0.0.1'],
  ])('TRUST_PROXY=%s: clientIp is %s (the address the trusted proxy appended)', async (trustProxy, expected) => {
    const app = createServerApp({ buildPath: 'unused', trustProxy, getBuild: async () => build })
    const listener = app.listen(0, '127.0.0.1')
    await new Promise((r) => listener.once('listening', r))
    try {
      const url = `http://127.0.0.1:${(listener.address() as { port: number }).port}/ip`
      msw.use(http.get(url, () => passthrough()))
      const res = await fetch(url, { headers: { 'X-Forwarded-For': '203.0.113.7, 10.0.0.1' } })
      expect(await res.json()).toEqual({ ip: expected })
    } finally {
      listener.close()
    }
  })
})

describe('checkRateLimit', () => {
  it('counts atomically: 20 parallel requests with a limit of 5 let exactly 5 through', async () => {
    const key = `parallel:${Date.now()}:${Math.random()}`
    const results = await Promise.all(Array.from({ length: 20 }, () => checkRateLimit(getDb(), { key, limit: 5, windowMs: MINUTE })))
    expect(results.filter((r) => r.ok)).toHaveLength(5)
    expect(results.filter((r) => !r.ok)).toEqual(Array(15).fill({ ok: false, retryAfterSeconds: 55 }))
    const row = await getDb().selectFrom('rate_limits').select('count').where('key', '=', key).executeTakeFirstOrThrow()
    expect(row.count).toBe(20)
  })

  it('a limit of 0 is off and writes nothing', async () => {
    const key = `off:${Math.random()}`
    for (let i = 0; i < 5; i++) expect(await checkRateLimit(getDb(), { key, limit: 0, windowMs: MINUTE })).toEqual({ ok: true })
    expect(await getDb().selectFrom('rate_limits').select('key').where('key', '=', key).execute()).toEqual([])
  })

  it('housekeeping deletes the counters of windows that have ended, and only those', async () => {
    const db = getDb()
    const key = `cleanup:${Math.random()}`
    await checkRateLimit(db, { key, limit: 5, windowMs: MINUTE, now: new Date(T0 - 2 * MINUTE) })
    await checkRateLimit(db, { key, limit: 5, windowMs: MINUTE, now: new Date(T0) })
    const purged = await purgeExpiredReceiptData(db, new Date(T0))
    expect(purged.rateLimits).toBeGreaterThanOrEqual(1)
    const left = await db.selectFrom('rate_limits').select('window_start').where('key', '=', key).execute()
    expect(left).toEqual([{ window_start: new Date(Math.floor(T0 / MINUTE) * MINUTE).toISOString() }])
    expect(await deleteExpiredRateLimits(db, new Date(T0 + MINUTE))).toBeGreaterThanOrEqual(1)
    expect(await db.selectFrom('rate_limits').select('key').where('key', '=', key).execute()).toEqual([])
  })
})

describe('POST /api/auth/challenge (per IP per minute)', () => {
  it('refuses the 4th request of an IP with 429, Retry-After and the message; other IPs and the next minute are fine', async () => {
    const ip = newIp()
    for (let i = 0; i < 3; i++) expect((await challenge(ip)).status).toBe(200)
    const body = await expectTooMany(await challenge(ip), 55)
    expect(body).toEqual({ error: 'Too many requests. Please try again in 55 seconds.', message: 'Too many requests. Please try again in 55 seconds.' })
    expect((await challenge(newIp())).status).toBe(200)
    vi.setSystemTime(T0 + MINUTE)
    expect((await challenge(ip)).status).toBe(200)
  })

  it('20 parallel challenges from one IP with a limit of 5: exactly 5 get one', async () => {
    setEnv({ RATE_LIMIT_CHALLENGE_PER_IP_PER_MINUTE: '5' })
    const ip = newIp()
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => challenge(ip)))).map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(15)
  })

  it('without a client address (no load context) the per-IP limit is skipped instead of sharing one bucket', async () => {
    for (let i = 0; i < 6; i++) expect((await challenge()).status).toBe(200)
    expect((await challenge(newIp())).status).toBe(200)
  })

  it('0 turns the limit off', async () => {
    setEnv({ RATE_LIMIT_CHALLENGE_PER_IP_PER_MINUTE: '0' })
    const ip = newIp()
    for (let i = 0; i < 6; i++) expect((await challenge(ip)).status).toBe(200)
  })

  it('RATE_LIMITS_DISABLED=1 turns every limit off', async () => {
    setEnv({ RATE_LIMITS_DISABLED: '1' })
    const ip = newIp()
    for (let i = 0; i < 6; i++) expect((await challenge(ip)).status).toBe(200)
    // Nothing was counted meanwhile.
    setEnv({ RATE_LIMITS_DISABLED: '' })
    for (let i = 0; i < 3; i++) expect((await challenge(ip)).status).toBe(200)
    expect((await challenge(ip)).status).toBe(429)
  })
})

describe('POST /api/auth/certificate', () => {
  it('per IP: the 4th post of an IP is refused before the certificate is checked; other IPs and the next minute are fine', async () => {
    const ip = newIp()
    for (let i = 0; i < 3; i++) expect((await postCertificate({ not: 'a certificate' }, ip)).status).toBe(401)
    const body = await expectTooMany(await postCertificate(await certFor(createTestWallet()), ip), 55)
    expect(body.message).toBe('Too many requests. Please try again in 55 seconds.')
    expect((await postCertificate(await certFor(createTestWallet()), newIp())).status).toBe(200)
    vi.setSystemTime(T0 + MINUTE)
    expect((await postCertificate(await certFor(createTestWallet()), ip)).status).toBe(200)
  })

  it('per wallet: the 3rd sign-in of one wallet (from any IP, API or wallet form) is refused; other wallets are not', async () => {
    const wallet = createTestWallet()
    expect((await postCertificate(await certFor(wallet), newIp())).status).toBe(200)
    expect((await postCertificate(await certFor(wallet), newIp())).status).toBe(200)
    expect((await expectTooMany(await postCertificate(await certFor(wallet), newIp()), 55)).error).toBe(
      'Too many requests. Please try again in 55 seconds.',
    )
    // The wallet form shares the count and shows the message (no 500, no throw).
    const form = await walletFormAction(
      args(formRequest('/auth/wallet', { intent: 'connect', certificate: JSON.stringify(await certFor(wallet)) }), newIp()),
    )
    expect(await expectTooMany(form, 55)).toEqual({ error: 'Too many requests. Please try again in 55 seconds.' })
    expect((await postCertificate(await certFor(createTestWallet()), newIp())).status).toBe(200)
    vi.setSystemTime(T0 + MINUTE)
    expect((await postCertificate(await certFor(wallet), newIp())).status).toBe(200)
  })
})

describe('/feedback (per IP and per user per hour)', () => {
  const post = (ip: string, cookie?: string) =>
    settle(feedbackAction(args(formRequest('/feedback', { type: 'suggestion', text: `More buses ${Math.random()}` }, cookie), ip)))

  it('per IP: the 4th anonymous post shows the message as a form error with 429; other IPs and the next hour are fine', async () => {
    const ip = newIp()
    // A post that fails validation is not counted.
    expect((await settle(feedbackAction(args(formRequest('/feedback', { type: 'praise', text: ' ' }), ip)))).status).toBe(400)
    for (let i = 0; i < 3; i++) expect((await post(ip)).status).toBe(302)
    const body = await expectTooMany(await post(ip), 3595)
    expect(body.error['']).toEqual(['Too many requests. Please try again in 60 minutes.'])
    expect((await post(newIp())).status).toBe(302)
    vi.setSystemTime(T0 + HOUR)
    expect((await post(ip)).status).toBe(302)
  })

  it('per user: the 3rd post of a signed-in user is refused from any IP; other users are fine', async () => {
    const { cookie } = await signInNewUser()
    expect((await post(newIp(), cookie)).status).toBe(302)
    expect((await post(newIp(), cookie)).status).toBe(302)
    const body = await expectTooMany(await post(newIp(), cookie), 3595)
    expect(body.error['']).toEqual(['Too many requests. Please try again in 60 minutes.'])
    expect((await post(newIp(), (await signInNewUser()).cookie)).status).toBe(302)
    vi.setSystemTime(T0 + HOUR)
    expect((await post(newIp(), cookie)).status).toBe(302)
  })
})

describe('receipt analyses (POST /api/receipts/validate and the scan page share one count)', () => {
  // Bodies without a photo: counted (the limit comes first), then refused with 400 without any OCR.
  const validate = (cookie: string, ip: string) =>
    settle(validateAction(args(jsonRequest('/api/receipts/validate', {}, { headers: { Cookie: cookie } }), ip)))
  const scan = (cookie: string, ip: string, image?: Buffer) => {
    const form = new FormData()
    form.set('intent', 'analyze')
    if (image) form.set('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'receipt.png')
    return settle(scanAction(args(new Request(`${BASE_URL}/scan`, { method: 'POST', body: form, headers: { Cookie: cookie } }), ip)))
  }

  it('per user: the 3rd analysis of a user gets 429 (JSON for the API, a scan-step error on the page)', async () => {
    const { cookie } = await signInNewUser()
    const ip = newIp()
    expect((await validate(cookie, ip)).status).toBe(400)
    expect((await scan(cookie, newIp())).status).toBe(400)
    const api = await expectTooMany(await validate(cookie, newIp()), 3595)
    expect(api).toEqual({ error: 'Too many requests. Please try again in 60 minutes.', message: 'Too many requests. Please try again in 60 minutes.' })
    const page = await expectTooMany(await scan(cookie, newIp()), 3595)
    // Issue 32: a retry helps here (later), so the page offers one.
    expect(page).toEqual({ step: 'camera', error: 'Too many requests. Please try again in 60 minutes.', advice: { action: 'retry', title: RETRYABLE_TITLE, instead: null } })
    expect((await validate((await signInNewUser()).cookie, ip)).status).toBe(400)
    vi.setSystemTime(T0 + HOUR)
    expect((await validate(cookie, ip)).status).toBe(400)
  })

  it('per IP: the 5th analysis from one IP is refused whoever sends it; another IP is fine', async () => {
    const ip = newIp()
    const users = await Promise.all([signInNewUser(), signInNewUser(), signInNewUser()])
    for (const { cookie } of users.slice(0, 2)) {
      expect((await validate(cookie, ip)).status).toBe(400)
      expect((await scan(cookie, ip)).status).toBe(400)
    }
    expect((await expectTooMany(await validate(users[2].cookie, ip), 3595)).message).toBe('Too many requests. Please try again in 60 minutes.')
    expect((await validate(users[2].cookie, newIp())).status).toBe(400)
    vi.setSystemTime(T0 + HOUR)
    expect((await validate(users[2].cookie, ip)).status).toBe(400)
  })

  describe('the reader queue bound', () => {
    const held: Array<() => void> = []
    afterEach(() => held.splice(0).forEach((release) => release()))

    it('with the queue full, analyses get 503 + Retry-After at once and nothing is stored', async () => {
      const gate = getAnalysisGate()
      // OCR_MAX_QUEUE=1 and 2 workers: 3 analyses in flight; take them all.
      for (let release = gate.tryEnter(); release; release = gate.tryEnter()) held.push(release)
      expect(held).toHaveLength(3)
      const { user, cookie } = await signInNewUser()
      const image = await noiseImage()
      const started = performance.now()
      const res = await settle(
        validateAction(
          args(jsonRequest('/api/receipts/validate', { image: `data:image/png;base64,${image.toString('base64')}` }, { headers: { Cookie: cookie } }), newIp()),
        ),
      )
      expect(res.status).toBe(503)
      expect(res.headers.get('Retry-After')).toBe('5')
      expect(await bodyOf(res)).toEqual({ error: READER_BUSY_MESSAGE, message: READER_BUSY_MESSAGE })
      expect(READER_BUSY_MESSAGE).toBe('The receipt reader is busy. Please try again in a few seconds.')
      const page = await scan(cookie, newIp(), image)
      expect(page.status).toBe(503)
      expect(page.headers.get('Retry-After')).toBe('5')
      expect(await bodyOf(page)).toEqual({ step: 'camera', error: READER_BUSY_MESSAGE, advice: { action: 'retry', title: RETRYABLE_TITLE, instead: null } })
      expect(performance.now() - started).toBeLessThan(3000)
      expect(await getDb().selectFrom('receipt_analyses').select('id').where('user_id', '=', user.id).execute()).toEqual([])
      expect(gate.inFlight()).toBe(3)
    })

    it('20 concurrent analyses through a slow analyzer and a gate of 3: 3 stored, 17 refused before any finishes', async () => {
      const gate = createAnalysisGate(() => 3)
      const { user } = await signInNewUser()
      const analysis: StoredAnalysis = { isValid: true, storeName: 'Uber', category: 'ride_share', totalAmount: 9.5, purchaseDate: '2026-01-02', confidence: 0.9, isAcceptable: true, needsManualReview: false, reasons: [] }
      // The analyses admitted finish only once all 20 have arrived at the gate (admitted or refused),
      // so a busy machine that staggers their arrival cannot let a slot free up in between.
      let finished = 0
      let arrived = 0
      let releaseAll!: () => void
      const allArrived = new Promise<void>((resolve) => (releaseAll = resolve))
      const arrive = () => ++arrived === 20 && releaseAll()
      const slow = () =>
        withReaderSlot(async () => {
          arrive()
          await allArrived
          finished++
          return analysis
        }, gate)
      const images = await Promise.all(Array.from({ length: 20 }, () => noiseImage()))
      const refusedWhileRunning: boolean[] = []
      const results = await Promise.allSettled(
        images.map((image) =>
          analyzeAndStore(getDb(), { userId: user.id, image, analyze: slow }).catch((error) => {
            refusedWhileRunning.push(finished === 0)
            arrive()
            throw error
          }),
        ),
      )
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3)
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      expect(refused).toHaveLength(17)
      for (const r of refused) expect(r.reason).toBeInstanceOf(ReaderBusyError)
      expect(refusedWhileRunning).toEqual(Array(17).fill(true))
      expect(await getDb().selectFrom('receipt_analyses').select('id').where('user_id', '=', user.id).execute()).toHaveLength(3)
      expect(gate.inFlight()).toBe(0)
    })
  })
})

describe('store submissions (per user per day)', () => {
  let n = 0
  const store = () => ({ name: `Rate Limit Thrift ${process.pid}-${++n}`, address: `${n} Main St`, city: 'Portland', state: 'OR', storeType: 'clothing' })
  const inApp = (cookie: string) => settle(addStoreAction(args(formRequest('/add-store', { intent: 'in-app', ...store() }, cookie), newIp())))

  it('the 3rd attempt of a day is refused on the page (form error, toast) and in the API; other users and the next day are fine', async () => {
    const { user, cookie } = await signInNewUser()
    expect((await inApp(cookie)).status).toBe(302)
    expect((await inApp(cookie)).status).toBe(302)
    // 13 h 59 min 55 s left in the UTC day; the daily action limit (3) would still have accepted it.
    const message = 'Too many requests. Please try again in 14 hours.'
    expect((await expectTooMany(await inApp(cookie), 50_395)).error['']).toEqual([message])
    const external = await settle(addStoreAction(args(formRequest('/add-store', { intent: 'external-form-completed' }, cookie), newIp())))
    expect(external.status).toBe(302)
    const { toast } = await readToast(new Request(BASE_URL, { headers: { Cookie: cookieFrom(external.headers.get('Set-Cookie')) } }))
    expect(toast).toMatchObject({ description: message, variant: 'destructive' })
    const api = await settle(googleFormAction(args(jsonRequest('/api/google-form-submission', { userId: user.id, formType: 'store_submission' }, { headers: { Cookie: cookie } }), newIp())))
    expect(await expectTooMany(api, 50_395)).toEqual({ error: message, message })
    const count = await getDb().selectFrom('store_submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(2)

    const other = await signInNewUser()
    const ok = await settle(googleFormAction(args(jsonRequest('/api/google-form-submission', { userId: other.user.id, formType: 'store_submission' }, { headers: { Cookie: other.cookie } }), newIp())))
    expect(ok.status).toBe(200)
    vi.setSystemTime(T0 + DAY)
    expect((await inApp(cookie)).status).toBe(302)
  })
})

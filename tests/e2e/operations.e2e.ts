import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '../../db/db.server'
import { claimAllTokens } from '../../app/claims/claims.server'
import { recordEntry } from '../../app/rewards/ledger.server'
import { startFakeThorServer } from '../mocks/fake-thor-server'
import { createDatabase, postgresAvailable, startTestPostgres, type TestPostgres } from '../setup/postgres'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { APP_ID, B3TR, DISTRIBUTOR } from '../utils/payouts'
import { createTestWallet, identificationCert } from '../utils/wallet'
import { startAppServer, type AppServer } from './app-server'

// Issue 25, on SQLite and (when installed) PostgreSQL: /healthz, /readyz and /metrics of the built
// app, measured; then a deploy sends SIGTERM while receipts are being read and a payout is on its way to the
// node. The instance must answer /readyz 503, finish every request in flight (five receipts queued
// on one OCR worker), let the payout finish its step (signed, stored and sent), and exit 0. The
// slowness is real: one tesseract worker for five photos, and a node (the fake Thor) that answers
// each call 600 ms late. Then the run's log is searched for every secret it handled.

let app: AppServer
let chain: Awaited<ReturnType<typeof startFakeThorServer>>
let pg: TestPostgres | undefined
const METRICS_TOKEN = 'e2e-metrics-token-0123456789'
const engines = ['SQLite', ...(postgresAvailable() ? ['PostgreSQL'] : [])]

describe.each(engines)('on %s', (engine) => {
  beforeAll(async () => {
    if (engine === 'PostgreSQL') pg = await startTestPostgres()
    chain = await startFakeThorServer({
      blockIntervalMs: 250,
      apps: { [APP_ID]: { distributors: [DISTRIBUTOR.address], availableFunds: 1000n * B3TR } },
      poolB3tr: 1000n * B3TR,
      accounts: { [DISTRIBUTOR.address]: { vet: 10n * B3TR, vtho: 1000n * B3TR } },
    })
    app = await startAppServer({
      THOR_NODE_URL: chain.url,
      PAYOUT_PRIVATE_KEY: DISTRIBUTOR.privateKey.toString('hex'),
      VEBETTER_APP_ID: APP_ID,
      PAYOUT_INTERVAL_MS: '300',
      OCR_WORKERS: '1',
      // Keep accepting for 3 s after SIGTERM: long enough to see /readyz say 503 on a busy machine.
      SHUTDOWN_DELAY_MS: '3000',
      SHUTDOWN_GRACE_MS: '25000',
      METRICS_TOKEN,
      LOG_LEVEL: 'info',
      ...(pg ? { DATABASE_URL: await createDatabase(pg.url, 'recircle_shutdown') } : {}),
    })
  })

  afterAll(async () => {
    await app?.stop()
    await chain?.close()
    pg?.stop()
    pg = undefined
  })

  async function signIn(baseUrl: string) {
    const wallet = createTestWallet()
    const challenge = await (await fetch(`${baseUrl}/api/auth/challenge`, { method: 'POST' })).json()
    const certificate = identificationCert(wallet, challenge.content, 'localhost')
    const res = await fetch(`${baseUrl}/api/auth/certificate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ certificate }),
    })
    expect(res.status).toBe(200)
    const setCookie = res.headers.get('set-cookie') ?? ''
    return { wallet, certificate, cookie: setCookie.split(';')[0] }
  }

  async function waitFor<T>(what: string, read: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (value) return value
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. Server output:\n${app.output().slice(-3000)}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  describe('health and metrics of the built app', () => {
    it('counts a real analysis by outcome and reader, names routes by pattern, and answers quickly', async () => {
      const { baseUrl } = app
      const user = await signIn(baseUrl)
      const image = await receiptImage({ vendor: 'Lyft', lines: [['Ride', '$14.20']], total: '$14.20', date: writtenDate(todayUtc()) })
      const res = await fetch(`${baseUrl}/api/receipts/validate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: user.cookie },
        body: JSON.stringify({ image: `data:image/png;base64,${image.toString('base64')}` }),
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
      await fetch(`${baseUrl}/scan/receipts/123456`, { headers: { Cookie: user.cookie } })

      expect((await fetch(`${baseUrl}/metrics`)).status).toBe(401)
      const timings = { readyz: [] as number[], healthz: [] as number[], metrics: [] as number[] }
      let text = ''
      for (let i = 0; i < 20; i++) {
        for (const [name, path] of [['readyz', '/readyz'], ['healthz', '/healthz'], ['metrics', '/metrics']] as const) {
          const started = performance.now()
          const answer = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
          const body = await answer.text()
          timings[name].push(performance.now() - started)
          expect(answer.status).toBe(200)
          if (name === 'metrics') text = body
        }
      }
      expect(text).toMatch(/^recircle_receipt_analyses_total\{outcome="(auto|review)",reader="tesseract"\} 1$/m)
      expect(text).toMatch(/recircle_http_requests_total\{method="POST",route="\/api\/receipts\/validate",status="200"\} 1/)
      expect(text).toMatch(/recircle_http_requests_total\{method="GET",route="\/scan\/receipts\/:id",status="\d+"\} 1/)
      expect(text).toMatch(/^recircle_ocr_workers 1$/m)
      expect(text).toMatch(/^recircle_analysis_capacity 11$/m)
      expect(text).toMatch(/^recircle_db_figures_up 1$/m)
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
      console.log(JSON.stringify({ engine, medianMs: { readyz: median(timings.readyz), healthz: median(timings.healthz), metrics: median(timings.metrics) }, metricsBytes: text.length }))
    })
  })

  describe('SIGTERM during receipt analyses and a payout', () => {
    it('answers /readyz 503, finishes the analyses and the payout step, exits 0, and logs no secret', async () => {
      const { baseUrl } = app
      const reader = await signIn(baseUrl)
      const claimant = await signIn(baseUrl)
      const db = createDb(app.dbUrl)

      // A claim for the payout worker; every call to the node now takes 600 ms.
      const user = await db.selectFrom('users').select('id').where('wallet_address', '=', claimant.wallet.address.toLowerCase()).executeTakeFirstOrThrow()
      await recordEntry(db, {
        user_id: user.id,
        type: 'receipt_verification',
        amount_milli: 8_500,
        description: 'Receipt reward: shutdown e2e',
        status: 'completed',
        tx_hash: null,
        idempotency_key: `e2e-shutdown:${user.id}`,
        receipt_id: null,
        store_submission_id: null,
        referral_id: null,
      })
      chain.fake.faults.slowMs = 600
      const claim = await claimAllTokens(db, { userId: user.id, amountMilli: 8_500 })
      if (!claim.ok) throw new Error(claim.error)

      // Five distinct receipts at once on one OCR worker: the last waits for the four before it.
      const images = await Promise.all(
        [11.4, 12.75, 9.9, 23.1, 17.65].map((total) =>
          receiptImage({ vendor: 'Uber', lines: [['Trip fare', `$${(total - 1.5).toFixed(2)}`], ['Booking fee', '$1.50']], total: `$${total.toFixed(2)}`, date: writtenDate(todayUtc()) }),
        ),
      )
      const dataUrls = images.map((png) => `data:image/png;base64,${png.toString('base64')}`)
      const startedAt = Date.now()
      const analyses = dataUrls.map((image) =>
        fetch(`${baseUrl}/api/receipts/validate`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: reader.cookie },
          body: JSON.stringify({ image }),
        }).then(async (res) => ({ status: res.status, body: await res.json(), ms: Date.now() - startedAt })),
      )

      // The payout worker holds the claim (its step has begun) and the analyses are in flight: SIGTERM.
      await waitFor('the payout worker to lease the payout', async () => {
        const row = await db.selectFrom('payouts').select(['lease_owner', 'status']).where('id', '=', claim.payoutId).executeTakeFirst()
        return row?.lease_owner !== null && row?.status === 'pending'
      })
      await new Promise((r) => setTimeout(r, 300))
      const sigtermAt = Date.now()
      app.kill('SIGTERM')

      // Readiness goes at once; liveness stays until the process ends.
      const ready = await waitFor('/readyz to answer 503', async () => {
        const res = await fetch(`${baseUrl}/readyz`).catch(() => null)
        return res?.status === 503 ? res : null
      }, 2_500)
      expect(await ready.json()).toEqual({ status: 'not ready', reason: 'shutting down' })
      expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200)

      const results = await Promise.all(analyses)
      const exitCode = await app.exited
      const exitedAfterMs = Date.now() - sigtermAt

      // Every analysis in flight finished and was answered, some after the SIGTERM.
      for (const r of results) {
        expect(r.status).toBe(200)
        expect(r.body.analysisId).toEqual(expect.any(Number))
        expect(r.body.storeName).toBe('Uber')
      }
      expect(Math.max(...results.map((r) => r.ms))).toBeGreaterThan(sigtermAt - startedAt)
      expect(exitCode).toBe(0)
      expect(exitedAfterMs).toBeLessThan(25_000)

      // The payout finished its step: signed, stored, and sent to the node, not left half-way.
      const payout = await db.selectFrom('payouts').selectAll().where('id', '=', claim.payoutId).executeTakeFirstOrThrow()
      expect(payout.status).toBe('sent')
      expect(payout.raw_tx).toMatch(/^0x[0-9a-f]+$/)
      expect(payout.lease_owner).toBeNull()
      expect(chain.fake.sends().some((s) => s.txId === payout.tx_hash && s.outcome === 'accepted')).toBe(true)
      const stored = await db.selectFrom('receipt_analyses').select('id').where('id', 'in', results.map((r) => r.body.analysisId as number)).execute()
      expect(stored).toHaveLength(5)
      await db.destroy()

      // The log: JSON lines, the shutdown told step by step, one line per request with its id.
      const lines = app.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
      const messages = lines.map((l) => l.msg)
      expect(messages).toEqual(expect.arrayContaining(['shutting down: draining', 'requests drained, payout worker stopped', 'stopped']))
      const validates = lines.filter((l) => l.msg === 'request' && l.route === '/api/receipts/validate')
      expect(validates).toHaveLength(6) // the metrics test's one, and these five
      for (const l of validates) expect(l).toMatchObject({ method: 'POST', status: 200, reqId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
      expect(lines.some((l) => l.component === 'payouts' && /signed 0x/.test(String(l.msg)))).toBe(true)

      // No secret that passed through this run is in its output.
      const output = app.output()
      const secrets = {
        'the distributor private key': DISTRIBUTOR.privateKey.toString('hex'),
        "a user's session cookie": reader.cookie.split('=')[1],
        "the other user's session cookie": claimant.cookie.split('=')[1],
        'a certificate signature': reader.certificate.signature.replace(/^0x/, ''),
        'a receipt image': dataUrls[0].slice(40, 140),
        'the signed payout transaction': String(payout.raw_tx).slice(2, 120),
      }
      for (const [name, secret] of Object.entries(secrets)) {
        expect(secret.length, name).toBeGreaterThan(20)
        expect(output.includes(secret), `${name} is in the log`).toBe(false)
      }
      if (process.env.SHOW_LOG) console.log(output)
      console.log(JSON.stringify({ engine, sigtermToExitMs: exitedAfterMs, analysisMs: results.map((r) => r.ms), logLines: lines.length }))
    }, 90_000)
  })

  describe('SIGTERM to an analysis worker past its grace', () => {
    let web: AppServer
    beforeAll(async () => {
      const dbUrl = pg ? await createDatabase(pg.url, 'recircle_worker_shutdown') : undefined
      web = await startAppServer({ RECEIPT_ANALYSIS: 'queue', ...(dbUrl ? { DATABASE_URL: dbUrl } : {}) })
    })
    afterAll(() => web?.stop())

    function startWorker(name: string) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
        env: { ...process.env, DATABASE_URL: web.dbUrl, SESSION_SECRET: 'e2e-session-secret-that-is-long-enough-0123456789', OCR_WORKERS: '1', SECOND_READER: 'off', SHUTDOWN_GRACE_MS: '0', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout?.on('data', (d) => (output += d))
      child.stderr?.on('data', (d) => (output += d))
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      return { name, child, output: () => output, exited }
    }

    it('hands the job in hand back to the queue, and another worker answers it', async () => {
      const user = await signIn(web.baseUrl)
      const db = createDb(web.dbUrl)
      const first = startWorker('first')
      try {
        await waitFor('the first worker', async () => first.output().includes('waiting for jobs'), 30_000)
        const image = await receiptImage({ vendor: 'Uber', lines: [['Trip fare', '$18.40']], total: '$18.40', date: writtenDate(todayUtc()) })
        const answer = fetch(`${web.baseUrl}/api/receipts/validate`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: user.cookie },
          body: JSON.stringify({ image: `data:image/png;base64,${image.toString('base64')}` }),
        }).then(async (res) => ({ status: res.status, body: await res.json() }))
        const owner = await waitFor('the first worker to take the job', async () => {
          const job = await db.selectFrom('analysis_jobs').select(['lease_owner', 'status']).where('status', '=', 'running').executeTakeFirst()
          return job?.lease_owner
        })
        first.child.kill('SIGTERM')
        expect(await first.exited).toBe(0)
        const handedBack = first.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((l) => l.handedBack !== undefined)
        expect(handedBack).toMatchObject({ handedBack: 1, owner, component: 'analysis-worker' })
        const job = await db.selectFrom('analysis_jobs').select(['status', 'lease_owner', 'attempts']).executeTakeFirstOrThrow()
        expect(job).toEqual({ status: 'queued', lease_owner: null, attempts: 0 })

        const second = startWorker('second')
        try {
          const result = await answer
          expect(result.status).toBe(200)
          expect(result.body.storeName).toBe('Uber')
        } finally {
          second.child.kill('SIGTERM')
          await second.exited
        }
      } finally {
        if (first.child.exitCode === null) first.child.kill('SIGKILL')
        await db.destroy()
      }
    }, 90_000)
  })
})

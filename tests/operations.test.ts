import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { Writable } from 'node:stream'
import type { Server } from 'node:http'
import { json, type ServerBuild } from '@remix-run/node'
import { http, passthrough } from 'msw'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDb, migrateToLatest, type DB } from '../db/db.server'
import { migrations } from '../db/migrations/index'
import { checkReadiness, migrationsReadiness } from '../app/ops/health.server'
import { bearerMatches } from '../app/ops/express.server'
import { createLogger } from '../app/ops/logger.server'
import { createMetrics, scrape } from '../app/ops/metrics.server'
import { startMetricsServer } from '../app/ops/metrics-port.server'
import { readOperatorFigures } from '../app/ops/figures.server'
import { getDb } from '../app/utils/db.server'
import { createServerApp } from '../scripts/server'
import { server as msw } from './mocks/index'
import { userWithClaim } from './utils/payouts'

// Issue 25: health, readiness, metrics and the request log line, through the real Express layer
// (scripts/server.ts) around a small build, on the suite's database (SQLite, or PostgreSQL with test:pg).

const build = {
  mode: 'production',
  entry: { module: { default: () => new Response('document') } },
  routes: {
    root: { id: 'root', path: '', module: { default: () => null } },
    'routes/scan_.receipts.$id': { id: 'routes/scan_.receipts.$id', parentId: 'root', path: 'scan/receipts/:id', module: { loader: ({ context, request }: { context: { requestId?: string }; request: Request }) => json({ requestId: context.requestId, header: request.headers.get('x-request-id') }) } },
    'routes/api.slow': { id: 'routes/api.slow', parentId: 'root', path: 'api/slow', module: { loader: async () => (await new Promise((r) => setTimeout(r, 50)), json({ ok: true })) } },
  },
  assets: { entry: { module: '/build/entry.js', imports: [] }, routes: {}, url: '/build/manifest.js', version: 'test' },
  publicPath: '/build/',
  assetsBuildDirectory: 'public/build',
  future: {},
  isSpaMode: false,
  basename: undefined,
} as unknown as ServerBuild

const TOKEN = 'metrics-token-0123456789abcdef'

type Started = { base: string; server: Server; lines: Record<string, unknown>[]; state: { shuttingDown: boolean } }

async function start(opts: { trustProxy?: boolean; db?: DB; token?: string } = {}): Promise<Started> {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      callback()
    },
  })
  const state = { shuttingDown: false }
  const app = createServerApp({
    buildPath: 'unused',
    trustProxy: opts.trustProxy ?? false,
    getBuild: async () => build,
    ops: {
      db: opts.db ?? getDb(),
      lifecycle: { shuttingDown: () => state.shuttingDown },
      metricsToken: 'token' in opts ? opts.token : TOKEN,
      logger: createLogger({ level: 'debug', destination }),
      metrics: createMetrics({ defaultMetrics: true }),
    },
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  msw.use(http.all(`${base}/*`, () => passthrough()))
  return { base, server, lines, state }
}

async function stop(s: Started) {
  s.server.closeAllConnections()
  await new Promise((resolve) => s.server.close(resolve))
}

let app: Started
beforeAll(async () => {
  app = await start()
})
afterAll(() => stop(app))
beforeEach(() => {
  msw.use(http.all(`${app.base}/*`, () => passthrough()))
  app.state.shuttingDown = false
})

describe('GET /healthz and /readyz', () => {
  it('healthz answers without the database, readyz checks it', async () => {
    const res = await fetch(`${app.base}/healthz`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${app.base}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
  })

  it('readyz answers 503 once shutdown has begun, healthz still 200', async () => {
    app.state.shuttingDown = true
    const ready = await fetch(`${app.base}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toEqual({ status: 'not ready', reason: 'shutting down' })
    expect(ready.headers.get('connection')).toBe('close')
    expect((await fetch(`${app.base}/healthz`)).status).toBe(200)
  })

  it('readyz answers 503 with a short reason when the database is down, and shows no URL', async () => {
    const down = await start({ db: createDb('postgres://recircle:secret-password@127.0.0.1:1/recircle') })
    try {
      const res = await fetch(`${down.base}/readyz`)
      expect(res.status).toBe(503)
      const text = await res.text()
      expect(JSON.parse(text)).toEqual({ status: 'not ready', reason: 'database unavailable' })
      expect(text).not.toMatch(/secret|127\.0\.0\.1|recircle:/)
      // Liveness does not depend on the database.
      expect((await fetch(`${down.base}/healthz`)).status).toBe(200)
    } finally {
      await stop(down)
    }
  })
})

describe('checkReadiness', () => {
  it.each([
    [null, ['0001', '0002'], { ready: false, reason: 'database not migrated' }],
    [['0001'], ['0001', '0002', '0003'], { ready: false, reason: '2 migrations pending' }],
    [['0001', '0002'], ['0001', '0002', '0003'], { ready: false, reason: '1 migration pending' }],
    [['0001', '0002'], ['0001', '0002'], { ready: true }],
    // A newer instance migrated further (a rolling deploy): this one still works on the database.
    [['0001', '0002', '0003'], ['0001', '0002'], { ready: true }],
  ])('applied %j, expected %j: %j', (applied, expected, result) => {
    expect(migrationsReadiness(applied, expected)).toEqual(result)
  })

  it('an empty database is not ready until it is migrated', async () => {
    const fresh = createDb('file::memory:')
    try {
      expect(await checkReadiness(fresh, { shuttingDown: false })).toEqual({ ready: false, reason: 'database not migrated' })
      await migrateToLatest(fresh)
      expect(await checkReadiness(fresh, { shuttingDown: false })).toEqual({ ready: true })
      expect(Object.keys(migrations).length).toBeGreaterThan(5)
    } finally {
      await fresh.destroy()
    }
  })

  it('a database that accepts the connection and never answers times out', async () => {
    const silent = net.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const db = createDb(`postgres://x@127.0.0.1:${(silent.address() as AddressInfo).port}/x`)
    try {
      const started = performance.now()
      expect(await checkReadiness(db, { shuttingDown: false, timeoutMs: 200 })).toEqual({ ready: false, reason: 'database timed out' })
      expect(performance.now() - started).toBeLessThan(1000)
    } finally {
      void db.destroy().catch(() => {})
      silent.close()
    }
  })
})

describe('GET /metrics', () => {
  it('is refused without a configured token, and without the right bearer token', async () => {
    const off = await start({ token: undefined })
    try {
      const res = await fetch(`${off.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
      expect(res.status).toBe(403)
      expect((await res.json()).error).toMatch(/METRICS_TOKEN.*METRICS_PORT/)
    } finally {
      await stop(off)
    }
    expect((await fetch(`${app.base}/metrics`)).status).toBe(401)
    const wrong = await fetch(`${app.base}/metrics`, { headers: { Authorization: 'Bearer wrong-token-wrong-token' } })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/)
  })

  it.each([
    ['Bearer ' + TOKEN, TOKEN, true],
    ['Bearer  ' + TOKEN + ' ', TOKEN, true],
    ['bearer ' + TOKEN, TOKEN, false],
    [TOKEN, TOKEN, false],
    ['Bearer ' + TOKEN.slice(0, -1), TOKEN, false],
    [undefined, TOKEN, false],
    ['Bearer anything', undefined, false],
  ])('bearerMatches(%j, %j) = %s', (header, token, expected) => {
    expect(bearerMatches(header, token)).toBe(expected)
  })

  it('serves Prometheus text: process metrics, requests by route pattern, and the database figures', async () => {
    await fetch(`${app.base}/scan/receipts/41`)
    await fetch(`${app.base}/scan/receipts/42`)
    await fetch(`${app.base}/api/slow`)
    const res = await fetch(`${app.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/)
    const text = await res.text()
    expect(text).toContain('process_cpu_user_seconds_total')
    expect(text).toContain('nodejs_eventloop_lag_seconds')
    expect(text).toMatch(/recircle_http_requests_total\{method="GET",route="\/scan\/receipts\/:id",status="200"\} 2/)
    expect(text).not.toContain('/scan/receipts/41')
    expect(text).toMatch(/recircle_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/slow",status="200"\} 1/)
    expect(text).toMatch(/recircle_http_request_duration_seconds_bucket\{le="0.025",method="GET",route="\/api\/slow",status="200"\} 0/)
    expect(text).toMatch(/^recircle_db_figures_up 1$/m)
    for (const name of ['recircle_review_queue_size', 'recircle_review_queue_oldest_age_seconds', 'recircle_payouts_oldest_unconfirmed_age_seconds', 'recircle_analysis_jobs_queued']) {
      expect(text).toMatch(new RegExp(`^${name} \\d+$`, 'm'))
    }
    expect(text).toMatch(/^recircle_payouts\{status="pending"\} \d+$/m)
    expect(text).toMatch(/^recircle_ledger_milli_b3tr\{kind="credited"\} \d+$/m)
    for (const name of ['recircle_receipt_analyses_total', 'recircle_receipt_analysis_duration_seconds', 'recircle_ocr_refusals_total', 'recircle_ocr_queue_depth']) {
      expect(text).toContain(`# TYPE ${name}`)
    }
  })

  it('reads the figures from the database at scrape time: a new claim shows at once', async () => {
    const before = await readOperatorFigures(getDb())
    const claim = await userWithClaim(12_345)
    const metrics = createMetrics({ defaultMetrics: false })
    const text = await scrape(metrics, { db: getDb() })
    expect(text).toContain(`recircle_payouts{status="pending"} ${before.payouts.byStatus.pending.count + 1}`)
    expect(text).toContain(`recircle_ledger_milli_b3tr{kind="claimed"} ${before.ledger.claimedMilli + claim.amountMilli}`)
    expect(text).toContain(`recircle_ledger_milli_b3tr{kind="credited"} ${before.ledger.creditedMilli + claim.amountMilli}`)
    expect(text).toContain(`recircle_ledger_milli_b3tr{kind="paid"} ${before.ledger.paidMilli}`)
    const after = await readOperatorFigures(getDb())
    expect(after.payouts.unconfirmed).toBe(before.payouts.unconfirmed + 1)
  })

  it('answers within the timeout when the database does not, without stale figures', async () => {
    const silent = net.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const db = createDb(`postgres://x@127.0.0.1:${(silent.address() as AddressInfo).port}/x`)
    const metrics = createMetrics({ defaultMetrics: false })
    try {
      await scrape(metrics, { db: getDb() })
      const started = performance.now()
      const text = await scrape(metrics, { db, timeoutMs: 200 })
      expect(performance.now() - started).toBeLessThan(1000)
      expect(text).toMatch(/^recircle_db_figures_up 0$/m)
      expect(text).not.toMatch(/^recircle_review_queue_size \d/m)
      expect(text).not.toMatch(/^recircle_ledger_milli_b3tr\{/m)
    } finally {
      void db.destroy().catch(() => {})
      silent.close()
    }
  })
})

describe('METRICS_PORT', () => {
  it('serves /metrics without a token and /healthz on its own port, and nothing else', async () => {
    const metrics = createMetrics({ defaultMetrics: false })
    metrics.analyses.inc({ outcome: 'auto', reader: 'tesseract' })
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1', metrics, db: getDb(), logger: createLogger({ level: 'silent' }) })
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    msw.use(http.all(`${base}/*`, () => passthrough()))
    try {
      const res = await fetch(`${base}/metrics`)
      expect(res.status).toBe(200)
      const text = await res.text()
      expect(text).toContain('recircle_receipt_analyses_total{outcome="auto",reader="tesseract"} 1')
      expect(text).toMatch(/^recircle_db_figures_up 1$/m)
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' })
      expect((await fetch(`${base}/`)).status).toBe(404)
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('the request log line and X-Request-Id', () => {
  it('writes one JSON line per request with id, route, status and duration, and echoes the id', async () => {
    const res = await fetch(`${app.base}/scan/receipts/7?secret=query`, { headers: { 'X-Request-Id': 'from-the-proxy' } })
    const id = res.headers.get('x-request-id')
    // Without TRUST_PROXY a client's id is not taken.
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    // Remix gets the same id, in its context and in place of the client's header.
    expect(await res.json()).toEqual({ requestId: id, header: id })
    await new Promise((r) => setTimeout(r, 20))
    const line = app.lines.find((l) => l.reqId === id)
    expect(line).toMatchObject({ level: 30, msg: 'request', method: 'GET', route: '/scan/receipts/:id', path: '/scan/receipts/7', status: 200 })
    expect(typeof line?.ms).toBe('number')
    expect(typeof line?.time).toBe('string')
    expect(JSON.stringify(app.lines)).not.toContain('secret=query')
  })

  it('takes the proxy id behind a trusted proxy, but not one that could forge a log line', async () => {
    const proxied = await start({ trustProxy: true })
    try {
      const res = await fetch(`${proxied.base}/scan/receipts/8`, { headers: { 'X-Request-Id': 'lb-7f3a9c' } })
      expect(res.headers.get('x-request-id')).toBe('lb-7f3a9c')
      const forged = await fetch(`${proxied.base}/scan/receipts/8`, { headers: { 'X-Request-Id': 'x" level=60' } })
      expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    } finally {
      await stop(proxied)
    }
  })

  it('health checks are logged at debug level only; a file from public/ is a static file', async () => {
    await fetch(`${app.base}/healthz`)
    await fetch(`${app.base}/readyz`)
    await fetch(`${app.base}/favicon.svg`)
    await new Promise((r) => setTimeout(r, 20))
    const health = app.lines.filter((l) => l.path === '/healthz' || l.path === '/readyz')
    expect(health.length).toBeGreaterThan(0)
    expect(health.every((l) => l.level === 20)).toBe(true)
    expect(app.lines.find((l) => l.path === '/favicon.svg')).toMatchObject({ level: 30, route: 'static file', status: 200 })
  })
})

/**
 * Issue 29, points 7–9: the HTTP edge as an outsider meets it. Behind a trusted proxy the client
 * address is the one the proxy appended, not what the client wrote; metric labels do not multiply
 * by made-up methods; a method the app does not serve gets 405, and an error no route answered is
 * one JSON log line, never a stack trace on stderr.
 */
import { METHODS } from 'node:http'
import net from 'node:net'
import { Writable } from 'node:stream'
import { json, type ServerBuild } from '@remix-run/node'
import { http as mswHttp, passthrough } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { KNOWN_METHODS } from '../app/ops/express.server'
import { createLogger } from '../app/ops/logger.server'
import { createMetrics, scrape } from '../app/ops/metrics.server'
import { getDb } from '../app/utils/db.server'
import { clientIpFrom, rateLimits, requireWithinRateLimits } from '../app/utils/rate-limit.server'
import { createServerApp } from '../scripts/server'
import { server as msw } from './mocks/index'
import { useTestEnv } from './utils/env'
import { resourceBuild } from './utils/remix-build'

useTestEnv({ RATE_LIMITS_DISABLED: '', RATE_LIMIT_CHALLENGE_PER_IP_PER_MINUTE: '30' })

/** A build of two resource routes: one echoes the client address, one is rate-limited per address. */
const build = resourceBuild({
  'routes/ip': { path: 'ip', module: { loader: ({ context }: { context: unknown }) => json({ ip: clientIpFrom(context) }) } },
  'routes/limited': {
    path: 'limited',
    module: {
      loader: async ({ context }: { context: unknown }) => {
        await requireWithinRateLimits(getDb(), [rateLimits.challengeByIp(clientIpFrom(context))])
        return json({ ok: true })
      },
    },
  },
})

type Started = { base: string; port: number; close: () => Promise<void>; lines: Array<Record<string, unknown>>; metrics: ReturnType<typeof createMetrics> }
const started: Started[] = []
afterEach(async () => {
  for (const s of started.splice(0)) await s.close()
})

async function start(opts: { trustProxy?: boolean | number; getBuild?: () => Promise<ServerBuild> } = {}): Promise<Started> {
  const lines: Array<Record<string, unknown>> = []
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      callback()
    },
  })
  const metrics = createMetrics()
  const app = createServerApp({ buildPath: 'unused', trustProxy: opts.trustProxy ?? 0, getBuild: opts.getBuild ?? (async () => build), ops: { logger: createLogger({ level: 'info', destination }), metrics } })
  // Express's final handler prints stack traces to stderr outside the test environment: run as production does.
  app.set('env', 'production')
  const listener = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => listener.once('listening', resolve))
  const port = (listener.address() as net.AddressInfo).port
  const base = `http://127.0.0.1:${port}`
  msw.use(mswHttp.all(`${base}/*`, () => passthrough()))
  const s = { base, port, lines, metrics, close: () => new Promise<void>((resolve) => listener.close(() => resolve())) }
  started.push(s)
  return s
}

/** A request with any method over a plain socket (fetch refuses TRACE; msw wraps node:http). */
function request(port: number, method: string, path: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`))
    let raw = ''
    socket.setTimeout(5000, () => socket.destroy(new Error(`${method}: no answer`)))
    socket.on('data', (c) => (raw += c))
    socket.on('error', reject)
    socket.on('close', () => {
      const [head, ...rest] = raw.split('\r\n\r\n')
      const [statusLine, ...headerLines] = head.split('\r\n')
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      let body = rest.join('\r\n\r\n')
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '')
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    })
  })
}

describe('behind a trusted proxy', () => {
  it('takes the address the proxy appended, so a rotating X-Forwarded-For meets the per-address limit', async () => {
    const { base } = await start({ trustProxy: 1 })
    // The limit counts per minute from the minute's start: 35 requests must not straddle two windows.
    const intoMinute = Date.now() % 60_000
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50))
    const statuses: number[] = []
    for (let i = 0; i < 35; i++) {
      // The client writes whatever it likes; the proxy appends the address it saw.
      const res = await fetch(`${base}/limited`, { headers: { 'X-Forwarded-For': `198.51.100.${i}, 192.0.2.${(process.pid % 200) + 1}` } })
      statuses.push(res.status)
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30)
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429])
  }, 60_000)

  it.each([
    [0, '127.0.0.1'],
    [1, '10.0.0.1'],
    [2, '203.0.113.7'],
  ])('with %s proxies in front the client is %s', async (hops, ip) => {
    const { base } = await start({ trustProxy: hops })
    const res = await fetch(`${base}/ip`, { headers: { 'X-Forwarded-For': '198.51.100.99, 203.0.113.7, 10.0.0.1' } })
    expect(await res.json()).toEqual({ ip })
  })
})

describe('methods', () => {
  // Every method Node's parser accepts that the app does not serve (CONNECT opens a tunnel instead;
  // a name Node does not know, like FOO, Node itself answers 400).
  const unknown = METHODS.filter((m) => !(KNOWN_METHODS as readonly string[]).includes(m) && m !== 'CONNECT')

  it('answers a method the app does not serve with 405, JSON and Allow, and logs it as one JSON line', async () => {
    const stderr = vi.spyOn(process.stderr, 'write')
    const consoleError = vi.spyOn(console, 'error')
    try {
      const { port, lines } = await start()
      for (const method of unknown) {
        const res = await request(port, method, '/ip')
        expect(res.status, method).toBe(405)
        expect(res.headers.allow).toMatch(/GET/)
        expect(JSON.parse(res.body)).toEqual({ error: 'Method not allowed' })
      }
      expect(lines.filter((l) => l.msg === 'request' && l.status === 405)).toHaveLength(unknown.length)
      expect(stderr).not.toHaveBeenCalled()
      expect(consoleError).not.toHaveBeenCalled()
    } finally {
      stderr.mockRestore()
      consoleError.mockRestore()
    }
  })

  it('labels metrics with the known methods and `other`, however many methods clients invent', async () => {
    const { port, metrics } = await start()
    for (const method of [...unknown, 'GET', 'POST']) await request(port, method, '/ip')
    const text = await scrape(metrics)
    const methods = new Set([...text.matchAll(/recircle_http_requests_total\{[^}]*method="([^"]+)"/g)].map((m) => m[1]))
    expect([...methods].sort()).toEqual(['GET', 'POST', 'other'])
  })

  it('answers an error no route caught with a plain 500 and one JSON log line, no stack on stderr', async () => {
    const stderr = vi.spyOn(process.stderr, 'write')
    const consoleError = vi.spyOn(console, 'error')
    try {
      const { base, lines } = await start({ getBuild: async () => Promise.reject(new Error('build unavailable')) })
      const res = await fetch(`${base}/anything`)
      expect(res.status).toBe(500)
      expect(await res.json()).toEqual({ error: 'Internal server error' })
      expect(lines.find((l) => l.msg === 'request failed')).toMatchObject({ err: { message: 'build unavailable' } })
      expect(stderr).not.toHaveBeenCalled()
      expect(consoleError).not.toHaveBeenCalled()
    } finally {
      stderr.mockRestore()
      consoleError.mockRestore()
    }
  })
})

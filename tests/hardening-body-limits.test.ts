import type { AddressInfo } from 'node:net'
import net from 'node:net'
import type { Server } from 'node:http'
import { json, type ServerBuild } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORM_BODY_LIMIT_BYTES, RECEIPT_BODY_LIMIT_BYTES } from '../app/utils/body-limits.server'
import { resetEnvCache } from '../app/utils/env.server'
import { MAX_JSON_BODY_BYTES } from '../app/receipts/http.server'
import { createServerApp } from '../scripts/server'
import { signInNewUser } from './utils/requests'

// Issue 10: two unauthenticated 600 MB bodies were read whole and left the server at 1.7 GB RSS.
// The Express layer must refuse an oversized body before Remix reads it.

const MB = 1024 * 1024

/** Bytes each request's body handed to Remix; a route that reads everything, like `request.json()` does. */
const bytesSeenByRemix = new Map<string, number>()

const readEverything = async ({ request }: { request: Request }) => {
  const bytes = (await request.arrayBuffer()).byteLength
  const path = new URL(request.url).pathname
  bytesSeenByRemix.set(path, (bytesSeenByRemix.get(path) ?? 0) + bytes)
  return json({ bytes })
}

/** The smallest build Remix will serve: every path is a resource route whose action reads the body. */
const fakeBuild = {
  mode: 'production',
  entry: { module: { default: () => new Response('document', { status: 200 }) } },
  routes: {
    root: { id: 'root', path: '', module: { default: () => null } },
    'routes/$': { id: 'routes/$', parentId: 'root', path: '*', module: { action: readEverything, loader: () => json({ ok: true }) } },
  },
  assets: { entry: { module: '/build/entry.js', imports: [] }, routes: {}, url: '/build/manifest.js', version: 'test' },
  publicPath: '/build/',
  assetsBuildDirectory: 'public/build',
  future: {},
  isSpaMode: false,
  basename: undefined,
} as unknown as ServerBuild

let server: Server
let port: number
/** A signed-in rider's Cookie header: receipt-sized bodies are read only for a session (issue 38). */
let cookie: string

beforeAll(async () => {
  cookie = (await signInNewUser()).cookie
  const app = createServerApp({ buildPath: 'unused', trustProxy: false, getBuild: async () => fakeBuild })
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** bodyBytesSentBeforeAnswer: how much of the body had been written when the answer's first byte arrived. */
type RawAnswer = { status: number; headers: string; body: string; bodyBytesSent: number; bodyBytesSentBeforeAnswer: number }

/** `total` bytes produced 64 kB at a time, only as fast as the socket takes them. */
function* lazyBody(total: number) {
  const chunk = Buffer.alloc(64 * 1024, 'a')
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, total - sent))
}

/**
 * One HTTP/1.1 request over a plain socket (msw does not intercept `net`, and a plain socket shows
 * exactly when the server answers). `chunked` sends the body with Transfer-Encoding: chunked and no
 * Content-Length; otherwise the headers must carry Content-Length. Writing stops when the server
 * closes the connection; the answer is whatever arrived within `timeoutMs`.
 */
function rawRequest(opts: {
  path: string
  headers: Record<string, string>
  body: Iterable<Buffer>
  chunked: boolean
  timeoutMs?: number
  /** A pause before each chunk: a client on a slow uplink, so the answer's timing shows what was read. */
  chunkDelayMs?: number
}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const received: Buffer[] = []
    let bodyBytesSent = 0
    let bodyBytesSentBeforeAnswer = -1
    let closed = false
    const finish = () => {
      if (closed) return
      closed = true
      clearTimeout(timer)
      socket.destroy()
      const text = Buffer.concat(received).toString('latin1')
      const split = text.indexOf('\r\n\r\n')
      const headers = split === -1 ? text : text.slice(0, split)
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0)
      resolve({ status, headers, body: split === -1 ? '' : text.slice(split + 4), bodyBytesSent, bodyBytesSentBeforeAnswer })
    }
    const timer = setTimeout(finish, opts.timeoutMs ?? 10_000)
    socket.on('data', (chunk: Buffer) => {
      if (bodyBytesSentBeforeAnswer < 0) bodyBytesSentBeforeAnswer = bodyBytesSent
      received.push(chunk)
    })
    socket.on('error', () => {}) // EPIPE / ECONNRESET once the server has answered and hung up
    socket.on('close', finish)

    const head = Object.entries({ Host: `127.0.0.1:${port}`, Connection: 'close', ...opts.headers })
      .concat(opts.chunked ? [['Transfer-Encoding', 'chunked']] : [])
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')
    socket.write(`POST ${opts.path} HTTP/1.1\r\n${head}\r\n`)

    void (async () => {
      for (const chunk of opts.body) {
        if (opts.chunkDelayMs) await new Promise((resume) => setTimeout(resume, opts.chunkDelayMs))
        if (closed || socket.destroyed || !socket.writable) return
        const frame = opts.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk
        bodyBytesSent += chunk.length
        if (!socket.write(frame)) {
          await new Promise((resume) => {
            socket.once('drain', resume)
            socket.once('close', resume)
          })
        }
      }
      if (opts.chunked && !closed && socket.writable) socket.write('0\r\n\r\n')
    })()
  })
}

describe('request body limits in the Express layer', () => {
  it('keeps the receipt limit above a 5 MB photo sent as a JSON data URL', () => {
    expect(RECEIPT_BODY_LIMIT_BYTES).toBeGreaterThanOrEqual(MAX_JSON_BODY_BYTES)
    expect(FORM_BODY_LIMIT_BYTES).toBe(64 * 1024)
  })

  it.each([
    ['/api/auth/certificate', 'application/json'],
    ['/feedback', 'application/x-www-form-urlencoded'],
  ])('answers 413 to a 50 MB chunked body to %s before it is all sent, without handing it to Remix', async (path, type) => {
    const total = 50 * MB
    const answer = await rawRequest({ path, headers: { 'Content-Type': type, Origin: `http://127.0.0.1:${port}` }, body: lazyBody(total), chunked: true })
    expect(answer.status).toBe(413)
    expect(answer.bodyBytesSent).toBeLessThan(total / 2)
    expect(bytesSeenByRemix.get(path) ?? 0).toBe(0)
  })

  it('answers 413 at once to a declared 600 MB body, without waiting for it', async () => {
    const started = Date.now()
    const answer = await rawRequest({
      path: '/api/auth/certificate',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(600 * MB) },
      body: [],
      chunked: false,
      timeoutMs: 3000,
    })
    expect(answer.status).toBe(413)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String), message: expect.any(String) })
  })

  it('answers a page with plain text and an API with JSON', async () => {
    const page = await rawRequest({ path: '/feedback', headers: { 'Content-Length': String(FORM_BODY_LIMIT_BYTES + 1) }, body: [], chunked: false })
    expect(page.status).toBe(413)
    expect(page.headers).toMatch(/content-type: text\/plain/i)
    expect(page.body).toBe('Request body too large')

    const api = await rawRequest({ path: '/api/receipts', headers: { 'Content-Length': String(RECEIPT_BODY_LIMIT_BYTES + 1) }, body: [], chunked: false })
    expect(api.status).toBe(413)
    expect(JSON.parse(api.body)).toEqual({
      error: 'This upload is too large. Photos must be under 5 MB.',
      message: 'This upload is too large. Photos must be under 5 MB.',
    })
  })

  it('refuses an 8 MB photo upload to the scan page while it streams', async () => {
    const answer = await rawRequest({ path: '/scan', headers: { 'Content-Type': 'multipart/form-data; boundary=x', Cookie: cookie }, body: lazyBody(8 * MB), chunked: true })
    expect(answer.status).toBe(413)
    expect(answer.body).toBe('This upload is too large. Photos must be under 5 MB.')
    expect(bytesSeenByRemix.get('/scan') ?? 0).toBe(0)
  })

  it('passes bodies under the limits to Remix whole', async () => {
    bytesSeenByRemix.clear()
    const form = await rawRequest({ path: '/feedback', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: lazyBody(60 * 1024), chunked: true })
    expect(form.status).toBe(200)
    expect(bytesSeenByRemix.get('/feedback')).toBe(60 * 1024)

    const photo = 7 * MB // a 5 MB photo as a JSON data URL, with room to spare
    const upload = await rawRequest({
      path: '/api/receipts/validate',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(photo), Cookie: cookie },
      body: lazyBody(photo),
      chunked: false,
    })
    expect(upload.status).toBe(200)
    expect(bytesSeenByRemix.get('/api/receipts/validate')).toBe(photo)

    const scan = await rawRequest({ path: '/scan/receipts/12', headers: { 'Content-Type': 'multipart/form-data; boundary=x', Cookie: cookie }, body: lazyBody(6 * MB), chunked: true })
    expect(scan.status).toBe(200)
    expect(bytesSeenByRemix.get('/scan/receipts/12')).toBe(6 * MB)
  })
})

describe('a receipt-sized body from someone who may not send one (issue 38)', () => {
  it.each([
    ['/api/receipts/validate', 401],
    ['/api/receipts', 401],
    ['/scan', 303],
    ['/scan/receipts/12', 303],
  ])('answers %s with %i before reading a 7 MB body, and hands nothing to Remix', async (path, status) => {
    bytesSeenByRemix.clear()
    const total = 7 * MB
    const answer = await rawRequest({ path, headers: { 'Content-Type': 'application/json', 'Content-Length': String(total) }, body: lazyBody(total), chunked: false, chunkDelayMs: 5 })
    expect(answer.status).toBe(status)
    if (status === 401) expect(JSON.parse(answer.body)).toEqual({ error: 'Not signed in' })
    else expect(answer.headers).toMatch(/location: \/connect-wallet\?redirectTo=/i)
    // The answer came before the body: at most a few of the 112 chunks had been sent.
    expect(answer.bodyBytesSentBeforeAnswer).toBeLessThan(total / 4)
    expect(answer.bodyBytesSent).toBeLessThan(total)
    expect(bytesSeenByRemix.get(path) ?? 0).toBe(0)
  })

  it("answers Remix's client (?_data=) as Remix redirects it, so the page follows to Connect Wallet", async () => {
    const answer = await rawRequest({
      path: '/scan?_data=routes%2Fscan',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(7 * MB) },
      body: lazyBody(7 * MB),
      chunked: false,
      chunkDelayMs: 5,
    })
    expect(answer.status).toBe(204)
    expect(answer.headers).toMatch(/x-remix-redirect: \/connect-wallet\?redirectTo=%2Fscan\r\n/i)
    expect(answer.bodyBytesSentBeforeAnswer).toBeLessThan((7 * MB) / 4)
  })

  it('refuses a forged session cookie the same way', async () => {
    const answer = await rawRequest({
      path: '/api/receipts/validate',
      headers: { 'Content-Type': 'application/json', Cookie: '__session=forged', 'Content-Length': String(7 * MB) },
      body: lazyBody(7 * MB),
      chunked: false,
    })
    expect(answer.status).toBe(401)
  })

  it('answers the inbound webhook 404 before reading while it is not configured, and 401 without its headers', async () => {
    const off = await rawRequest({ path: '/api/inbound-email', headers: { 'Content-Length': String(7 * MB) }, body: lazyBody(7 * MB), chunked: false, chunkDelayMs: 5 })
    expect(off.status).toBe(404)
    expect(off.bodyBytesSentBeforeAnswer).toBeLessThan((7 * MB) / 4)
    const before = { secret: process.env.INBOUND_WEBHOOK_SECRET, domain: process.env.INBOUND_DOMAIN }
    process.env.INBOUND_WEBHOOK_SECRET = 'a-webhook-secret-long-enough'
    process.env.INBOUND_DOMAIN = 'in.recircle.test'
    resetEnvCache()
    try {
      const unsigned = await rawRequest({ path: '/api/inbound-email', headers: { 'Content-Length': String(7 * MB) }, body: lazyBody(7 * MB), chunked: false, chunkDelayMs: 5 })
      expect(unsigned.status).toBe(401)
      expect(unsigned.bodyBytesSentBeforeAnswer).toBeLessThan((7 * MB) / 4)
      const stale = await rawRequest({
        path: '/api/inbound-email',
        headers: {
          'Content-Length': String(7 * MB),
          'X-Inbound-Timestamp': String(Math.floor(Date.now() / 1000) - 3600),
          'X-Inbound-Token': 'delivery-0123456789abcdef',
          'X-Inbound-Recipient': 'r-abc@in.recircle.test',
          'X-Inbound-Signature': 'ab'.repeat(32),
        },
        body: lazyBody(7 * MB),
        chunked: false,
      })
      expect(stale.status).toBe(401)
      expect(bytesSeenByRemix.get('/api/inbound-email') ?? 0).toBe(0)
    } finally {
      if (before.secret === undefined) delete process.env.INBOUND_WEBHOOK_SECRET
      else process.env.INBOUND_WEBHOOK_SECRET = before.secret
      if (before.domain === undefined) delete process.env.INBOUND_DOMAIN
      else process.env.INBOUND_DOMAIN = before.domain
      resetEnvCache()
    }
  })
})

import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { getResponse } from 'msw'
import { createFakeThor, type FakeThor, type FakeThorOptions } from './fake-thor'

// The fake Thor node over real HTTP, for a browser, an e2e run or a local demo: a plain node:http
// server that hands each request to the same msw handlers the unit tests use.

export type FakeThorServerOptions = FakeThorOptions & {
  /** 0 (the default) picks a free port. */
  port?: number
  /** Loopback only: the fake must never be reachable from another machine. */
  host?: '127.0.0.1'
  /** Mine one block every this many milliseconds (none when unset). */
  blockIntervalMs?: number
  /** Serve an existing fake (for instance one a test also drives through msw) instead of a new one. */
  fake?: FakeThor
}

export type FakeThorServer = { url: string; fake: FakeThor; close(): Promise<void> }

export async function startFakeThorServer(options: FakeThorServerOptions = {}): Promise<FakeThorServer> {
  const { port = 0, host = '127.0.0.1', blockIntervalMs, fake: given, ...fakeOptions } = options
  let fake: FakeThor | undefined = given
  const server = http.createServer((req, res) => {
    // No request can arrive before listen() has resolved, so the fake exists by now.
    answer(fake as FakeThor, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(String(error) + '\n')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const url = `http://${host}:${(server.address() as AddressInfo).port}`
  fake ??= createFakeThor({ ...fakeOptions, url })
  const served = fake

  const timer = blockIntervalMs ? setInterval(() => served.mine(), blockIntervalMs) : null
  timer?.unref()

  return {
    url,
    fake: served,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (timer) clearInterval(timer)
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

async function answer(fake: FakeThor, req: http.IncomingMessage, res: http.ServerResponse) {
  const request = await toFetchRequest(fake.url, req)
  const response = await getResponse(fake.handlers, request)
  if (!response) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('404 page not found\n')
    return
  }
  // HttpResponse.error() means "network error": the closest thing over HTTP is a cut connection.
  if (response.type === 'error') {
    req.socket.destroy()
    return
  }
  res.writeHead(response.status, Object.fromEntries(response.headers))
  res.end(Buffer.from(await response.arrayBuffer()))
}

/** The handlers match the fake's own base URL, so the request path is re-rooted there. */
async function toFetchRequest(baseUrl: string, req: http.IncomingMessage): Promise<Request> {
  const method = req.method ?? 'GET'
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks)
  const headers = new Headers()
  if (req.headers['content-type']) headers.set('content-type', req.headers['content-type'])
  return new Request(baseUrl + (req.url ?? '/'), { method, headers, body })
}

import path from 'node:path'
import { Readable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import type { DB } from '#db/db.server'
import { isCrossOriginWrite } from '~/auth/csrf.server'
import { healthz, logErrors, metricsEndpoint, readyz, refuseUnknownMethods, requestLog, type Lifecycle } from '~/ops/express.server'
import { getLogger, type Logger } from '~/ops/logger.server'
import { getMetrics, type AppMetrics } from '~/ops/metrics.server'
import { createRouteLabeler } from '~/ops/route-pattern'
import { gateUpload, type UploadGate } from '~/auth/upload-gate.server'
import { bodyLimitFor, bodyTooLargeMessage, isReceiptUpload } from '~/utils/body-limits.server'

export type ServerOptions = {
  buildPath: string
  /** Reverse proxies in front (TRUST_PROXY): 0 or false, none; true, one. */
  trustProxy: boolean | number
  /** Development: a fresh build per request (Remix re-derives its routes each time). */
  getBuild?: () => Promise<ServerBuild>
  /** Production: the build loaded once, so Remix derives its routes once. */
  build?: ServerBuild
  /** Operations (issue 25): the database for /readyz and the metrics' shared figures, and whether shutdown has begun. */
  ops?: { db?: DB; lifecycle?: Lifecycle; metricsToken?: string; logger?: Logger; metrics?: AppMetrics }
}

/**
 * The Express app around the Remix build: the request id and log line, health and metrics, static
 * assets, the CSRF check, body limits, then Remix.
 */
export function createServerApp({ buildPath, trustProxy, getBuild, build: loadedBuild, ops = {} }: ServerOptions) {
  const app = express()
  app.disable('x-powered-by')
  // A hop count: req.ip is then the address the nearest trusted proxy appended to X-Forwarded-For,
  // not the leftmost entry, which the client writes itself (issue 29).
  const proxyHops = trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy
  if (proxyHops > 0) app.set('trust proxy', proxyHops)

  const metrics = ops.metrics ?? getMetrics()
  const logger = ops.logger ?? getLogger()
  app.use(requestLog({ logger, metrics, trustProxy: proxyHops > 0, lifecycle: ops.lifecycle }))
  app.use(refuseUnknownMethods)
  // Public, cheap and outside every rate limit: they answer before anything else runs.
  app.get('/healthz', healthz)
  if (ops.db) app.get('/readyz', readyz({ db: ops.db, lifecycle: ops.lifecycle }))
  app.get('/metrics', metricsEndpoint({ metrics, db: ops.db, token: ops.metricsToken }))

  app.use('/build', express.static(path.resolve('public/build'), { immutable: true, maxAge: '1y' }))
  // Only a path with a file extension can be a file in public/: pages skip the file system look-up.
  const publicFiles = express.static(path.resolve('public'), { maxAge: '1h' })
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()))

  const build = loadedBuild ?? getBuild ?? (() => import(pathToFileURL(path.resolve(buildPath)).href) as Promise<ServerBuild>)
  // Past the files: the request is a route's. Its pattern names it in logs and metrics.
  app.use((req, res, next) => {
    routeLabel(build).then((label) => {
      res.locals.route = label(req.path)
      next()
    }, next)
  })

  app.use((req, res, next) => {
    const requestOrigin = `${req.protocol}://${req.get('host')}`
    if (isCrossOriginWrite(req.method, req.get('origin'), requestOrigin)) {
      res.status(403).json({ error: 'Cross-origin request refused' })
      return
    }
    next()
  })

  app.use(limitRequestBody)

  // The client address for rate limits (issue 10): behind TRUST_PROXY proxies, the address the
  // nearest of them appended to X-Forwarded-For; otherwise the socket's address.
  const getLoadContext = (req: express.Request, res: express.Response) => ({
    clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    requestId: res.locals.requestId as string,
  })
  const remix = createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext })
  app.all('*', (req, res, next) => remix(withReadBody(req), res, next))
  app.use(logErrors(logger))
  return app
}

const labelers = new WeakMap<ServerBuild, (pathname: string) => string>()

/** The route labeler of the build in use (one per build: in development each rebuild has its own). */
async function routeLabel(build: ServerBuild | (() => Promise<ServerBuild>)): Promise<(pathname: string) => string> {
  const current = typeof build === 'function' ? await build() : build
  let labeler = labelers.get(current)
  if (!labeler) {
    labeler = createRouteLabeler(current.routes)
    labelers.set(current, labeler)
  }
  return labeler
}

/** Request bodies read by limitRequestBody, for Remix. */
const readBodies = new WeakMap<express.Request, Buffer>()

/**
 * Reads every request body before Remix does, up to its limit (body-limits.server.ts): a declared
 * Content-Length over it is refused at once, unread; a chunked body is counted as it arrives and
 * refused the moment it passes the limit. Never more than the limit is held in memory. A
 * receipt-sized body is read only for someone who may send one (issue 38, auth/upload-gate.server.ts):
 * without a session (or the webhook's headers) the answer comes first and the body is never read.
 */
function limitRequestBody(req: express.Request, res: express.Response, next: express.NextFunction) {
  if (req.method === 'GET' || req.method === 'HEAD') return next()
  const limit = bodyLimitFor(req.path)
  if (Number(req.get('content-length')) > limit) return refuseBody(req, res)
  const read = () =>
    readBody(req, limit).then((body) => {
      if (body === 'too large') return refuseBody(req, res)
      if (body === 'closed') return // the client went away: nobody to answer
      readBodies.set(req, body)
      next()
    })
  if (!isReceiptUpload(req.path)) return void read().catch(next)
  // Only the path and query matter here: the host the client named plays no part.
  const url = new URL(req.originalUrl, 'http://localhost')
  gateUpload(url, headersOf(req))
    .then((gate) => (gate.ok ? read() : refuseUnread(res, gate, url.searchParams.has('_data'))))
    .catch(next)
}

function headersOf(req: express.Request): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) headers.set(name, value.join(', '))
  }
  return headers
}

/**
 * The gate's answer, with the body unread: the connection is closed so it never is. A page's form
 * posted by Remix's client (`?_data=`) is redirected as Remix redirects one: 204 with X-Remix-Redirect.
 */
function refuseUnread(res: express.Response, gate: Exclude<UploadGate, { ok: true }>, remixData: boolean) {
  res.set('Connection', 'close')
  if (gate.status !== 303) res.status(gate.status).json({ error: gate.error })
  else if (remixData) res.status(204).set({ 'X-Remix-Redirect': gate.location, 'X-Remix-Status': '303' }).end()
  else res.redirect(303, gate.location)
}

function readBody(req: express.Request, limit: number): Promise<Buffer | 'too large' | 'closed'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const settle = (result: Buffer | 'too large' | 'closed' | Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose)
      if (result instanceof Error) reject(result)
      else resolve(result)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      req.pause()
      settle('too large')
    }
    const onEnd = () => settle(Buffer.concat(chunks))
    const onError = (error: Error) => settle(error)
    const onClose = () => settle('closed')
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose)
  })
}

/** 413 without reading further; the connection is closed so the rest of the body is never read. */
function refuseBody(req: express.Request, res: express.Response) {
  const message = bodyTooLargeMessage(req.path)
  res.status(413).set('Connection', 'close')
  if (req.path.startsWith('/api/')) res.json({ error: message, message })
  else res.type('text/plain').send(message)
}

/**
 * The Remix adapter reads the body from `req` itself, which limitRequestBody has already read: give it
 * a `req` whose stream side replays those bytes and whose HTTP side (URL, headers, socket) is the real one.
 */
function withReadBody(req: express.Request): express.Request {
  const body = readBodies.get(req)
  if (body === undefined) return req
  const replay = Readable.from([body], { objectMode: false })
  return new Proxy(req, {
    get(target, key, receiver) {
      if (!(key in Readable.prototype)) return Reflect.get(target, key, receiver)
      const value: unknown = Reflect.get(replay, key)
      return typeof value === 'function' ? value.bind(replay) : value
    },
  })
}

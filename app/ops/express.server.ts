import crypto from 'node:crypto'
import type express from 'express'
import type { DB } from '#db/db.server'
import { checkReadiness } from './health.server'
import type { Logger } from './logger.server'
import { METRICS_CONTENT_TYPE, scrape, type AppMetrics } from './metrics.server'
import { requestIdFor } from './request-id'

// The operations endpoints and the request log line (issue 25), mounted by scripts/server.ts in
// front of everything else: a health check never waits behind a body limit or a page render.

/** Paths that a load balancer or Prometheus asks all day: counted, logged only at debug level. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

export type Lifecycle = { shuttingDown: () => boolean }

/**
 * Gives each request its id (echoed as X-Request-Id), and when the answer is done writes one log
 * line (id, method, route pattern, path without query, status, duration) and counts it in the
 * metrics. `res.locals.route` names the route; whatever was answered before routing (a file from
 * public/) is a static file.
 */
export function requestLog(opts: { logger: Logger; metrics: AppMetrics; trustProxy: boolean; lifecycle?: Lifecycle }): express.RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint()
    const id = requestIdFor(req.headers['x-request-id'], opts.trustProxy, () => crypto.randomUUID())
    res.locals.requestId = id
    res.setHeader('X-Request-Id', id)
    // Remix's Request carries the id too (a client's own, when not trusted, is replaced), so an
    // error logged by entry.server's handleError names the request it belongs to.
    req.headers['x-request-id'] = id
    // Draining (SIGTERM): every answer closes its connection, so keep-alive clients go elsewhere.
    if (opts.lifecycle?.shuttingDown()) res.setHeader('Connection', 'close')
    let done = false
    const finish = (aborted: boolean) => {
      if (done) return
      done = true
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const route = (res.locals.route as string | undefined) ?? (req.path.startsWith('/build/') ? '/build/*' : 'static file')
      const status = aborted && !res.headersSent ? 499 : res.statusCode
      const method = methodLabel(req.method)
      opts.metrics.httpRequests.inc({ method, route, status: String(status) })
      opts.metrics.httpDuration.observe({ method, route, status: String(status) }, seconds)
      const line = { reqId: id, method: req.method, route, path: req.path, status, ms: Math.round(seconds * 10_000) / 10, ...(aborted ? { aborted: true } : {}) }
      if (QUIET_PATHS.has(req.path)) opts.logger.debug(line, 'request')
      else opts.logger.info(line, 'request')
    }
    res.once('finish', () => finish(false))
    res.once('close', () => finish(!res.writableFinished))
    next()
  }
}

/** The methods the app serves; any other is answered 405 before routing. */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

/** A metric label a client cannot multiply: the known methods, and `other` for the rest (issue 29). */
export function methodLabel(method: string): string {
  return (KNOWN_METHODS as readonly string[]).includes(method) ? method : 'other'
}

/** 405 with Allow for a method the app does not serve (TRACE, PROPFIND…), before anything reads the request. */
export const refuseUnknownMethods: express.RequestHandler = (req, res, next) => {
  if ((KNOWN_METHODS as readonly string[]).includes(req.method)) return next()
  res.status(405).set('Allow', KNOWN_METHODS.join(', ')).set('Connection', 'close').json({ error: 'Method not allowed' })
}

/**
 * The last handler: an error no route answered is logged as one JSON line (never a stack trace on
 * stderr) and answered 500 without details.
 */
export function logErrors(logger: Logger): express.ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    logger.error({ reqId: res.locals.requestId, method: methodLabel(req.method), path: req.path, err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, 'request failed')
    if (res.headersSent) return next(error)
    res.status(500).json({ error: 'Internal server error' })
  }
}

/** GET /healthz: the process answers. No database call, nothing that can be slow. */
export const healthz: express.RequestHandler = (_req, res) => {
  res.locals.route = '/healthz'
  res.set('Cache-Control', 'no-store').json({ status: 'ok' })
}

/** GET /readyz: 200 when this instance should get traffic, else 503 with a short reason. */
export function readyz(opts: { db: DB; lifecycle?: Lifecycle }): express.RequestHandler {
  return (_req, res, next) => {
    res.locals.route = '/readyz'
    checkReadiness(opts.db, { shuttingDown: opts.lifecycle?.shuttingDown() ?? false }).then((result) => {
      res.set('Cache-Control', 'no-store')
      if (result.ready) res.json({ status: 'ready' })
      else res.status(503).json({ status: 'not ready', reason: result.reason })
    }, next)
  }
}

export const METRICS_REFUSED_MESSAGE = 'Metrics are served with a bearer token (METRICS_TOKEN) or on their own port (METRICS_PORT).'

/** Pure: may this Authorization header read the metrics? Compared in constant time. */
export function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false
  const given = crypto.createHash('sha256').update(header.slice('Bearer '.length).trim()).digest()
  const expected = crypto.createHash('sha256').update(token).digest()
  return crypto.timingSafeEqual(given, expected)
}

/**
 * GET /metrics on the public port: only with `Authorization: Bearer <METRICS_TOKEN>`. Without a
 * token configured it is refused (403): the figures (ledger totals, backlog) are not for everyone.
 */
export function metricsEndpoint(opts: { metrics: AppMetrics; db?: DB; token?: string }): express.RequestHandler {
  return (req, res, next) => {
    res.locals.route = '/metrics'
    res.set('Cache-Control', 'no-store')
    if (!opts.token) return void res.status(403).json({ error: METRICS_REFUSED_MESSAGE })
    if (!bearerMatches(req.get('authorization'), opts.token)) {
      return void res.status(401).set('WWW-Authenticate', 'Bearer realm="metrics"').json({ error: 'A valid bearer token is required for /metrics.' })
    }
    scrape(opts.metrics, { db: opts.db }).then((text) => res.type(METRICS_CONTENT_TYPE).send(text), next)
  }
}

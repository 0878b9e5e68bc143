import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DB } from '#db/db.server'
import type { Logger } from './logger.server'
import { METRICS_CONTENT_TYPE, scrape, type AppMetrics } from './metrics.server'

/**
 * METRICS_PORT (issue 25): /metrics without a token on a port of its own, for a network only
 * Prometheus reaches (the container's private network, not the load balancer). Also /healthz, so the
 * analysis and payout workers, which serve nothing else, can be health-checked. `db`: also read the
 * shared figures (web instances; the workers leave them to the web).
 */
export async function startMetricsServer(opts: { port: number; host?: string; metrics: AppMetrics; db?: DB; logger: Logger }): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n')
    } else if (path === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end('{"status":"ok"}')
    } else if (path === '/metrics') {
      scrape(opts.metrics, { db: opts.db }).then(
        (text) => res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' }).end(text),
        (error: Error) => {
          opts.logger.error({ err: error.message }, 'metrics scrape failed')
          res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics failed\n')
        },
      )
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: this port serves /metrics and /healthz\n')
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host, () => resolve())
  })
  opts.logger.info({ port: (server.address() as AddressInfo).port }, 'metrics listening')
  return server
}

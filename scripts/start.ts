import { envOrExit } from './load-env'
import fs from 'node:fs'
import type { Server } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { broadcastDevReady, type ServerBuild } from '@remix-run/node'
import { createDb, migrateToLatest } from '#db/db.server'
import { isEmpty, seed } from '#db/seed'
import { errorMessage, getLogger } from '~/ops/logger.server'
import { getMetrics } from '~/ops/metrics.server'
import { startMetricsServer } from '~/ops/metrics-port.server'
import { drainServer } from '~/ops/shutdown.server'
import { startPayouts } from '~/payouts/run.server'
import { purgeExpiredReceiptData } from '~/receipts/retention.server'
import { purgeExpiredDeviceCodes } from '~/auth/device-code.server'
import { startInboundSmtp } from '~/ereceipts/smtp.server'
import { receiveForwardedEmail } from '~/receipts/forwarded.server'
import { createServerApp } from './server'

const dev = process.argv.includes('--dev')
process.env.NODE_ENV ??= dev ? 'development' : 'production'

const env = envOrExit()
const log = getLogger()

const db = createDb(env.DATABASE_URL)
const applied = await migrateToLatest(db)
if (applied.length) log.info({ migrations: applied }, 'applied migrations')
if (await isEmpty(db)) {
  const { services, stores } = await seed(db)
  log.info(`Seeded ${services} transportation services and ${stores} demo stores.`)
}
await db.destroy()

const buildPath = path.resolve('build/index.js')
if (!fs.existsSync(buildPath)) {
  log.fatal('No build found: run `npm run build` first (npm start does this).')
  process.exit(1)
}

async function loadBuild(): Promise<ServerBuild> {
  // In development every rebuild is imported afresh (cache-busting query on the file URL).
  const stamp = dev ? `?t=${fs.statSync(buildPath).mtimeMs}` : ''
  return import(pathToFileURL(buildPath).href + stamp)
}

// The instance's own database handle: requests (through the build's getDb), /readyz, metrics, housekeeping, payouts.
const appDb = createDb(env.DATABASE_URL)
let shuttingDown = false
const ops = { db: appDb, lifecycle: { shuttingDown: () => shuttingDown }, metricsToken: env.METRICS_TOKEN, logger: log, metrics: getMetrics() }

// In production the build is loaded once: a build function would make Remix derive its route
// tables (and import the module) on every request, about a fifth of a page's cost (issue 12).
const app = createServerApp(
  dev
    ? { buildPath, trustProxy: env.TRUST_PROXY, getBuild: loadBuild, ops }
    : { buildPath, trustProxy: env.TRUST_PROXY, build: await loadBuild(), ops },
)
const server = app.listen(env.PORT, async () => {
  log.info(`ReCircle listening on http://localhost:${env.PORT}${env.RECIRCLE_TEST_MODE ? ' (test mode)' : ''}`)
  if (dev) broadcastDevReady(await loadBuild())
  // The second reader's models (issue 13) load in the background: the first bad photo does not wait.
  const entry = (await loadBuild()).entry.module as { warmUp?: () => Promise<void> }
  entry.warmUp?.().catch((error: Error) => log.error({ err: error.message }, 'The second receipt reader could not start'))
})
// /metrics without a token, on a port only Prometheus reaches (issue 25).
let metricsServer: Server | null = null
if (env.METRICS_PORT) metricsServer = await startMetricsServer({ port: env.METRICS_PORT, metrics: ops.metrics, db: appDb, logger: log })

if (dev) {
  fs.watch(path.dirname(buildPath), { persistent: false }, async () => {
    try {
      broadcastDevReady(await loadBuild())
    } catch {
      // a half-written build: the next change event retries
    }
  })
}

// Housekeeping (image retention, stale analyses, sessions, sign-in codes): idempotent, so every instance may run it.
async function housekeeping() {
  try {
    await purgeExpiredReceiptData(appDb)
    await purgeExpiredDeviceCodes(appDb)
  } catch (error) {
    log.error({ err: errorMessage(error) }, 'housekeeping failed')
  }
}
void housekeeping()
setInterval(housekeeping, 60 * 60 * 1000).unref()

// The payout worker, when a distributor key and the app id are configured (issue 9).
const stopPayouts = startPayouts(appDb, env)

// Forwarded e-receipts by SMTP (issue 21), when INBOUND_SMTP_PORT is set.
if (env.INBOUND_SMTP_PORT !== undefined && !env.INBOUND_DOMAIN) {
  log.fatal('INBOUND_SMTP_PORT needs INBOUND_DOMAIN: the domain of the forwarding addresses.')
  process.exit(1)
}
const smtp = env.INBOUND_SMTP_PORT !== undefined ? await startInboundSmtp(appDb, { port: env.INBOUND_SMTP_PORT, host: env.INBOUND_SMTP_HOST, receive: receiveForwardedEmail }) : null
if (smtp) log.info(`Forwarded e-receipts: SMTP on port ${smtp.port} for *@${env.INBOUND_DOMAIN}`)

/**
 * SIGTERM (a deploy) or SIGINT: /readyz answers 503 at once; after SHUTDOWN_DELAY_MS no new
 * connection is accepted; requests in flight (an inline receipt analysis is one) finish within
 * SHUTDOWN_GRACE_MS; the payout worker finishes the step in hand. Then the OCR workers stop, the
 * database closes and the process exits 0. Past the grace (plus 5 s to close down) it exits 1.
 */
async function shutdown(signal: string) {
  if (shuttingDown) return
  shuttingDown = true
  const started = Date.now()
  log.info({ signal, graceMs: env.SHUTDOWN_GRACE_MS, delayMs: env.SHUTDOWN_DELAY_MS }, 'shutting down: draining')
  setTimeout(() => {
    log.error({ ms: Date.now() - started }, 'shutdown took too long: exiting with work unfinished')
    process.exit(1)
  }, env.SHUTDOWN_DELAY_MS + env.SHUTDOWN_GRACE_MS + 5_000).unref()
  try {
    const payoutsStopped = stopPayouts?.()
    const drained = await drainServer(server, { delayMs: env.SHUTDOWN_DELAY_MS, graceMs: env.SHUTDOWN_GRACE_MS })
    metricsServer?.close()
    await smtp?.close()
    await payoutsStopped
    log.info({ ms: Date.now() - started, requestsCut: drained.cut }, 'requests drained, payout worker stopped')
    const build = await loadBuild()
    const entry = build.entry.module as { shutdown?: () => Promise<void> }
    await entry.shutdown?.()
  } catch (error) {
    log.error({ err: errorMessage(error) }, 'shutdown step failed')
  } finally {
    await appDb.destroy().catch(() => {})
    await globalThis.__recircleDb?.destroy().catch(() => {})
    log.info({ ms: Date.now() - started }, 'stopped')
    log.flush()
    process.exit(0)
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

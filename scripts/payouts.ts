import { envOrExit } from './load-env'
import { createDb, migrateToLatest } from '#db/db.server'
import { getLogger } from '~/ops/logger.server'
import { getMetrics } from '~/ops/metrics.server'
import { startMetricsServer } from '~/ops/metrics-port.server'
import { startPayouts } from '~/payouts/run.server'

// `npm run payouts`: the payout worker alone (for a separate machine, or next to web instances
// started without it). Several may run at once.

const env = envOrExit()
const log = getLogger().child({ component: 'payouts' })
const db = createDb(env.DATABASE_URL)
await migrateToLatest(db)
const stop = startPayouts(db, env)
// Not configured: the line above says so. The process stays up (and idle) rather than exit, because a
// container that exits is restarted in a loop; /contract-status shows no payout worker running.
if (!stop) {
  log.warn('this payout worker pays nothing until PAYOUT_PRIVATE_KEY (or PAYOUT_MNEMONIC) and VEBETTER_APP_ID are set')
  setInterval(() => {}, 2 ** 30) // nothing else keeps the process alive
}
// /metrics (process figures) and /healthz on METRICS_PORT, when set.
const metricsServer = env.METRICS_PORT ? await startMetricsServer({ port: env.METRICS_PORT, metrics: getMetrics(), logger: log }) : null

/**
 * SIGTERM: take no new payout; the one in hand finishes its step (a signed transaction is stored
 * before it is sent, decision 041). Past SHUTDOWN_GRACE_MS (a node that does not answer) the process
 * exits anyway: the stored state is safe to resume from.
 */
let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log.info({ signal }, 'shutting down: finishing the payout step in hand')
  setTimeout(() => {
    log.error('grace over: exiting in the middle of a step (resumed from the stored state)')
    process.exit(1)
  }, env.SHUTDOWN_GRACE_MS).unref()
  await stop?.()
  metricsServer?.close()
  await db.destroy()
  log.info('stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

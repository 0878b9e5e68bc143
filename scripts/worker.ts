import { envOrExit } from './load-env'
import { createDb, migrateToLatest } from '#db/db.server'
import { getLogger } from '~/ops/logger.server'
import { getMetrics } from '~/ops/metrics.server'
import { startMetricsServer } from '~/ops/metrics-port.server'
import { releaseJobs, runAnalysisWorker, workerId } from '~/analysis/analysis-queue.server'
import { photoAnalyzer } from '~/analysis/readers.server'
import { closePaddleReader, getPaddleReader } from '~/ocr/paddle.server'
import { closeOcrPool, getOcrPool } from '~/ocr/tesseract.server'

// `npm run worker`: a receipt analysis worker for web instances started with RECEIPT_ANALYSIS=queue
// (issue 12). It takes jobs from the shared database, one per OCR worker (OCR_WORKERS) at a time.
// Run as many as the load needs, on any machine that reaches the database.

const env = envOrExit()
const owner = workerId()
const log = getLogger().child({ component: 'analysis-worker', owner })
const db = createDb(env.DATABASE_URL)
await migrateToLatest(db)
const pool = getOcrPool()
await pool.warmUp()
// The second reader for badly taken photos (issue 13), warm before the first job.
if (env.SECOND_READER !== 'off') await getPaddleReader().warmUp()
// /metrics (this worker's analyses and OCR pool) and /healthz on METRICS_PORT, when set.
const metricsServer = env.METRICS_PORT ? await startMetricsServer({ port: env.METRICS_PORT, metrics: getMetrics(), logger: log }) : null
const controller = new AbortController()
let jobs = 0
log.info({ ocrWorkers: pool.size }, 'waiting for jobs')
const running = runAnalysisWorker(db, {
  analyze: photoAnalyzer,
  signal: controller.signal,
  concurrency: pool.size,
  owner,
  onJob: ({ id, ms, stored }) => {
    if (stored) jobs++
    log.info({ job: id, ms: Math.round(ms), stored }, 'job done')
  },
})

/**
 * SIGTERM: take no new job; the jobs in hand finish within SHUTDOWN_GRACE_MS and their results are
 * stored. Past the grace they are handed back to the queue for another worker, and the process exits.
 */
let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log.info({ signal, graceMs: env.SHUTDOWN_GRACE_MS }, 'shutting down: finishing the jobs in hand')
  controller.abort()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), env.SHUTDOWN_GRACE_MS)
  })
  const result = await Promise.race([running.then(() => 'finished' as const), late])
  clearTimeout(timer)
  if (result === 'late') log.warn({ handedBack: await releaseJobs(db, owner) }, 'grace over: unfinished jobs handed back to the queue')
  metricsServer?.close()
  await closeOcrPool()
  await closePaddleReader()
  await db.destroy()
  log.info({ jobs }, 'stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

import { envOrExit } from './load-env'
import { createDb, migrateToLatest } from '#db/db.server'
import { runAnalysisWorker, workerId } from '~/receipts/analysis-jobs.server'
import { serverAnalyzer } from '~/receipts/analyzer.server'
import { closePaddleReader, getPaddleReader } from '~/ocr/paddle.server'
import { closeOcrPool, getOcrPool } from '~/ocr/tesseract.server'

// `npm run worker`: a receipt analysis worker for web instances started with RECEIPT_ANALYSIS=queue
// (issue 12). It takes jobs from the shared database, one per OCR worker (OCR_WORKERS) at a time.
// Run as many as the load needs, on any machine that reaches the database.

const env = envOrExit()
const db = createDb(env.DATABASE_URL)
await migrateToLatest(db)
const pool = getOcrPool()
await pool.warmUp()
// The second reader for badly taken photos (issue 13), warm before the first job.
if (env.SECOND_READER !== 'off') await getPaddleReader().warmUp()
const owner = workerId()
const controller = new AbortController()
let jobs = 0
console.log(`Analysis worker ${owner}: ${pool.size} OCR workers, waiting for jobs`)
const running = runAnalysisWorker(db, {
  analyze: serverAnalyzer,
  signal: controller.signal,
  concurrency: pool.size,
  owner,
  onJob: ({ stored }) => {
    if (stored) jobs++
  },
})

async function shutdown() {
  // Finish the jobs in hand, take no new ones.
  controller.abort()
  await running
  await closeOcrPool()
  await closePaddleReader()
  await db.destroy()
  console.log(`Analysis worker ${owner} stopped after ${jobs} jobs`)
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())

/**
 * Every reader the receipt flow uses, built in one place: the photo reader (sharp, tesseract, and
 * PaddleOCR for what tesseract reads badly), the e-mail reader (DKIM-verified text), each counted in
 * the metrics, behind the reader's admission (a full queue refuses at once), through the database
 * job queue when RECEIPT_ANALYSIS=queue, and under the analysis time limit.
 */
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { EReceiptError } from '~/ereceipts/errors'
import { ReceiptImageError } from '~/ocr/photo.server'
import { withReaderSlot } from '~/ocr/tesseract.server'
import { getMetrics, type AppMetrics } from '~/ops/metrics.server'
import { analysisOutcome, readerLabel } from '~/ops/outcome'
import { analyzeEReceipt } from '~/analysis/email-analysis.server'
import { analyzeInlineForward } from './inline-forward.server'
import { queuedAnalyzer } from './analysis-queue.server'
import { analyzeReceipt } from './photo-analysis.server'
import { timeoutFallback, type Analyzer, type StoredAnalysis } from './stored-analysis'

/** The spec's limit on one analysis; past it, the manual-review fallback (photos) or a retry (e-mail). */
export const ANALYSIS_TIMEOUT_MS = 25_000

/** Run the analysis with the spec's 25 s limit; past it, the manual-review fallback. */
export async function analyzeWithTimeout(analyze: Analyzer, image: Buffer, timeoutMs = ANALYSIS_TIMEOUT_MS): Promise<StoredAnalysis> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<StoredAnalysis>((resolve) => {
    timer = setTimeout(() => {
      // Settle first: an analyzer that answers on abort must not win the race.
      resolve(timeoutFallback())
      controller.abort()
    }, timeoutMs)
  })
  try {
    return await Promise.race([analyze(image, { signal: controller.signal }), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The same analyzer, counted: each analysis this process runs adds to
 * recircle_receipt_analyses_total and the duration histogram, by outcome and reader. Wraps the
 * analyzer where it runs (a web instance inline, or `npm run worker`), so each is counted once.
 */
export function measuredAnalyzer(analyze: Analyzer, metrics: () => AppMetrics = getMetrics): Analyzer {
  return async (image, opts) => {
    const started = performance.now()
    const record = (outcome: ReturnType<typeof analysisOutcome>, reader: string) => {
      const m = metrics()
      m.analyses.inc({ outcome, reader })
      m.analysisDuration.observe({ outcome, reader }, (performance.now() - started) / 1000)
    }
    try {
      const analysis = await analyze(image, opts)
      record(analysisOutcome({ analysis }), readerLabel(analysis))
      return analysis
    } catch (error) {
      const emailRefused = error instanceof EReceiptError && error.status < 500
      record(analysisOutcome({ error, photoRefused: error instanceof ReceiptImageError, emailRefused }), emailRefused || error instanceof EReceiptError ? 'email' : 'none')
      throw error
    }
  }
}

/** The photo reader, counted in /metrics: a web instance runs it inline, `npm run worker` from the queue. */
export const photoAnalyzer: Analyzer = measuredAnalyzer((image, { signal }) => analyzeReceipt(image, { signal }))

/**
 * An e-mail: a verified e-receipt when the service's signature is there, or else (issue 39) an
 * inline forward, read like a photo: its sender cannot be verified (inline-forward.server.ts).
 */
export async function readEmailReceipt(raw: Buffer, opts: { now?: Date; deadline?: number }): Promise<StoredAnalysis> {
  try {
    return await analyzeEReceipt(raw, opts)
  } catch (error) {
    if (error instanceof EReceiptError && error.code === 'inline_forward') return analyzeInlineForward(raw)
    throw error
  }
}

/** The e-mail reader, counted in the analysis metrics like photos (reader "email"). */
export const emailAnalyzer = (raw: Buffer, opts: { now?: Date; deadline?: number }) =>
  measuredAnalyzer((image) => readEmailReceipt(image, opts))(raw, { signal: new AbortController().signal })

/** The photo reader behind the reader's admission: refused at once (503) when the queue is full. */
export const admittedAnalyzer: Analyzer = (image, opts) => withReaderSlot(() => photoAnalyzer(image, opts))

/** Waiting jobs allowed in the database queue (RECEIPT_ANALYSIS=queue) when OCR_MAX_QUEUE is unset. */
export const DEFAULT_JOB_QUEUE = 50

/** Who reads this user's photo: this process (default), or the analysis workers through the job queue. */
export function analyzerFor(userId: number): Analyzer {
  const env = getEnv()
  if (env.RECEIPT_ANALYSIS !== 'queue') return admittedAnalyzer
  return queuedAnalyzer(getDb(), userId, { maxQueued: env.OCR_MAX_QUEUE ?? DEFAULT_JOB_QUEUE })
}

import client from 'prom-client'
import type { DB } from '#db/db.server'
import { readOperatorFigures, type OperatorFigures } from './figures.server'

// Prometheus metrics (issue 25, decision 080). Counters and histograms count what this process did
// (that is how Prometheus works: it sums instances); the gauges that describe shared state (review
// backlog, payouts, ledger) are read from the database at scrape time, never kept in memory.

export type OcrStats = { workers: number; busy: number; queued: number; inFlight: number; capacity: number }
export type AnalysisOutcome = 'auto' | 'review' | 'refused' | 'retake' | 'failed'

export type AppMetrics = ReturnType<typeof createMetrics>

/** Seconds; HTTP answers from 5 ms (a cached page) to 25 s (a receipt analysis at its limit). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25]
/** Seconds; an analysis takes 0.2–2 s, with PaddleOCR and rotations up to ~10 s, 25 s at most. */
const ANALYSIS_BUCKETS = [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 25]

export function createMetrics(opts: { defaultMetrics?: boolean } = {}) {
  const registry = new client.Registry()
  // The database figures have a registry of their own: a scrape whose read failed leaves them out.
  const dbRegistry = new client.Registry()
  if (opts.defaultMetrics !== false) client.collectDefaultMetrics({ register: registry })
  let ocrProbe: (() => OcrStats | null) | null = null

  const ocrGauge = (name: string, help: string, pick: (s: OcrStats) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = ocrProbe?.()
        this.set(stats ? pick(stats) : 0)
      },
    })

  const metrics = {
    registry,
    dbRegistry,
    httpRequests: new client.Counter({ name: 'recircle_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'] as const, registers: [registry] }),
    httpDuration: new client.Histogram({ name: 'recircle_http_request_duration_seconds', help: 'Time from the request to the end of the answer', labelNames: ['method', 'route', 'status'] as const, buckets: HTTP_BUCKETS, registers: [registry] }),
    analyses: new client.Counter({ name: 'recircle_receipt_analyses_total', help: 'Receipt analyses run by this process, by outcome and the reader that decided', labelNames: ['outcome', 'reader'] as const, registers: [registry] }),
    analysisDuration: new client.Histogram({ name: 'recircle_receipt_analysis_duration_seconds', help: 'Receipt analysis time (photo checks, waiting for and running OCR, rules)', labelNames: ['outcome', 'reader'] as const, buckets: ANALYSIS_BUCKETS, registers: [registry] }),
    ocrRefusals: new client.Counter({ name: 'recircle_ocr_refusals_total', help: 'Analyses refused at once because the reader queue was full (503)', labelNames: ['mode'] as const, registers: [registry] }),
    ocrWorkers: ocrGauge('recircle_ocr_workers', 'Tesseract workers in this process', (s) => s.workers),
    ocrBusy: ocrGauge('recircle_ocr_busy_workers', 'Tesseract workers reading a photo now', (s) => s.busy),
    ocrQueue: ocrGauge('recircle_ocr_queue_depth', 'OCR jobs waiting for a free tesseract worker', (s) => s.queued),
    analysesInFlight: ocrGauge('recircle_analyses_in_flight', 'Analyses admitted in this process (running or waiting)', (s) => s.inFlight),
    analysisCapacity: ocrGauge('recircle_analysis_capacity', 'Analyses admitted before new ones are refused', (s) => s.capacity),
    dbUp: new client.Gauge({ name: 'recircle_db_figures_up', help: '1 when the database figures below were read for this scrape, 0 when the read failed or timed out', registers: [registry] }),
    dbReadSeconds: new client.Gauge({ name: 'recircle_db_figures_read_seconds', help: 'Time the database figures took to read for this scrape', registers: [registry] }),
    reviewSize: new client.Gauge({ name: 'recircle_review_queue_size', help: 'Receipts waiting for staff review', registers: [dbRegistry] }),
    reviewOldest: new client.Gauge({ name: 'recircle_review_queue_oldest_age_seconds', help: 'Age of the oldest receipt waiting for review (0 when none)', registers: [dbRegistry] }),
    payouts: new client.Gauge({ name: 'recircle_payouts', help: 'Payouts by status', labelNames: ['status'] as const, registers: [dbRegistry] }),
    payoutOldest: new client.Gauge({ name: 'recircle_payouts_oldest_unconfirmed_age_seconds', help: 'Age of the oldest payout not yet confirmed or failed (0 when none)', registers: [dbRegistry] }),
    ledger: new client.Gauge({ name: 'recircle_ledger_milli_b3tr', help: 'Ledger totals in milli-B3TR: credited to users, claimed, paid on chain', labelNames: ['kind'] as const, registers: [dbRegistry] }),
    jobsQueued: new client.Gauge({ name: 'recircle_analysis_jobs_queued', help: 'Receipt analysis jobs waiting for a worker (RECEIPT_ANALYSIS=queue)', registers: [dbRegistry] }),
    /** The OCR pool of this process reports here once it exists (app/ocr/tesseract.server.ts). */
    setOcrProbe(probe: () => OcrStats | null) {
      ocrProbe = probe
    },
  }
  return metrics
}

export function setDbFigures(metrics: AppMetrics, figures: OperatorFigures) {
  metrics.reviewSize.set(figures.review.size)
  metrics.reviewOldest.set(figures.review.oldestAgeSeconds)
  for (const [status, { count }] of Object.entries(figures.payouts.byStatus)) metrics.payouts.set({ status }, count)
  metrics.payoutOldest.set(figures.payouts.oldestUnconfirmedAgeSeconds)
  metrics.ledger.set({ kind: 'credited' }, figures.ledger.creditedMilli)
  metrics.ledger.set({ kind: 'claimed' }, figures.ledger.claimedMilli)
  metrics.ledger.set({ kind: 'paid' }, figures.ledger.paidMilli)
  metrics.jobsQueued.set(figures.analysisJobs.queued)
}

/** Default 2 s: a scrape must answer even when the database does not (then recircle_db_figures_up 0). */
export const DB_FIGURES_TIMEOUT_MS = 2_000

/**
 * The text of one scrape. With `db`, the shared figures are read first, within `timeoutMs`; when the
 * read fails or is late they are left out (not shown stale) and recircle_db_figures_up is 0.
 */
export async function scrape(metrics: AppMetrics, opts: { db?: DB; timeoutMs?: number } = {}): Promise<string> {
  let figures = ''
  if (opts.db) {
    const started = performance.now()
    let timer: NodeJS.Timeout | undefined
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), opts.timeoutMs ?? DB_FIGURES_TIMEOUT_MS)
      })
      setDbFigures(metrics, await Promise.race([readOperatorFigures(opts.db), late]))
      metrics.dbUp.set(1)
      figures = await metrics.dbRegistry.metrics()
    } catch {
      metrics.dbUp.set(0)
    } finally {
      clearTimeout(timer)
      metrics.dbReadSeconds.set((performance.now() - started) / 1000)
    }
  }
  return (await metrics.registry.metrics()) + (figures ? '\n' + figures : '')
}

export const METRICS_CONTENT_TYPE = client.Registry.PROMETHEUS_CONTENT_TYPE

// One set of metrics per process, shared by the scripts and the Remix build (two module graphs).
const GLOBAL_KEY = Symbol.for('recircle.metrics')
type WithMetrics = typeof globalThis & { [GLOBAL_KEY]?: AppMetrics }

export function getMetrics(): AppMetrics {
  const g = globalThis as WithMetrics
  g[GLOBAL_KEY] ??= createMetrics()
  return g[GLOBAL_KEY]
}

import type { Analyzer } from '~/receipts/receipts.server'
import { ReceiptImageError } from '~/ocr/photo.server'
import { EReceiptError } from '~/ereceipts/errors'
import { getMetrics, type AppMetrics } from './metrics.server'
import { analysisOutcome, readerLabel } from './outcome'

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

import { measuredAnalyzer } from '~/ops/analysis-metrics.server'
import { analyzeReceipt } from './analyze.server'
import type { Analyzer } from './receipts.server'

/** The production analyzer: sharp + the tesseract worker pool + the extraction rules, counted in /metrics. */
export const serverAnalyzer: Analyzer = measuredAnalyzer((image, { signal }) => analyzeReceipt(image, { signal }))

import { analyzeReceipt } from './analyze.server'
import type { Analyzer } from './receipts.server'

/** The production analyzer: sharp + the tesseract worker pool + the extraction rules. */
export const serverAnalyzer: Analyzer = (image, { signal }) => analyzeReceipt(image, { signal })

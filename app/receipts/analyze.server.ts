/**
 * Receipt image -> ReceiptAnalysis. Judges the receipt alone: the age window, duplicates and the
 * user's corrections are decided by the submission code.
 */
import { extractReceipt, type ExtractedReceipt } from '~/receipts/extract'
import { prepareForOcr, validateReceiptImage, type PreprocessOptions } from '~/receipts/image.server'
import { getOcrPool, type OcrFn, type OcrResult } from '~/receipts/ocr.server'
import type { ReceiptAnalysis, ReceiptTimings } from '~/receipts/types'
import { judgeReceipt, type Verdict } from '~/receipts/verdict'

export type AnalyzeOptions = {
  /** OCR function; defaults to the shared tesseract pool. */
  ocr?: OcrFn
  signal?: AbortSignal
  preprocess?: PreprocessOptions
}

/** Throws ReceiptImageError (status 400, spec §5 message) for files that are not usable images. */
export async function analyzeReceipt(buf: Buffer, opts: AnalyzeOptions = {}): Promise<ReceiptAnalysis> {
  const t0 = performance.now()
  await validateReceiptImage(buf)
  const t1 = performance.now()
  opts.signal?.throwIfAborted()
  const prepared = await prepareForOcr(buf, opts.preprocess)
  const t2 = performance.now()
  opts.signal?.throwIfAborted()
  const ocr = opts.ocr ?? getOcrPool().recognize
  const result = await ocr(prepared.image, { signal: opts.signal })
  const t3 = performance.now()
  const fields = extractReceipt(result)
  const verdict = judgeReceipt(fields, result.confidence)
  const t4 = performance.now()
  const timings: ReceiptTimings = {
    validateMs: round(t1 - t0),
    preprocessMs: round(t2 - t1),
    ocrMs: round(t3 - t2),
    extractMs: round(t4 - t3),
    totalMs: round(t4 - t0),
  }
  return toAnalysis(fields, verdict, result, timings)
}

const round = (ms: number) => Math.round(ms)

const CATEGORY_LABELS = {
  ride_share: 'a rideshare service',
  public_transit: 'public transit',
  electric_vehicle: 'an electric vehicle rental',
  scooter_bike: 'an e-scooter / bike service',
} as const

export function toAnalysis(
  fields: ExtractedReceipt,
  verdict: Verdict,
  ocr: Pick<OcrResult, 'text'>,
  timings: ReceiptTimings,
): ReceiptAnalysis {
  const kind = fields.vendor?.kind ?? null
  const preOwned = fields.signals.preOwnedKeywords
  const sustainable = fields.category !== null
  const sustainabilityReasons: string[] = []
  if (fields.category && fields.storeName) {
    sustainabilityReasons.push(`${fields.storeName} is ${CATEGORY_LABELS[fields.category]}`)
  }
  if (fields.category === 'electric_vehicle' && fields.signals.evEvidence.length > 0) {
    sustainabilityReasons.push(`Electric vehicle: ${fields.signals.evEvidence.join(', ')}`)
  }
  return {
    isValid: verdict.isValid,
    storeName: fields.storeName,
    isThriftStore: kind === 'thrift',
    isSustainableStore: sustainable,
    sustainableCategory: fields.category,
    purchaseCategory: fields.category ?? kind,
    category: fields.category,
    purchaseDate: fields.purchaseDate,
    totalAmount: fields.totalAmount,
    confidence: verdict.confidence,
    reasons: verdict.reasons,
    sustainabilityReasons,
    isAcceptable: verdict.isAcceptable,
    estimatedReward: null,
    testMode: false,
    timeoutFallback: false,
    containsPreOwnedItems: preOwned.length > 0 || kind === 'thrift',
    preOwnedKeywordsFound: preOwned,
    needsManualReview: verdict.needsManualReview,
    paymentMethod: fields.paymentMethod,
    ocrText: ocr.text,
    timings,
  }
}

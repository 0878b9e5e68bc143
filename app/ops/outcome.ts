/**
 * Pure: what a receipt analysis came to, for the metrics (issue 25).
 * - auto: eligible and read cleanly, rewarded without a person;
 * - review: sent to staff (unsure reading, nothing readable, a disagreement between readers);
 * - refused: read, and not eligible (fuel, groceries…): neither rewarded nor reviewed;
 * - retake: the photo itself was refused before reading (too small, not an image…): take another;
 *   an e-mail whose signature or sender does not verify is "refused" (issue 21);
 * - failed: the analysis did not finish (cancelled at its time limit, a reader crashed).
 */
export type AnalysisOutcome = 'auto' | 'review' | 'refused' | 'retake' | 'failed'

export type AnalysisResult = { isAcceptable?: unknown; needsManualReview?: unknown; reader?: unknown }

export function analysisOutcome(
  result: { analysis: AnalysisResult } | { error: unknown; photoRefused: boolean; emailRefused?: boolean },
): AnalysisOutcome {
  if ('error' in result) return result.photoRefused ? 'retake' : result.emailRefused ? 'refused' : 'failed'
  const { analysis } = result
  if (analysis.isAcceptable === true) return 'auto'
  if (analysis.needsManualReview === true) return 'review'
  return 'refused'
}

/** The reader that decided, as a label from a fixed list. */
export function readerLabel(analysis: AnalysisResult | null): 'tesseract' | 'paddleocr' | 'email' | 'none' {
  return analysis?.reader === 'tesseract' || analysis?.reader === 'paddleocr' || analysis?.reader === 'email' ? analysis.reader : 'none'
}

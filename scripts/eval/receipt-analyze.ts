/**
 * Analyse receipt images from the command line, one JSON line per file:
 *   tsx scripts/eval/receipt-analyze.ts <image> [<image> ...]
 * A file that cannot be analysed prints a line with `error` and the run goes on.
 */
import fs from 'node:fs/promises'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { closeOcrPool } from '~/ocr/tesseract.server'

async function analyzeFile(file: string) {
  const started = performance.now()
  try {
    const a = await analyzeReceipt(await fs.readFile(file))
    return {
      file,
      isValid: a.isValid,
      storeName: a.storeName,
      category: a.category,
      totalAmount: a.totalAmount,
      purchaseDate: a.purchaseDate,
      confidence: a.confidence,
      isAcceptable: a.isAcceptable,
      needsManualReview: a.needsManualReview,
      reasons: a.reasons,
      ms: Math.round(performance.now() - started),
    }
  } catch (error) {
    return { file, error: error instanceof Error ? error.message : String(error), ms: Math.round(performance.now() - started) }
  }
}

async function main() {
  const files = process.argv.slice(2)
  if (files.length === 0 || files.some((f) => f === '-h' || f === '--help')) {
    console.error('usage: tsx scripts/eval/receipt-analyze.ts <image> [<image> ...]')
    process.exitCode = 2
    return
  }
  try {
    for (const file of files) console.log(JSON.stringify(await analyzeFile(file)))
  } finally {
    await closeOcrPool()
  }
}

void main()

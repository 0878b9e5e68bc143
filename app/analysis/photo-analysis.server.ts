/**
 * Receipt image -> StoredAnalysis. Judges the receipt alone: the age window, duplicates and the
 * user's corrections are decided by the submission code.
 */
import { extractReceipt, hasTotal, type ExtractedReceipt } from '~/analysis/extract'
import { prepareForOcr, type PreprocessOptions } from '~/ocr/preprocess.server'
import { validateReceiptImage } from '~/ocr/photo.server'
import { checkPhotoCapture } from '~/ocr/capture.server'
import { getPaddleReader } from '~/ocr/paddle.server'
import { getOcrPool, languageOcr, type OcrFn, type OcrLanguage, type OcrResult } from '~/ocr/tesseract.server'
import { greyOfPgm, scriptFromShapes } from '~/ocr/script-shapes'
import { europeanLanguage, hasEuropeanSigns, READABLE_SCRIPTS, readsAsHangul, readsAsLatin, receiptWords, scriptFromReadings, unreadableScriptReason, type Script } from '~/ocr/script'
import type { FreshAnalysis, ReaderName, ReceiptTimings } from '~/analysis/stored-analysis'
import { asksSecondReader, judgeReadings, type Reading } from '~/analysis/readings'
import { toAnalysis } from '~/analysis/to-analysis'
import { retakeMayHelp, type Verdict } from '~/analysis/verdict'
import { getEnv } from '~/utils/env.server'

/** Reads the original photo (not the tesseract-prepared image): the second reader (app/ocr/paddle.server.ts). */
export type SecondReader = (photo: Buffer, opts?: { signal?: AbortSignal }) => Promise<OcrResult>

export type AnalyzeOptions = {
  /** OCR function; defaults to the shared tesseract pool. */
  ocr?: OcrFn
  signal?: AbortSignal
  preprocess?: PreprocessOptions
  /** The second reader, or null for none; defaults to PaddleOCR unless SECOND_READER=off. */
  secondReader?: SecondReader | null
  /** Today, for the date's year check; defaults to the clock. */
  now?: Date
  /** The readers of the other languages (app/ocr/script.ts chooses); defaults to the shared language pools. */
  languageOcr?: (language: OcrLanguage) => OcrFn
}

function defaultSecondReader(): SecondReader | null {
  return getEnv().SECOND_READER === 'off' ? null : getPaddleReader().read
}

/** Throws ReceiptImageError (status 400, spec §5 message) for files that are not usable images. */
export async function analyzeReceipt(buf: Buffer, opts: AnalyzeOptions = {}): Promise<FreshAnalysis> {
  const t0 = performance.now()
  await validateReceiptImage(buf)
  const t1 = performance.now()
  opts.signal?.throwIfAborted()
  const prepared = await prepareForOcr(buf, opts.preprocess)
  const t2 = performance.now()
  opts.signal?.throwIfAborted()
  const baseOcr = opts.ocr ?? getOcrPool().recognize
  let ocrMs = 0
  const ocr = async (image: Buffer, o?: { signal?: AbortSignal }, reader: OcrFn = baseOcr) => {
    const started = performance.now()
    try {
      return await reader(image, o)
    } finally {
      ocrMs += performance.now() - started
    }
  }
  const now = opts.now ?? new Date()
  const asFirst = (r: OcrResult, f: ExtractedReceipt): Reading => ({ reader: 'tesseract', text: r.text, confidence: r.confidence, fields: f })
  // A long screenshot is read in pieces, its top and its footer (a real e-mail's 60-150 lines took
  // tesseract 2-6 s whole; issue 37).
  let result = prepared.bands && prepared.bands.length > 1 ? await readInBands(prepared.bands, ocr, opts.signal) : await ocr(prepared.image, { signal: opts.signal })
  let fields = extractReceipt(result)
  const english = result
  // The other languages (issue 37): only on evidence, so an English receipt costs what it did.
  const inLanguage = (language: OcrLanguage): OcrFn => (opts.languageOcr ?? languageOcr)(language)
  let language: OcrLanguage = 'eng'
  // Another language only adds, like the second reader: when its worker fails, English's reading stands.
  const readIn = async (lang: OcrLanguage): Promise<OcrResult | null> => {
    opts.signal?.throwIfAborted()
    try {
      return await ocr(prepared.image, { signal: opts.signal }, inLanguage(lang))
    } catch (error) {
      if (opts.signal?.aborted) throw error
      console.error(`The ${lang} receipt reader failed; English's reading stands:`, (error as Error).message)
      return null
    }
  }
  // A Latin page with European signs (€, accents, their receipt words): the language its words
  // name reads it better, or the European model when they name none clearly. Only where English's
  // reading is not enough, as for the second reader: a field missing, or every field there but
  // unsure. A reading that decides alone gains nothing from a second one (on the real corpus, the
  // re-reading was 12 % of all reading time; decision 117).
  if ((readsAsLatin(result) || receiptWords(result.text) >= 2) && hasEuropeanSigns(result.text) && asksSecondReader(asFirst(result, fields), now)) {
    const chosen = europeanLanguage(result.text) ?? 'european'
    const european = await readIn(chosen)
    if (european && european.confidence >= result.confidence) {
      result = european
      fields = extractReceipt(european)
      language = chosen
    }
  }
  const secondReader = opts.secondReader === undefined ? defaultSecondReader() : opts.secondReader
  let second: Reading | null = null
  let secondResult: OcrResult | null = null
  let secondMs = 0
  if (secondReader && asksSecondReader(asFirst(result, fields), now)) {
    opts.signal?.throwIfAborted()
    const started = performance.now()
    try {
      const read = await secondReader(buf, { signal: opts.signal })
      secondResult = read
      second = { reader: 'paddleocr', text: read.text, confidence: read.confidence, fields: extractReceipt(read) }
    } catch (error) {
      // The second reader only adds: when it fails, tesseract's reading decides, as with SECOND_READER=off.
      if (opts.signal?.aborted) throw error
      console.error('The second receipt reader failed; tesseract decides:', (error as Error).message)
    }
    secondMs = performance.now() - started
  }
  // A page English could not read: which script is it? Han and Hangul are read in their language;
  // a script no reader here knows is refused, never guessed at.
  let unreadableScript: Script | null = null
  // A Chinese page that PaddleOCR's Chinese model read: it decides alone. English's garbage is no
  // reading of it, and tesseract's Chinese reading added nothing: every real Chinese receipt approved
  // was decided by PaddleOCR, and those it sent to staff went to staff with the Chinese reading too,
  // which cost 0.2-0.6 s each (decisions 118 and 120). Without PaddleOCR, the Chinese reading is the one.
  let paddleAlone: ReturnType<typeof judgeReadings> | null = null
  if (!readsAsLatin(english)) {
    const grey = greyOfPgm(prepared.image)
    const namedService = fields.vendor !== null || (second?.fields.vendor ?? null) !== null
    const script = scriptFromReadings({ first: english, second: secondResult, shapes: grey ? scriptFromShapes(grey) : null, namedService })
    if (script === 'Han' && second) paddleAlone = judgeReadings(second, null, now)
    else if (script === 'Han' || script === 'probe') {
      const read = await readIn(script === 'Han' ? 'chi_sim' : 'kor')
      if (read && (script === 'Han' || readsAsHangul(read))) {
        result = read
        fields = extractReceipt(read)
        language = script === 'Han' ? 'chi_sim' : 'kor'
      }
    } else if (!READABLE_SCRIPTS.has(script)) unreadableScript = script
  }
  if (unreadableScript) return refuseScript(unreadableScript, english, second, { t0, t1, t2, ocrMs: ocrMs + secondMs, secondMs })
  // The other orientations only when no reader made sense of the photo upright: a blurred upright
  // photo that PaddleOCR reads needs no three more tesseract readings (issue 13). Nor does one where
  // PaddleOCR read a clean word upright, or whose text lines it found running across the page: then
  // only upside down is left to try (issue 23: noisy upright photos spent 0.4-3.5 s on three turns).
  const uprightUnreadable = unreadable(fields) && !hasCleanLine(result) && result.confidence < ROTATION_RETRY_BELOW
  if (!paddleAlone && language === 'eng' && uprightUnreadable && (!second || unreadable(second.fields)) && !(secondResult && hasCleanLine(secondResult))) {
    const turns = secondResult?.textDirection === 'across' ? ([2] as const) : ([1, 3, 2] as const)
    ;({ result, fields } = await tryOtherOrientations(buf, opts, ocr, { result, fields }, turns))
  }
  const { decided, other, verdict } = paddleAlone ?? judgeReadings(asFirst(result, fields), second, now)
  // Only photos headed for review pay for the capture check (~30 ms): is a retake the better answer?
  const captureAdvice = retakeMayHelp(decided.fields, verdict) ? (await checkPhotoCapture(buf)).advice : null
  const t3 = performance.now()
  const timings: ReceiptTimings = {
    validateMs: round(t1 - t0),
    preprocessMs: round(t2 - t1),
    ocrMs: round(ocrMs + secondMs),
    // Extraction, verdict and (rarely) the preprocessing of other orientations.
    extractMs: round(t3 - t2 - ocrMs - secondMs),
    totalMs: round(t3 - t0),
    ...(second ? { secondReaderMs: round(secondMs) } : {}),
  }
  return { ...toAnalysis(decided.fields, verdict, { text: decided.text }, timings, { reader: decided.reader, other }), captureAdvice, ocrLanguage: language }
}

/**
 * The analysis of a receipt in a script no reader here knows (issue 37): not acceptable, and not for
 * review either (staff could only guess too): the reason says so and what to send instead. No
 * field is taken from English's reading of it.
 */
function refuseScript(
  script: Script,
  english: OcrResult,
  second: Reading | null,
  t: { t0: number; t1: number; t2: number; ocrMs: number; secondMs: number },
): FreshAnalysis {
  const t3 = performance.now()
  const verdict: Verdict = { confidence: 0, isValid: false, isAcceptable: false, needsManualReview: false, reasons: [unreadableScriptReason(script)] }
  const timings: ReceiptTimings = {
    validateMs: round(t.t1 - t.t0),
    preprocessMs: round(t.t2 - t.t1),
    ocrMs: round(t.ocrMs),
    extractMs: round(t3 - t.t2 - t.ocrMs),
    totalMs: round(t3 - t.t0),
    ...(second ? { secondReaderMs: round(t.secondMs) } : {}),
  }
  const nothing = extractReceipt({ text: '', lines: [] })
  return { ...toAnalysis(nothing, verdict, { text: english.text }, timings, { reader: 'tesseract', other: second }), captureAdvice: null, unreadableScript: script, ocrLanguage: 'eng' }
}

/**
 * Pieces of a long page read, the footer included: about 100 text rows at the top, where an e-mail
 * prints its total, date and items (and a summary says it is not a payment receipt), and the
 * footer; below them are its marketing and legal text (a real flight e-mail: 148 lines, 6 s of
 * tesseract under load).
 */
const MAX_PIECES_READ = 4

/**
 * A long page read piece by piece (issue 37): its first pieces and its last, the footer (an
 * e-mail's logo is an image, and its brand may be printed only in its footer), MAX_PIECES_READ in
 * all, joined in page order. Reading never stops early once the fields are read: a real Uber trip
 * summary prints "This is not a payment receipt" under its total, after its service, total and
 * date (decision 114); stopping there approved it.
 */
export async function readInBands(bands: Buffer[], ocr: OcrFn, signal?: AbortSignal): Promise<OcrResult> {
  const parts: Array<OcrResult | null> = bands.map(() => null)
  const order = [0, bands.length - 1, ...bands.map((_, i) => i).slice(1, -1)].slice(0, MAX_PIECES_READ)
  for (const i of order) {
    signal?.throwIfAborted()
    parts[i] = await ocr(bands[i], { signal })
  }
  return joinReadings(parts)
}

/** Readings of a page's pieces as one: lines in page order, the confidence weighted by the text read. */
export function joinReadings(parts: ReadonlyArray<OcrResult | null>): OcrResult {
  const read = parts.filter((p): p is OcrResult => p !== null)
  const weight = (p: OcrResult) => Math.max(1, p.text.replace(/\s/g, '').length)
  const total = read.reduce((s, p) => s + weight(p), 0)
  return {
    text: read.map((p) => p.text.replace(/\n+$/, '')).join('\n'),
    lines: read.flatMap((p) => p.lines),
    confidence: total === 0 ? 0 : read.reduce((s, p) => s + p.confidence * weight(p), 0) / total,
  }
}

const round = (ms: number) => Math.round(ms)

/**
 * A photo taken sideways or upside down reads as garbage (tesseract confidence 25-50 measured) and
 * yields no total and no date. Only then are the other three orientations tried: on the dev
 * corpus that is 3 of 63 receipts, so the cost stays off the median.
 */
const ROTATION_RETRY_BELOW = 60
/** A rotation must beat the upright read by this much confidence to be believed. */
const ROTATION_MIN_GAIN = 15

/** A word read this cleanly means the page is the right way up, however blurred the rest is. */
function hasCleanLine(result: OcrResult): boolean {
  return result.lines.some((l) => l.confidence >= 85 && /[a-z]{4,}/i.test(l.text))
}

/** No total and no date: a merchant name alone may be a chance match in rotated garbage. */
function unreadable(fields: ExtractedReceipt): boolean {
  return !hasTotal(fields) && fields.purchaseDate === null
}

async function tryOtherOrientations(
  buf: Buffer,
  opts: AnalyzeOptions,
  ocr: OcrFn,
  upright: { result: OcrResult; fields: ExtractedReceipt },
  turns: ReadonlyArray<1 | 2 | 3>,
): Promise<{ result: OcrResult; fields: ExtractedReceipt }> {
  let best = upright
  for (const quarterTurns of turns) {
    opts.signal?.throwIfAborted()
    const prepared = await prepareForOcr(buf, { ...opts.preprocess, quarterTurns })
    const result = await ocr(prepared.image, { signal: opts.signal })
    if (result.confidence < best.result.confidence + ROTATION_MIN_GAIN) continue
    const fields = extractReceipt(result)
    // Garbage can score a higher confidence than a blurred page: the turn must also make sense.
    if (unreadable(fields)) continue
    best = { result, fields }
    // A clean read is not going to be beaten.
    if (result.confidence >= 80) break
  }
  return best
}

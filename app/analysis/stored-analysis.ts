/**
 * What the server concluded about one receipt, as it is kept in `receipt_analyses.analysis_json`,
 * `receipts.analysis_json` and `analysis_jobs.analysis_json`, and read back through one zod schema
 * (`parseStoredAnalysis`). The readers (photo, e-mail) produce it, the submission decides on it and
 * staff review it. Plain file: the UI imports the types.
 *
 * The fields every analysis has ever had are required; the ones added since (the second reader, the
 * e-receipt facts, capture advice) are optional, as rows written before them lack them, and so do a
 * demo analysis and the time-limit fallback.
 */
import { z } from 'zod'

/**
 * Who read the receipt: the two OCR engines for photos (tesseract reads every photo, PaddleOCR
 * those tesseract reads badly), or 'email' for the signed text of an e-receipt.
 */
export const readerNames = ['tesseract', 'paddleocr', 'email'] as const
export type ReaderName = (typeof readerNames)[number]

/** What a verified e-receipt rests on, kept with its analysis (docs/decisions/090-dkim-e-receipts.md). */
export const eReceiptFactsSchema = z.object({
  /** The DKIM signing domain (d=) that verified. */
  domain: z.string(),
  /** sha256 of the signature: a verified e-mail pays once across all wallets. */
  signatureId: z.string(),
  /** "Uber:TRIPID" from the signed text, when it prints one. */
  tripKey: z.string().nullable(),
  /** "Uber:2026-07-12 15:06": the trip's date and minute as printed, the same on a tip-added resend (issue 37). */
  tripMoment: z.string().nullable().optional(),
  /** Hash of the receipt's To address when the signature covers To; bound to a wallet on approval. */
  recipientHash: z.string().nullable(),
  /** The signature's x= had passed (accepted for receipts inside the window). */
  signatureExpired: z.boolean(),
  signedHeaders: z.array(z.string()),
  subject: z.string().nullable(),
  from: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** The original arrived attached to a forward. */
  forwarded: z.boolean(),
})
export type EReceiptFacts = z.infer<typeof eReceiptFactsSchema>

export const timingsSchema = z.object({
  validateMs: z.number(),
  preprocessMs: z.number(),
  ocrMs: z.number(),
  extractMs: z.number(),
  totalMs: z.number(),
  /** The second reader's time, included in ocrMs, when it ran. */
  secondReaderMs: z.number().optional(),
})
export type ReceiptTimings = z.infer<typeof timingsSchema>

const paymentMethodSchema = z.object({ method: z.string().nullable(), cardLastFour: z.string().nullable(), isDigital: z.boolean() })

export const storedAnalysisSchema = z
  .object({
    isValid: z.boolean(),
    storeName: z.string().nullable(),
    /** A transport category ('ride_share', 'public_transit', …) when eligible, else null. */
    category: z.string().nullable(),
    totalAmount: z.number().nullable(),
    /** YYYY-MM-DD */
    purchaseDate: z.string().nullable(),
    /** Eligible and read cleanly: may be rewarded without review. Never true with needsManualReview. */
    isAcceptable: z.boolean(),
    needsManualReview: z.boolean(),
    reasons: z.array(z.string()),
    /** 0..1 */
    confidence: z.number().optional(),
    /** ISO 4217 code of the total's currency, when the receipt shows one (issue 37). */
    currency: z.string().nullable().optional(),
    /** purchaseDate is a ticket's travel date (the trip counts, not the day it was bought). */
    travelDate: z.boolean().optional(),
    /** "Uber:2026-07-12 15:06": the trip's printed date and minute, when it prints both (issue 37). */
    tripMoment: z.string().nullable().optional(),
    /** The trip / order / receipt number printed on it (normalised), when there is one. */
    referenceNumber: z.string().nullable().optional(),
    isThriftStore: z.boolean().optional(),
    /** The merchant is an eligible sustainable-transport service (for car rentals: an EV was shown). */
    isSustainableStore: z.boolean().optional(),
    sustainableCategory: z.string().nullable().optional(),
    /** What was bought: a transport category, or the merchant kind ('fuel', 'grocery', 'thrift', ...). */
    purchaseCategory: z.string().nullable().optional(),
    sustainabilityReasons: z.array(z.string()).optional(),
    /** The reward is computed by the reward rules, never by analysis. */
    estimatedReward: z.null().optional(),
    /** A demo analysis (test mode only): it never earns. */
    testMode: z.boolean().optional(),
    /** The reading ran past the time limit: the user enters the details and staff decide. */
    timeoutFallback: z.boolean().optional(),
    containsPreOwnedItems: z.boolean().optional(),
    preOwnedKeywordsFound: z.array(z.string()).optional(),
    paymentMethod: paymentMethodSchema.nullable().optional(),
    /** The text of the reading that decided, for staff review. */
    ocrText: z.string().optional(),
    reader: z.enum(readerNames).optional(),
    /** The other reader's text when both read the photo, for staff review. */
    otherReading: z.object({ reader: z.enum(readerNames), ocrText: z.string() }).nullable().optional(),
    /** The verified signing domain of an e-receipt ("uber.com"), null for a photo. */
    verifiedSender: z.string().nullable().optional(),
    ereceipt: eReceiptFactsSchema.nullable().optional(),
    /** Read from a receipt forwarded inline (issue 39): its sender could not be verified; judged like a photo. */
    inlineForward: z.boolean().optional(),
    /** The language data of the tesseract reading (issue 37): 'eng', 'deu', 'fra', 'spa', 'ita', 'european' (English and those four), 'kor' or 'chi_sim'. */
    ocrLanguage: z.string().optional(),
    /**
     * The receipt is printed in a script ReCircle cannot read yet ('Thai', 'Arabic', ...; issue 37):
     * not acceptable and not for review, with a reason that says so.
     */
    unreadableScript: z.string().nullable().optional(),
    /** The readings fell short and the photo itself is poor: what the user should do before staff review. */
    captureAdvice: z.string().nullable().optional(),
    timings: timingsSchema.optional(),
  })
  // Keys this version does not know (a newer writer's) are kept, not dropped.
  .passthrough()

export type StoredAnalysis = z.infer<typeof storedAnalysisSchema>

/**
 * The same analysis as a reader returns it today: every field this version writes is there (a
 * stored one may predate some of them). Capture advice is only ever given for photos.
 */
export type FreshAnalysis = StoredAnalysis & { [K in FreshField]-?: Exclude<StoredAnalysis[K], undefined> }
type FreshField =
  | 'confidence'
  | 'referenceNumber'
  | 'isThriftStore'
  | 'isSustainableStore'
  | 'sustainableCategory'
  | 'purchaseCategory'
  | 'sustainabilityReasons'
  | 'estimatedReward'
  | 'testMode'
  | 'timeoutFallback'
  | 'containsPreOwnedItems'
  | 'preOwnedKeywordsFound'
  | 'paymentMethod'
  | 'ocrText'
  | 'reader'
  | 'otherReading'
  | 'verifiedSender'
  | 'ereceipt'
  | 'timings'

export class StoredAnalysisError extends Error {}

/** A stored analysis' JSON → the analysis; throws StoredAnalysisError for one no version wrote. */
export function parseStoredAnalysis(json: string): StoredAnalysis {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    throw new StoredAnalysisError('The stored analysis is not JSON')
  }
  const parsed = storedAnalysisSchema.safeParse(value)
  if (!parsed.success) throw new StoredAnalysisError(`The stored analysis does not fit its schema: ${parsed.error.issues[0]?.message}`)
  return parsed.data
}

/** What a staff page shows for a stored analysis no version wrote: the receipt stays reviewable. */
export const UNREADABLE_ANALYSIS: StoredAnalysis = {
  isValid: false,
  storeName: null,
  category: null,
  totalAmount: null,
  purchaseDate: null,
  isAcceptable: false,
  needsManualReview: true,
  reasons: ['The stored analysis of this receipt could not be read: check the photo.'],
}

/** For pages that list many receipts: one analysis that does not fit never takes the page down. */
export function readStoredAnalysis(json: string): StoredAnalysis {
  try {
    return parseStoredAnalysis(json)
  } catch (error) {
    if (error instanceof StoredAnalysisError) return UNREADABLE_ANALYSIS
    throw error
  }
}

const reasonsSchema = z.array(z.string())

/** `receipts.review_reasons_json`: why a receipt waits for staff (an empty list for what no version wrote). */
export function parseReviewReasons(json: string | null): string[] {
  if (!json) return []
  try {
    const parsed = reasonsSchema.safeParse(JSON.parse(json))
    return parsed.success ? parsed.data : []
  } catch {
    return []
  }
}

/** The e-receipt facts of an analysis, or null for a photo. */
export function eReceiptFacts(analysis: StoredAnalysis): EReceiptFacts | null {
  return analysis.ereceipt ?? null
}

/** The photo reader: a photo in, the server's analysis out (app/analysis/readers.server.ts builds them). */
export type Analyzer = (image: Buffer, opts: { signal: AbortSignal }) => Promise<StoredAnalysis>

/** The e-mail reader: DKIM-verified text as of `now`, no key looked up past `deadline` (epoch ms). */
export type EmailAnalyzer = (raw: Buffer, opts: { now?: Date; deadline?: number }) => Promise<StoredAnalysis>

export const TIMEOUT_REASON =
  "We couldn't automatically determine if this receipt qualifies. Please enter the details manually."

/** The analysis kept when the reading ran past the time limit: the user enters the details, staff decide. */
export function timeoutFallback(): StoredAnalysis {
  return {
    isValid: false,
    storeName: null,
    category: null,
    totalAmount: null,
    purchaseDate: null,
    confidence: 0,
    isAcceptable: false,
    needsManualReview: true,
    timeoutFallback: true,
    testMode: false,
    reasons: [TIMEOUT_REASON],
  }
}

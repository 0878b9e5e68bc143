/**
 * The server's analyses of the images and e-mails users send (receipt_analyses): the bytes are
 * checked, read by a reader (readers.server.ts) and kept with their analysis, keyed by user and
 * hash, until submitted. Every stored analysis is read back through one schema (stored-analysis.ts).
 */
import crypto from 'node:crypto'
import type { DB } from '#db/db.server'
import { looksLikeEmail } from '~/ereceipts/message.server'
import { receiptFingerprint } from '~/ocr/fingerprint.server'
import { ReceiptImageError, sniffImageFormat, validateReceiptImage } from '~/ocr/photo.server'
import { oddFileMessage, sniffOddFile } from './file-kinds'
import { analyzeWithTimeout, ANALYSIS_TIMEOUT_MS, emailAnalyzer } from './readers.server'
import { parseStoredAnalysis, type Analyzer, type EmailAnalyzer, type StoredAnalysis } from './stored-analysis'

export function sha256(image: Buffer) {
  return crypto.createHash('sha256').update(image).digest('hex')
}

const MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  heif: 'image/heif',
  tiff: 'image/tiff',
}


/** How an e-receipt is stored in the image columns: the original e-mail, byte for byte. */
export const EMAIL_MIME = 'message/rfc822'

/** One stored analysis of one image (or e-mail), for one user. */
export type AnalysisRecord = { id: number; imageHash: string; analysis: StoredAnalysis }

/** The one place that tells a photo from an e-mail: an image by its magic bytes, an e-mail by its header lines. */
export function kindOf(bytes: Buffer): 'photo' | 'email' {
  return bytes.length > 0 && sniffImageFormat(bytes) === null && looksLikeEmail(bytes) ? 'email' : 'photo'
}

/**
 * Check the bytes (spec messages), read them with the photo or the e-mail reader, and keep the
 * analysis with them, keyed by user and hash, for the submission. Throws a Refusal for what
 * cannot be read; nothing is stored then. Knows nothing of receipts: the intake decides what the
 * analysis means for this user.
 */
export async function analyzeAndStore(
  db: DB,
  input: {
    userId: number
    image: Buffer
    /** The photo reader (readers.server.ts analyzerFor). */
    analyze: Analyzer
    now?: Date
    timeoutMs?: number
    /** E-receipts' analysis (issue 21); defaults to DKIM verification with the environment's resolver. */
    analyzeEmail?: EmailAnalyzer
  },
): Promise<AnalysisRecord> {
  // An e-mail (issue 21) proves itself by its signature and is read from its signed text, at once;
  // anything else must be a photo. Neither stores anything when it is refused.
  const email = kindOf(input.image) === 'email'
  // Neither: say what the file is and what would do (issue 39); an empty upload is "no file" (spec).
  if (!email && input.image.length > 0 && sniffImageFormat(input.image) === null) {
    throw new ReceiptImageError('invalid_type', oddFileMessage(sniffOddFile(input.image)))
  }
  const meta = email ? null : await validateReceiptImage(input.image)
  const imageHash = sha256(input.image)
  const existing = await db
    .selectFrom('receipt_analyses')
    .select(['id', 'analysis_json'])
    .where('user_id', '=', input.userId)
    .where('image_hash', '=', imageHash)
    .executeTakeFirst()
  if (existing) {
    const analysis = parseStoredAnalysis(existing.analysis_json)
    // A stored timeout fallback gets another chance; a real analysis is reused as it is.
    if (!analysis.timeoutFallback) return { id: existing.id, imageHash, analysis }
  }
  const analysis: StoredAnalysis = email
    ? // The photos' time limit: past it no key is looked up and the e-mail is refused, retryable.
      await (input.analyzeEmail ?? emailAnalyzer)(input.image, { now: input.now, deadline: Date.now() + (input.timeoutMs ?? ANALYSIS_TIMEOUT_MS) })
    : await analyzeWithTimeout(input.analyze, input.image, input.timeoutMs)
  const phash = email ? null : await receiptFingerprint(input.image)
  const now = (input.now ?? new Date()).toISOString()
  const row = await db
    .insertInto('receipt_analyses')
    .values({
      user_id: input.userId,
      image_hash: imageHash,
      analysis_json: JSON.stringify(analysis),
      image: input.image,
      image_mime: meta ? (MIME[meta.format] ?? 'application/octet-stream') : EMAIL_MIME,
      image_phash: phash,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'image_hash']).doUpdateSet({ analysis_json: JSON.stringify(analysis), created_at: now }),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, imageHash, analysis }
}

/** Test mode only (decision 007 §3): keep a demo analysis so the form step can show it; it never earns. */
export async function storeDemoAnalysis(db: DB, userId: number, analysis: StoredAnalysis, now = new Date()) {
  const row = await db
    .insertInto('receipt_analyses')
    .values({
      user_id: userId,
      image_hash: `demo:${crypto.randomUUID()}`,
      analysis_json: JSON.stringify(analysis),
      image: null,
      image_mime: null,
      image_phash: null,
      created_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function getStoredAnalysis(db: DB, userId: number, analysisId: number) {
  const row = await db
    .selectFrom('receipt_analyses')
    .select(['id', 'image_hash', 'analysis_json', 'image', 'image_mime', 'image_phash'])
    .where('id', '=', analysisId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return null
  return {
    id: row.id,
    imageHash: row.image_hash,
    analysis: parseStoredAnalysis(row.analysis_json),
    image: row.image,
    imageMime: row.image_mime,
    phash: row.image_phash,
  }
}


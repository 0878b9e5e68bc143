import { json } from '@remix-run/node'
import type { User } from '~/users/users.server'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { parseRowId } from '~/utils/ids'
import { DEMO_TYPES, demoAnalysis, type DemoType } from '~/analysis/demo'
import { admit, readAndCheck, submitAnalysis, type Asker } from './intake.server'
import { bodyTooLarge, decodeDataUrl, isMultipart, readMultipartImage } from './http.server'
import { ReceiptImageError } from '~/ocr/photo.server'
import { primitiveFields } from '~/utils/http.server'
import { amountToCents, receiptFormSchema, type ReceiptFormValues } from './receipt-form'
import type { SubmitResult } from './receipts.server'
import { refused } from '~/utils/refusal'
import { utcDay } from '~/utils/calendar'
import type { ReceiptOrigin } from './origin.server'

/** Read the photo from JSON (`image` data URL) or multipart (`image` file), plus the other fields. */
export async function readReceiptRequest(request: Request): Promise<{ image: Buffer | null; fields: Record<string, unknown> }> {
  if (isMultipart(request)) {
    const { form, image } = await readMultipartImage(request)
    const fields: Record<string, unknown> = {}
    for (const [k, v] of form.entries()) if (typeof v === 'string') fields[k] = v
    return { image, fields }
  }
  if (bodyTooLarge(request)) throw new ReceiptImageError('too_large')
  let body: unknown
  try {
    body = await request.json()
  } catch {
    throw json({ error: 'Body must be JSON or multipart/form-data' }, { status: 400 })
  }
  const fields = primitiveFields(body)
  return { image: readDataUrl(fields.image), fields }
}

/** A data URL whose percent-encoding is broken (`data:image/png,%`) is the client's mistake: 400. */
function readDataUrl(value: unknown): Buffer | null {
  try {
    return decodeDataUrl(value)
  } catch {
    throw json({ error: 'The image data URL is malformed' }, { status: 400 })
  }
}

/** The spec's userId is a hint at most: it must be the session's (decision 007 §1). */
export function assertSelf(fields: Record<string, unknown>, user: User) {
  if (fields.userId !== undefined && fields.userId !== null && fields.userId !== '' && Number(fields.userId) !== user.id) {
    throw json({ error: 'Forbidden' }, { status: 403 })
  }
}

/**
 * POST /api/receipts/validate after the intake's admission: a demo (test mode only), or the photo or
 * e-mail read, with what would refuse it said now; the submission re-checks it all.
 */
export async function validateForUser(asker: Asker, image: Buffer | null, fields: Record<string, unknown>) {
  if (fields.testMode === true || fields.testMode === 'true') {
    // Client test flags are honoured only when the server itself runs in test mode (decision 007 §3).
    const type = String(fields.testType ?? 'uber') as DemoType
    if (getEnv().RECIRCLE_TEST_MODE && DEMO_TYPES.includes(type)) {
      return { ...demoAnalysis(type, utcDay(new Date())), analysisId: null, duplicate: false }
    }
  }
  if (!image) throw new ReceiptImageError('missing')
  const stored = await readAndCheck(getDb(), asker, image)
  const refusal = stored.refusal
  const analysis = refusal
    ? { ...stored.analysis, isAcceptable: false, needsManualReview: false, reasons: [refusal.message, ...stored.analysis.reasons.filter((r) => r !== refusal.message)] }
    : stored.analysis
  return { ...analysis, analysisId: stored.id, duplicate: refusal?.code === 'duplicate', refusal }
}

/** POST /api/receipts's fields read by the receipt form's schema (the scan page reads them with Conform). */
export function parseReceiptFields(fields: Record<string, unknown>): { values: ReceiptFormValues } | { fieldErrors: Record<string, string[]> } {
  const parsed = receiptFormSchema.safeParse(fields)
  return parsed.success ? { values: parsed.data } : { fieldErrors: parsed.error.flatten().fieldErrors as Record<string, string[]> }
}

/** POST /api/receipts and the scan form: the form's values, already parsed, on the server's stored analysis. */
export async function submitForUser(
  asker: Asker,
  input: { image: Buffer | null; analysisId?: number | null; values: ReceiptFormValues; origin?: ReceiptOrigin },
): Promise<SubmitResult> {
  const db = getDb()
  let analysisId = input.analysisId ?? null
  if (input.image) {
    // A photo sent with the form is read now, as one more way in: admitted, read, checked early.
    await admit(db, asker, { reading: true })
    analysisId = (await readAndCheck(db, asker, input.image)).id
  }
  if (analysisId === null) return refused(new ReceiptImageError('missing'))
  return submitAnalysis(db, {
    userId: asker.userId,
    analysisId,
    origin: input.origin,
    values: {
      category: input.values.category,
      amountCents: amountToCents(input.values.amount),
      purchaseDate: input.values.purchaseDate,
      serviceId: parseRowId(input.values.storeId),
    },
  })
}

export function receiptResponse(result: Extract<SubmitResult, { ok: true }>) {
  const reward = result.reward
  return {
    id: result.receiptId,
    status: result.status,
    tokenReward: reward ? reward.total : 0,
    needsManualReview: result.status === 'pending_review',
    reasons: result.reasons,
    rewardDetails: {
      baseReward: reward?.baseReward ?? 0,
      streakMultiplier: reward?.streakMultiplier ?? 1,
      transportMultiplier: reward?.transportMultiplier ?? 1,
      firstReceiptBonus: result.firstReceiptBonusMilli / 1000,
      total: (reward?.total ?? 0) + result.firstReceiptBonusMilli / 1000,
    },
    streakInfo: { streakIncreased: result.streak.increased, currentStreak: result.streak.current },
  }
}

import crypto from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { lockKey, type DB } from '#db/db.server'
import type { Database, ReceiptRow } from '#db/schema'
import { recordAudit } from '~/admin/audit.server'
import { achievementRewardDescription, achievementRewardKey } from '~/engagement/achievements'
import { rewardReferrerForFirstAcceptedReceipt } from '~/referrals/referrals.server'
import { takeActionSlot, linkActionSlot } from '~/rewards/daily-limit.server'
import { creditReward } from '~/rewards/ledger.server'
import {
  computeReceiptReward,
  FIRST_RECEIPT_BONUS_MILLI,
  nextStreak,
  receiptRewardDescription,
  utcDay,
  type ReceiptReward,
} from '~/rewards/rules'
import { collectReviewSignals, findSameReceipts, type ReceiptContent } from './fraud.server'
import { receiptFingerprint } from '~/ocr/fingerprint.server'
import type { EReceiptFacts } from './types'
import { passportReviewReasons, type PassportCheckView } from './passport-signals'
import { decideSubmission, type SubmissionDecision, toCents, type AnalysisFacts, type UserValues } from './submission'
import { sniffImageFormat, validateReceiptImage } from '~/ocr/photo.server'
import { analyzeEReceipt } from '~/ereceipts/analyze.server'
import { measuredAnalyzer } from '~/ops/analysis-metrics.server'
import { bindMailbox, claimEReceipt } from '~/ereceipts/claims.server'
import { looksLikeEmail } from '~/ereceipts/message.server'

export type Analysis = AnalysisFacts & Record<string, unknown>
export type Analyzer = (image: Buffer, opts: { signal: AbortSignal }) => Promise<Analysis>

export const ANALYSIS_TIMEOUT_MS = 25_000
export const TIMEOUT_REASON =
  "We couldn't automatically determine if this receipt qualifies. Please enter the details manually."
export const DUPLICATE_MESSAGE = 'This receipt has already been submitted.'
export const DAILY_LIMIT_ERROR = 'Daily action limit reached'

export function timeoutFallback(): Analysis {
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

export function sha256(image: Buffer) {
  return crypto.createHash('sha256').update(image).digest('hex')
}

/** Run the analysis with the spec's 25 s limit; past it, the manual-review fallback. */
export async function analyzeWithTimeout(analyze: Analyzer, image: Buffer, timeoutMs = ANALYSIS_TIMEOUT_MS): Promise<Analysis> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<Analysis>((resolve) => {
    timer = setTimeout(() => {
      // Settle first: an analyzer that answers on abort must not win the race.
      resolve(timeoutFallback())
      controller.abort()
    }, timeoutMs)
  })
  try {
    return await Promise.race([analyze(image, { signal: controller.signal }), timeout])
  } finally {
    clearTimeout(timer)
  }
}

const MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  heif: 'image/heif',
  tiff: 'image/tiff',
}

/** E-receipts counted in the analysis metrics like photos (reader "email"). */
const measuredEReceipts = (raw: Buffer, opts: { now?: Date; deadline?: number }) =>
  measuredAnalyzer((image) => analyzeEReceipt(image, opts) as Promise<Analysis>)(raw, { signal: new AbortController().signal })

/** How an e-receipt is stored in the image columns: the original e-mail, byte for byte. */
export const EMAIL_MIME = 'message/rfc822'

export type StoredAnalysis = { id: number; imageHash: string; analysis: Analysis; duplicate: boolean }

/**
 * Check the image (spec messages), analyse it on the server and keep the analysis with the image,
 * keyed by user and image hash, for the submission. Throws ReceiptImageError for bad input.
 */
export async function analyzeAndStore(
  db: DB,
  input: {
    userId: number
    image: Buffer
    analyze: Analyzer
    now?: Date
    timeoutMs?: number
    /** E-receipts' analysis (issue 21); defaults to DKIM verification with the environment's resolver. */
    analyzeEmail?: (raw: Buffer, opts: { now?: Date; deadline?: number }) => Promise<Analysis>
  },
): Promise<StoredAnalysis> {
  // An e-mail (issue 21) proves itself by its signature and is read from its signed text, at once;
  // anything else must be a photo. Neither stores anything when it is refused.
  const email = !!input.image && sniffImageFormat(input.image) === null && looksLikeEmail(input.image)
  const meta = email ? null : await validateReceiptImage(input.image)
  const imageHash = sha256(input.image)
  const duplicate = !!(await db.selectFrom('receipts').select('id').where('image_hash', '=', imageHash).executeTakeFirst())
  const existing = await db
    .selectFrom('receipt_analyses')
    .select(['id', 'analysis_json'])
    .where('user_id', '=', input.userId)
    .where('image_hash', '=', imageHash)
    .executeTakeFirst()
  if (existing) {
    const analysis = JSON.parse(existing.analysis_json) as Analysis
    // A stored timeout fallback gets another chance; a real analysis is reused as it is.
    if (!analysis.timeoutFallback) return { id: existing.id, imageHash, analysis, duplicate }
  }
  const analysis: Analysis = email
    ? // The photos' time limit: past it no key is looked up and the e-mail is refused, retryable.
      await (input.analyzeEmail ?? measuredEReceipts)(input.image, { now: input.now, deadline: Date.now() + (input.timeoutMs ?? ANALYSIS_TIMEOUT_MS) })
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
  return { id: row.id, imageHash, analysis, duplicate }
}

/** Test mode only (DECISIONS 3): keep a demo analysis so the form step can show it; it never earns. */
export async function storeDemoAnalysis(db: DB, userId: number, analysis: Analysis, now = new Date()) {
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
    analysis: JSON.parse(row.analysis_json) as Analysis,
    image: row.image,
    imageMime: row.image_mime,
    phash: row.image_phash,
  }
}

export type SubmitResult =
  | {
      ok: true
      receiptId: number
      status: 'approved' | 'pending_review'
      reward: ReceiptReward | null
      firstReceiptBonusMilli: number
      reasons: string[]
      streak: { increased: boolean; current: number }
    }
  | { ok: false; status: 400 | 404 | 409 | 429; error: string }

function isUniqueViolation(error: unknown) {
  const e = error as { code?: string; message?: string }
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505' || /UNIQUE constraint/i.test(e?.message ?? '')
}

class Refusal extends Error {
  constructor(readonly status: 400 | 409 | 429, message: string) {
    super(message)
  }
}

/**
 * Submit a stored analysis. The server's analysis decides (DECISIONS 2, 10–13); one database
 * transaction takes a daily slot (DECISIONS 14), inserts the receipt (unique image hash: 409 on a
 * duplicate) and credits the reward with unique ledger keys, so concurrent submissions pay once.
 */
export async function submitReceipt(
  db: DB,
  input: {
    userId: number
    analysisId: number
    values: UserValues
    maxAgeDays: number
    inviteeAutoApprovalsPerDay?: number
    now?: Date
    /** VeBetter Passport's view of the wallet (issue 22); null or absent: not asked. */
    passport?: ((wallet: string) => Promise<PassportCheckView>) | null
  },
): Promise<SubmitResult> {
  const now = input.now ?? new Date()
  const stored = await getStoredAnalysis(db, input.userId, input.analysisId)
  if (stored?.analysis.testMode) return { ok: false, status: 400, error: 'Demo receipts never earn tokens.' }
  if (!stored || !stored.image) return { ok: false, status: 404, error: 'Receipt analysis not found. Please scan the receipt again.' }
  const dup = await db.selectFrom('receipts').select('id').where('image_hash', '=', stored.imageHash).executeTakeFirst()
  if (dup) return { ok: false, status: 409, error: DUPLICATE_MESSAGE }

  const analysis = stored.analysis
  const content = receiptContent(analysis)
  const decide = (signals: { nearDuplicate: boolean; sameReceiptFromOtherAccount: boolean; inviteeCapReached: boolean }) =>
    decideSubmission({ analysis, user: input.values, now, maxAgeDays: input.maxAgeDays, ...signals })
  // Refusals that need no slot come first (nothing is written for them).
  const early = decide({ nearDuplicate: false, sameReceiptFromOtherAccount: false, inviteeCapReached: false })
  if (early.kind === 'reject') return { ok: false, status: 400, error: early.reason }
  if ((await findSameReceipts(db, content)).some((r) => r.userId === input.userId)) return { ok: false, status: 409, error: DUPLICATE_MESSAGE }
  // Asked before the transaction (a node call never holds the database's write lock).
  const passport = input.passport ? await input.passport(await walletOf(db, input.userId)) : null
  const passportReasons = passportReviewReasons(passport)

  try {
    return await db.transaction().execute(async (trx) => {
      // Taking the slot writes first, which serialises concurrent submissions on SQLite's write
      // lock; the identity checks below then see every receipt accepted before this one.
      const slot = await takeActionSlot(trx, { userId: input.userId, kind: 'receipt', now })
      if (!slot) throw new Refusal(429, DAILY_LIMIT_ERROR)
      // PostgreSQL: submissions of the same trip (or by one referrer's invitees) from several
      // accounts at once wait for each other, so each sees the receipts accepted before it.
      await lockReceiptIdentity(trx, input.userId, content)
      const same = await findSameReceipts(trx, content)
      if (same.some((r) => r.userId === input.userId)) throw new Refusal(409, DUPLICATE_MESSAGE)
      const signals = await collectReviewSignals(trx, {
        userId: input.userId,
        now,
        fingerprint: stored.phash,
        amountCents: content.amountCents ?? input.values.amountCents,
        sameReceipts: same,
      })
      const cap = input.inviteeAutoApprovalsPerDay ?? DEFAULT_INVITEE_AUTO_APPROVALS_PER_DAY
      const decided = decide({
        nearDuplicate: signals.nearDuplicateOf !== null,
        sameReceiptFromOtherAccount: signals.sameReceiptFromOtherAccount !== null,
        inviteeCapReached: signals.referredByUserId !== null && signals.inviteeAutoApprovalsToday >= cap,
      })
      const decision = withReviewReasons(decided, passportReasons)
      if (decision.kind === 'reject') throw new Refusal(400, decision.reason)
      const approved = decision.kind === 'approve'
      const receipt = await trx
        .insertInto('receipts')
        .values({
          user_id: input.userId,
          image_hash: stored.imageHash,
          image_phash: stored.phash,
          image: stored.image,
          image_mime: stored.imageMime,
          store_name: analysis.storeName,
          category: analysis.category,
          amount_cents: toCents(analysis.totalAmount),
          purchase_date: analysis.purchaseDate,
          reference_number: content.referenceNumber,
          review_signals_json: JSON.stringify(passport ? { ...signals, passport } : signals),
          user_store_id: input.values.serviceId ?? null,
          user_category: input.values.category,
          user_amount_cents: input.values.amountCents,
          user_purchase_date: input.values.purchaseDate,
          analysis_json: JSON.stringify(analysis),
          verified_sender: typeof analysis.verifiedSender === 'string' ? analysis.verifiedSender : null,
          status: approved ? 'approved' : 'pending_review',
          review_reasons_json: approved ? null : JSON.stringify(decision.kind === 'review' ? decision.reasons : []),
          reject_reason: null,
          reward_milli: null,
          reward_details_json: null,
          reviewed_by_user_id: null,
          reviewed_at: null,
          created_at: now.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      // A verified e-receipt pays once across all wallets, and only the wallet its mailbox is bound to.
      const ereceipt = eReceiptFacts(analysis)
      if (ereceipt) {
        const claim = await claimEReceipt(trx, { userId: input.userId, receiptId: receipt.id, facts: ereceipt, approved, now })
        if (!claim.ok) throw new Refusal(409, claim.error)
      }
      await linkActionSlot(trx, input.userId, slot, receipt.id)
      await trx.deleteFrom('receipt_analyses').where('id', '=', stored.id).execute()

      if (!approved) {
        const user = await trx.selectFrom('users').select('current_streak').where('id', '=', input.userId).executeTakeFirstOrThrow()
        return {
          ok: true as const,
          receiptId: receipt.id,
          status: 'pending_review' as const,
          reward: null,
          firstReceiptBonusMilli: 0,
          reasons: decision.kind === 'review' ? decision.reasons : [],
          streak: { increased: false, current: user.current_streak },
        }
      }
      const streak = await advanceStreak(trx, input.userId, now)
      const credit = await creditReceipt(trx, {
        userId: input.userId,
        receiptId: receipt.id,
        category: analysis.category,
        storeName: analysis.storeName,
        streak: streak.current,
        now,
      })
      return { ok: true as const, receiptId: receipt.id, status: 'approved' as const, reasons: [], streak, ...credit }
    })
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, status: error.status, error: error.message }
    if (isUniqueViolation(error)) return { ok: false, status: 409, error: DUPLICATE_MESSAGE }
    throw error
  }
}

/**
 * The keys a submission decides on across accounts: the trip's content, its printed number and the
 * referrer whose invitees' automatic approvals are capped. Taken in sorted order (no deadlock).
 */
async function lockReceiptIdentity(trx: Transaction<Database>, userId: number, content: ReceiptContent) {
  const keys: string[] = []
  if (content.storeName && content.amountCents !== null && content.purchaseDate) {
    keys.push(`receipt-trip:${content.storeName}:${content.amountCents}:${content.purchaseDate}`)
  }
  if (content.storeName && content.referenceNumber) keys.push(`receipt-ref:${content.storeName}:${content.referenceNumber}`)
  const user = await trx.selectFrom('users').select('referred_by_user_id').where('id', '=', userId).executeTakeFirst()
  if (user?.referred_by_user_id) keys.push(`invitees:${user.referred_by_user_id}`)
  for (const key of keys.sort()) await lockKey(trx, key)
}

/** How many receipts of one referrer's invitees may be approved automatically per UTC day. */
export const DEFAULT_INVITEE_AUTO_APPROVALS_PER_DAY = 5

/** The e-receipt facts of a stored analysis (issue 21), or null for a photo. */
export function eReceiptFacts(analysis: Analysis): EReceiptFacts | null {
  const facts = analysis.ereceipt as EReceiptFacts | null | undefined
  return facts && typeof facts.signatureId === 'string' ? facts : null
}

async function walletOf(db: DB, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select('wallet_address').where('id', '=', userId).executeTakeFirstOrThrow()
  return row.wallet_address
}

/** Reasons from outside the receipt (VeBetter Passport) turn an approval into a review; never a refusal into one. */
function withReviewReasons(decision: SubmissionDecision, reasons: string[]): SubmissionDecision {
  if (reasons.length === 0 || decision.kind === 'reject') return decision
  return { kind: 'review', reasons: [...new Set([...(decision.kind === 'review' ? decision.reasons : []), ...reasons])] }
}

/** What identifies the trip: only what the server read, never what the user typed. */
export function receiptContent(analysis: Analysis): ReceiptContent {
  return {
    storeName: analysis.storeName,
    amountCents: toCents(analysis.totalAmount),
    purchaseDate: analysis.purchaseDate,
    referenceNumber: typeof analysis.referenceNumber === 'string' && analysis.referenceNumber ? analysis.referenceNumber : null,
  }
}

/** Streak (DECISIONS 15) with a compare-and-set update, so concurrent receipts cannot skip a day. */
async function advanceStreak(trx: Transaction<Database>, userId: number, now: Date) {
  const today = utcDay(now)
  for (;;) {
    const user = await trx
      .selectFrom('users')
      .select(['current_streak', 'best_streak', 'last_streak_day'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const next = nextStreak({ lastActiveDay: user.last_streak_day, currentStreak: user.current_streak, today })
    const update = await trx
      .updateTable('users')
      .set({
        current_streak: next.streak,
        best_streak: Math.max(user.best_streak, next.streak),
        last_streak_day: today,
        updated_at: now.toISOString(),
      })
      .where('id', '=', userId)
      .where('current_streak', '=', user.current_streak)
      .where((eb) =>
        user.last_streak_day === null ? eb('last_streak_day', 'is', null) : eb('last_streak_day', '=', user.last_streak_day),
      )
      .executeTakeFirst()
    if (Number(update.numUpdatedRows) === 1) return { increased: next.increased, current: next.streak }
  }
}

/** Credit an accepted receipt once: reward, first-receipt bonus, the 30 % fund share. */
export async function creditReceipt(
  trx: Kysely<Database>,
  input: { userId: number; receiptId: number; category: string | null; storeName?: string | null; streak: number; now: Date },
) {
  // The amount plays no part: every verified receipt has the same base (decision 100).
  const reward = computeReceiptReward({ category: input.category, streak: input.streak })
  const created_at = input.now.toISOString()
  const base = { user_id: input.userId, receipt_id: input.receiptId, tx_hash: null, store_submission_id: null, referral_id: null, created_at }
  const credited = await creditReward(
    trx as DB,
    {
      ...base,
      type: 'receipt_verification',
      amount_milli: reward.totalMilli,
      description: receiptRewardDescription(reward, input.storeName),
      idempotency_key: `receipt:${input.receiptId}`,
    },
    `receipt #${input.receiptId}`,
  )
  if (!credited) return { reward, firstReceiptBonusMilli: 0 }
  const bonusDescription = achievementRewardDescription('first_receipt')
  const bonus = await creditReward(
    trx as DB,
    {
      ...base,
      type: 'achievement_reward',
      amount_milli: FIRST_RECEIPT_BONUS_MILLI,
      description: bonusDescription,
      idempotency_key: achievementRewardKey(input.userId, 'first_receipt'),
    },
    bonusDescription,
  )
  if (bonus) {
    // A friend's first accepted receipt pays the referrer (once, by its own ledger key).
    await rewardReferrerForFirstAcceptedReceipt(trx as DB, input.userId, input.now)
  }
  await trx
    .updateTable('receipts')
    .set({ reward_milli: reward.totalMilli + (bonus ? FIRST_RECEIPT_BONUS_MILLI : 0), reward_details_json: JSON.stringify(reward) })
    .where('id', '=', input.receiptId)
    .execute()
  return { reward, firstReceiptBonusMilli: bonus ? FIRST_RECEIPT_BONUS_MILLI : 0 }
}

export type ReviewResult = { ok: true } | { ok: false; status: 404 | 409; error: string }

/** Admin approval: a conditional status change, so two admins or a double click pay once. */
export async function approveReceipt(db: DB, input: { adminUserId: number; receiptId: number; now?: Date }): Promise<ReviewResult> {
  const now = input.now ?? new Date()
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('receipts')
      .set({ status: 'approved', reviewed_by_user_id: input.adminUserId, reviewed_at: now.toISOString() })
      .where('id', '=', input.receiptId)
      .where('status', '=', 'pending_review')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return decidedAlready(trx, input.receiptId)
    const receipt = await trx.selectFrom('receipts').selectAll().where('id', '=', input.receiptId).executeTakeFirstOrThrow()
    const user = await trx.selectFrom('users').select('current_streak').where('id', '=', receipt.user_id).executeTakeFirstOrThrow()
    // An approved e-receipt binds the mailbox its signed To names, as an automatic approval does.
    const ereceipt = eReceiptFacts(JSON.parse(receipt.analysis_json) as Analysis)
    if (ereceipt?.recipientHash) await bindMailbox(trx, ereceipt.recipientHash, receipt.user_id, now)
    // The reviewer checked the photo against the user's values; the reward follows the current streak.
    const credit = await creditReceipt(trx, {
      userId: receipt.user_id,
      receiptId: receipt.id,
      category: receipt.user_category ?? receipt.category,
      storeName: receipt.store_name,
      streak: user.current_streak,
      now,
    })
    await recordAudit(trx, {
      adminUserId: input.adminUserId,
      action: 'receipt.approve',
      targetType: 'receipt',
      targetId: receipt.id,
      details: { rewardMilli: credit.reward.totalMilli, firstReceiptBonusMilli: credit.firstReceiptBonusMilli },
      now,
    })
    return { ok: true as const }
  })
}

export async function rejectReceipt(
  db: DB,
  input: { adminUserId: number; receiptId: number; reason: string; now?: Date },
): Promise<ReviewResult> {
  const now = input.now ?? new Date()
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('receipts')
      .set({ status: 'rejected', reject_reason: input.reason, reviewed_by_user_id: input.adminUserId, reviewed_at: now.toISOString() })
      .where('id', '=', input.receiptId)
      .where('status', '=', 'pending_review')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return decidedAlready(trx, input.receiptId)
    await recordAudit(trx, { adminUserId: input.adminUserId, action: 'receipt.reject', targetType: 'receipt', targetId: input.receiptId, details: { reason: input.reason }, now })
    return { ok: true as const }
  })
}

async function decidedAlready(trx: Kysely<Database>, receiptId: number): Promise<ReviewResult> {
  const exists = await trx.selectFrom('receipts').select('status').where('id', '=', receiptId).executeTakeFirst()
  return exists
    ? { ok: false, status: 409, error: `This receipt was already ${exists.status === 'approved' ? 'approved' : 'rejected'}.` }
    : { ok: false, status: 404, error: 'Receipt not found' }
}

export type ReceiptSummary = {
  id: number
  storeName: string | null
  category: string | null
  amount: number | null
  purchaseDate: string | null
  status: ReceiptRow['status']
  rewardMilli: number | null
  rejectReason: string | null
  createdAt: string
  /** "uber.com" for a verified e-receipt (issue 21), null for a photo. */
  verifiedSender: string | null
}

function toSummary(r: Pick<ReceiptRow, 'verified_sender' | 'id' | 'store_name' | 'category' | 'amount_cents' | 'user_amount_cents' | 'purchase_date' | 'user_purchase_date' | 'user_category' | 'status' | 'reward_milli' | 'reject_reason' | 'created_at'>): ReceiptSummary {
  const cents = r.amount_cents ?? r.user_amount_cents
  return {
    id: r.id,
    storeName: r.store_name,
    category: r.category ?? r.user_category,
    amount: cents === null ? null : cents / 100,
    purchaseDate: r.purchase_date ?? r.user_purchase_date,
    status: r.status,
    rewardMilli: r.reward_milli,
    rejectReason: r.reject_reason,
    createdAt: r.created_at,
    verifiedSender: r.verified_sender,
  }
}

const SUMMARY_COLUMNS = ['verified_sender', 'id', 'store_name', 'category', 'amount_cents', 'user_amount_cents', 'purchase_date', 'user_purchase_date', 'user_category', 'status', 'reward_milli', 'reject_reason', 'created_at'] as const

export async function listUserReceipts(db: DB, userId: number) {
  const rows = await db.selectFrom('receipts').select(SUMMARY_COLUMNS).where('user_id', '=', userId).orderBy('id', 'desc').execute()
  return rows.map(toSummary)
}

export async function getUserReceipt(db: DB, userId: number, receiptId: number) {
  const row = await db
    .selectFrom('receipts')
    .select([...SUMMARY_COLUMNS, 'reward_details_json', 'review_reasons_json'])
    .where('id', '=', receiptId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return null
  return {
    ...toSummary(row),
    rewardDetails: row.reward_details_json ? (JSON.parse(row.reward_details_json) as ReceiptReward) : null,
    reviewReasons: row.review_reasons_json ? (JSON.parse(row.review_reasons_json) as string[]) : [],
  }
}

export async function listReviewQueue(db: DB) {
  return db
    .selectFrom('receipts')
    .innerJoin('users', 'users.id', 'receipts.user_id')
    .leftJoin('transportation_services', 'transportation_services.id', 'receipts.user_store_id')
    .select([
      'receipts.id',
      'receipts.user_id',
      'users.wallet_address',
      'transportation_services.name as user_service_name',
      'receipts.store_name',
      'receipts.category',
      'receipts.amount_cents',
      'receipts.purchase_date',
      'receipts.user_category',
      'receipts.user_amount_cents',
      'receipts.user_purchase_date',
      'receipts.analysis_json',
      'receipts.review_reasons_json',
      'receipts.review_signals_json',
      'receipts.reference_number',
      'receipts.verified_sender',
      'receipts.created_at',
    ])
    .where('receipts.status', '=', 'pending_review')
    .orderBy('receipts.id', 'asc')
    .limit(100)
    .execute()
}

export async function getReceiptImage(db: DB, receiptId: number) {
  return db.selectFrom('receipts').select(['image', 'image_mime', 'user_id']).where('id', '=', receiptId).executeTakeFirst()
}

export async function listTransportationServices(db: DB) {
  return db.selectFrom('transportation_services').select(['id', 'name', 'category']).orderBy('id').execute()
}

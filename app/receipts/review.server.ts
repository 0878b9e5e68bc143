/**
 * Staff review of receipts waiting for it: the queue, the image, approving (credited once) and
 * rejecting (with the reason), and signalling a confirmed fraud on VeBetter Passport.
 */
import { Refusal, refused } from '~/utils/refusal'
import type { Kysely } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database } from '#db/schema'
import { recordAudit } from '~/admin/audit.server'
import { signalWallet, type SignalResult } from '~/chain/passport.server'
import { bindMailbox } from '~/receipts/email-keys.server'
import { countApprovedDay, creditReceipt, payBonusMovedByRejection } from '~/rewards/receipt-credit.server'
import { utcDay } from '~/utils/calendar'
import { eReceiptFacts, parseReviewReasons, readStoredAnalysis } from '~/analysis/stored-analysis'
import type { PassportCheckView } from './passport-signals'
import { groupReceipts } from './review-groups'
import { parseSignals } from './signals'
import { getStandings } from './standing.server'

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
    // Issue 40: the receipt counts for the streak of the day it was submitted, and is paid at it.
    const streak = await countApprovedDay(trx, receipt.user_id, utcDay(new Date(receipt.created_at)), now)
    // An approved e-receipt binds the mailbox its signed To names, as an automatic approval does.
    const ereceipt = eReceiptFacts(readStoredAnalysis(receipt.analysis_json))
    if (ereceipt?.recipientHash) await bindMailbox(trx, ereceipt.recipientHash, receipt.user_id, now)
    // The reviewer checked the photo against the user's values (approvalPromise shows the same sum while it waits).
    const credit = await creditReceipt(trx, {
      userId: receipt.user_id,
      receiptId: receipt.id,
      category: receipt.user_category ?? receipt.category,
      storeName: receipt.store_name,
      streak: streak.streakOfDay,
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

/** Admin rejection with the reason the user sees; `fraud` (confirmed fraud) takes the wallet's standing away (issue 31). */
export async function rejectReceipt(
  db: DB,
  input: { adminUserId: number; receiptId: number; reason: string; fraud?: boolean; now?: Date },
): Promise<ReviewResult> {
  const now = input.now ?? new Date()
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('receipts')
      .set({
        status: 'rejected',
        reject_reason: input.reason,
        rejected_as_fraud: input.fraud ? 1 : 0,
        reviewed_by_user_id: input.adminUserId,
        reviewed_at: now.toISOString(),
      })
      .where('id', '=', input.receiptId)
      .where('status', '=', 'pending_review')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return decidedAlready(trx, input.receiptId)
    // The first-receipt bonus this receipt was promised moves to the user's next receipt (issue 40),
    // unless the wallet sent a fraudulent one.
    if (!input.fraud) {
      const { user_id } = await trx.selectFrom('receipts').select('user_id').where('id', '=', input.receiptId).executeTakeFirstOrThrow()
      await payBonusMovedByRejection(trx, user_id, now)
    }
    const details = input.fraud ? { reason: input.reason, fraud: true } : { reason: input.reason }
    await recordAudit(trx, { adminUserId: input.adminUserId, action: 'receipt.reject', targetType: 'receipt', targetId: input.receiptId, details, now })
    return { ok: true as const }
  })
}

async function decidedAlready(trx: Kysely<Database>, receiptId: number): Promise<ReviewResult> {
  const exists = await trx.selectFrom('receipts').select('status').where('id', '=', receiptId).executeTakeFirst()
  return exists
    ? refused(new Refusal('already_decided', 409, `This receipt was already ${exists.status === 'approved' ? 'approved' : 'rejected'}.`))
    : refused(new Refusal('not_found', 404, 'Receipt not found'))
}


/** How many receipts a page of the review queue shows, as before issue 38; now every page is reachable. */
export const REVIEW_PAGE_SIZE = 100

/** Every receipt waiting for staff, in the few columns grouping and standing need. */
function listWaiting(db: DB) {
  return db
    .selectFrom('receipts')
    .innerJoin('users', 'users.id', 'receipts.user_id')
    .select([
      'receipts.id',
      'receipts.user_id',
      'users.referred_by_user_id',
      'receipts.install_hash',
      'receipts.address_hash',
      'receipts.created_at',
      'receipts.store_name',
      'receipts.amount_cents',
      'receipts.purchase_date',
      'receipts.reference_number',
      'receipts.review_signals_json',
    ])
    .where('receipts.status', '=', 'pending_review')
    .orderBy('receipts.id', 'asc')
    .execute()
}

/** The receipts of one page, each with its analysis and the reasons it waits. */
export async function listReviewRows(db: DB, ids: number[]) {
  if (ids.length === 0) return []
  const rows = await db
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
    .where('receipts.id', 'in', ids)
    .execute()
  return rows.map(({ analysis_json, review_reasons_json, ...row }) => ({
    ...row,
    analysis: readStoredAnalysis(analysis_json),
    reasons: parseReviewReasons(review_reasons_json),
  }))
}

export async function getReceiptImage(db: DB, receiptId: number) {
  return db.selectFrom('receipts').select(['image', 'image_mime', 'user_id']).where('id', '=', receiptId).executeTakeFirst()
}


/** Staff confirmed fraud on a rejected receipt: signal its wallet on VeBetter Passport, audited (issue 22). */
export async function signalReceiptOwner(
  db: DB,
  input: { adminUserId: number; receiptId: number; reason: string },
  signal: typeof signalWallet = signalWallet,
): Promise<SignalResult> {
  const row = await db
    .selectFrom('receipts')
    .innerJoin('users', 'users.id', 'receipts.user_id')
    .select(['users.wallet_address', 'receipts.status'])
    .where('receipts.id', '=', input.receiptId)
    .executeTakeFirst()
  if (!row || row.status !== 'rejected') return { ok: false, reason: 'node', message: 'Only a rejected receipt can be reported as fraud.' }
  const result = await signal(row.wallet_address, `ReCircle: fraudulent receipt #${input.receiptId}: ${input.reason}`)
  if (result.ok) {
    await recordAudit(db, {
      adminUserId: input.adminUserId,
      action: 'passport.signal',
      targetType: 'receipt',
      targetId: input.receiptId,
      details: { wallet: row.wallet_address, txId: result.txId },
    })
  }
  return result
}

/**
 * The queue as staff see it (issues 31 and 38): every waiting receipt counted, grouped and given its
 * wallet's standing, then one page of them in the order the page lists them: the new wallets'
 * groups, largest first, then the established wallets' receipts, oldest first. A group keeps its
 * receipts together; one longer than a page continues on the next.
 */
export async function reviewQueueWithStanding(db: DB, opts: { page?: number } = {}) {
  const waiting = await listWaiting(db)
  const standings = await getStandings(
    db,
    waiting.map((r) => ({ userId: r.user_id, passport: passportSeenBy(r.review_signals_json) })),
  )
  const groups = groupReceipts(
    waiting
      .filter((r) => !standings.get(r.user_id)!.established)
      .map((r) => ({
        id: r.id,
        userId: r.user_id,
        referredByUserId: r.referred_by_user_id,
        installHash: r.install_hash,
        addressHash: r.address_hash,
        createdAt: r.created_at,
        storeName: r.store_name,
        amountCents: r.amount_cents,
        purchaseDate: r.purchase_date,
        referenceNumber: r.reference_number,
      })),
  )
  const order = [...groups.flatMap((g) => g.receiptIds), ...waiting.filter((r) => standings.get(r.user_id)!.established).map((r) => r.id)]
  const pageCount = Math.max(1, Math.ceil(order.length / REVIEW_PAGE_SIZE))
  const page = Math.min(Math.max(1, Math.floor(opts.page ?? 1)), pageCount)
  const pageIds = order.slice((page - 1) * REVIEW_PAGE_SIZE, page * REVIEW_PAGE_SIZE)
  const byId = new Map((await listReviewRows(db, pageIds)).map((r) => [r.id, r]))
  const rows = pageIds.flatMap((id) => {
    const row = byId.get(id)
    return row ? [{ ...row, standing: standings.get(row.user_id)! }] : []
  })
  const onPage = new Set(pageIds)
  const pageGroups = groups.filter((g) => g.receiptIds.some((id) => onPage.has(id)))
  // Referrers and address-tied wallets are named by their wallet, waiting or not.
  const named = [...new Set(pageGroups.flatMap((g) => [...g.userIds, ...g.referrerIds, ...g.addressTies]))]
  return { total: waiting.length, page, pageCount, rows, groups: pageGroups, wallets: await walletsOf(db, named) }
}

async function walletsOf(db: DB, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map()
  const rows = await db.selectFrom('users').select(['id', 'wallet_address']).where('id', 'in', userIds).execute()
  return new Map(rows.map((r) => [r.id, r.wallet_address]))
}

/** What VeBetter Passport said when the receipt was submitted (stored with its signals). */
export function passportSeenBy(signalsJson: string | null): PassportCheckView | null {
  const passport = (parseSignals(signalsJson) as { passport?: PassportCheckView } | null)?.passport
  return passport && typeof passport === 'object' && 'ok' in passport ? passport : null
}

export type GroupDecision = { kind: 'approve' } | { kind: 'reject'; reason: string; fraud: boolean }

/**
 * Staff decide a group at once: each receipt as approving or rejecting it alone would (credited
 * once, audited each), plus one audit entry for the group. Receipts already decided are skipped.
 */
export async function decideGroup(db: DB, input: { adminUserId: number; receiptIds: number[]; decision: GroupDecision; now?: Date }) {
  const now = input.now ?? new Date()
  const decided: number[] = []
  for (const receiptId of input.receiptIds) {
    const result =
      input.decision.kind === 'approve'
        ? await approveReceipt(db, { adminUserId: input.adminUserId, receiptId, now })
        : await rejectReceipt(db, { adminUserId: input.adminUserId, receiptId, reason: input.decision.reason, fraud: input.decision.fraud, now })
    if (result.ok) decided.push(receiptId)
  }
  await recordAudit(db, {
    adminUserId: input.adminUserId,
    action: input.decision.kind === 'approve' ? 'receipt.group_approve' : 'receipt.group_reject',
    targetType: 'receipt',
    targetId: input.receiptIds[0] ?? 0,
    details: { receiptIds: input.receiptIds, decided, ...(input.decision.kind === 'reject' ? { reason: input.decision.reason, fraud: input.decision.fraud } : {}) },
    now,
  })
  return { decided: decided.length, skipped: input.receiptIds.length - decided.length }
}

/** Signal each wallet of a rejected group on VeBetter Passport: one signed transaction per wallet, audited. */
export async function signalGroupWallets(
  db: DB,
  input: { adminUserId: number; receiptIds: number[]; reason: string },
  signal: typeof signalWallet = signalWallet,
) {
  const rows = await db
    .selectFrom('receipts')
    .innerJoin('users', 'users.id', 'receipts.user_id')
    .select(['users.wallet_address', 'receipts.id'])
    .where('receipts.id', 'in', input.receiptIds.length ? input.receiptIds : [0])
    .where('receipts.status', '=', 'rejected')
    // Each wallet is named with its oldest receipt of the group, on every database.
    .orderBy('receipts.id', 'asc')
    .execute()
  const wallets = new Map<string, number>()
  for (const r of rows) if (!wallets.has(r.wallet_address)) wallets.set(r.wallet_address, r.id)
  const results: Array<{ wallet: string; result: SignalResult }> = []
  for (const [wallet, receiptId] of wallets) {
    const result = await signal(wallet, `ReCircle: fraudulent receipts (group with #${receiptId}): ${input.reason}`)
    if (result.ok) {
      await recordAudit(db, { adminUserId: input.adminUserId, action: 'passport.signal', targetType: 'receipt', targetId: receiptId, details: { wallet, txId: result.txId } })
    }
    results.push({ wallet, result })
  }
  return results
}

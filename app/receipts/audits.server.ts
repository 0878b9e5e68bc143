/**
 * Audits of automatic photo approvals (issue 38, docs/decisions/109-maturing-and-audits.md).
 * A share of them is sampled when the photo is approved; a photo whose trip then arrives as a
 * verified e-receipt from another wallet joins them. Staff clear an audit, or reject it as fraud:
 * the receipt is rejected, its credit and every maturing photo credit of the wallet are reversed
 * (once, whoever races), and the wallet loses its standing.
 */
import type { Kysely } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database } from '#db/schema'
import { recordAudit } from '~/admin/audit.server'
import { lockLedger } from '~/rewards/ledger.server'
import { evidenceStrength, photoAuditRate, sampledForAudit } from '~/rewards/maturing'
import { auditDraw } from '~/rewards/maturing.server'
import { reverseMaturedUnclaimed, reverseWalletMaturing, withholdReceiptCredits } from '~/rewards/reversals.server'
import { Refusal, refused, type Refused } from '~/utils/refusal'
import { parseReviewReasons } from '~/analysis/stored-analysis'
import type { SameReceipt } from './fraud.server'
import { readEvidence } from './standing.server'

type Trx = Kysely<Database>

export const AUDIT_REASONS = {
  sample: 'Sampled: a share of automatic photo approvals is checked by staff.',
  thin: "Sampled more often: this wallet's standing rests on one staff approval or VeBetter Passport alone.",
  ereceipt: (eReceiptId: number) => `Likely fraud: the rider's verified e-receipt of this trip came from another wallet (receipt #${eReceiptId}).`,
}

/** What the user reads on a receipt whose maturing credit was taken back. */
export const WITHHELD_MESSAGE = 'Withheld: another receipt of this wallet was rejected as fraud.'
export const HELD_FOR_EMAIL_MESSAGE = "Held: the trip's verified e-receipt was sent from another wallet, and it was paid there."

/**
 * Whether this automatic photo approval is audited, and why: decided by the server's own
 * randomness (auditDraw) at the rate the wallet's evidence calls for.
 */
export async function sampleAudit(trx: Trx, userId: number, baseRate: number, draw = auditDraw()): Promise<string | null> {
  if (baseRate <= 0) return null
  const strength = evidenceStrength(await readEvidence(trx, userId))
  if (!sampledForAudit(draw, photoAuditRate(baseRate, strength))) return null
  return strength === 'thin' ? AUDIT_REASONS.thin : AUDIT_REASONS.sample
}

/**
 * A verified e-receipt of this trip was just paid to another wallet: a photo still waiting gets the
 * reason for staff; an approved one has its maturing credits withheld and joins the audits.
 */
export async function holdPhotoForEReceipt(trx: Trx, input: { photo: SameReceipt; eReceiptId: number; now: Date }) {
  const reason = AUDIT_REASONS.ereceipt(input.eReceiptId)
  if (input.photo.status === 'pending_review') {
    const row = await trx.selectFrom('receipts').select('review_reasons_json').where('id', '=', input.photo.id).executeTakeFirstOrThrow()
    const reasons = [...new Set([...parseReviewReasons(row.review_reasons_json), reason])]
    await trx.updateTable('receipts').set({ review_reasons_json: JSON.stringify(reasons) }).where('id', '=', input.photo.id).execute()
    return
  }
  await lockLedger(trx as DB, input.photo.userId, input.now)
  const withheld = await withholdReceiptCredits(trx, { receiptId: input.photo.id, now: input.now })
  await trx
    .updateTable('receipts')
    .set({
      audit_status: 'pending',
      audit_reason: reason,
      ...(withheld.some((w) => w.userId === input.photo.userId && !w.fund) ? { status: 'rejected' as const, reject_reason: HELD_FOR_EMAIL_MESSAGE } : {}),
    })
    .where('id', '=', input.photo.id)
    .where('status', '=', 'approved')
    .execute()
}

export type AuditResult = { ok: true; reversedMilli: number } | Refused<404 | 409>

const auditRefusals = {
  notFound: () => new Refusal('not_found', 404, 'Receipt not found'),
  decided: () => new Refusal('already_decided', 409, 'This audit was already decided.'),
}

/** Staff found an audited receipt right: it leaves the list, and counts as a staff look for the wallet. */
export async function clearAudit(db: DB, input: { adminUserId: number; receiptId: number; now?: Date }): Promise<AuditResult> {
  const now = input.now ?? new Date()
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('receipts')
      .set({ audit_status: 'cleared', audit_decided_at: now.toISOString() })
      .where('id', '=', input.receiptId)
      .where('audit_status', '=', 'pending')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return auditDecidedAlready(trx, input.receiptId)
    await recordAudit(trx, { adminUserId: input.adminUserId, action: 'receipt.audit_clear', targetType: 'receipt', targetId: input.receiptId, now })
    return { ok: true as const, reversedMilli: 0 }
  })
}

/**
 * Staff rejected an audited receipt as fraud. One transaction, after the wallet's ledger is locked
 * (as a claim locks it): the conditional update lets one of any number of concurrent decisions
 * through; the receipt's credit is taken back as far as it is unclaimed, every maturing photo credit
 * of the wallet is reversed, and its other maturing photos are marked withheld.
 */
export async function rejectAudit(db: DB, input: { adminUserId: number; receiptId: number; reason: string; now?: Date }): Promise<AuditResult> {
  const now = input.now ?? new Date()
  const at = now.toISOString()
  return db.transaction().execute(async (trx) => {
    const receipt = await trx.selectFrom('receipts').select(['user_id']).where('id', '=', input.receiptId).executeTakeFirst()
    if (!receipt) return refused(auditRefusals.notFound())
    await lockLedger(trx as DB, receipt.user_id, now)
    const updated = await trx
      .updateTable('receipts')
      .set({
        status: 'rejected',
        rejected_as_fraud: 1,
        reject_reason: input.reason,
        audit_status: 'rejected',
        audit_decided_at: at,
        reviewed_by_user_id: input.adminUserId,
        reviewed_at: at,
      })
      .where('id', '=', input.receiptId)
      .where('audit_status', '=', 'pending')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return auditDecidedAlready(trx, input.receiptId)
    const matured = await reverseMaturedUnclaimed(trx, { receiptId: input.receiptId, userId: receipt.user_id, now })
    const maturing = await reverseWalletMaturing(trx, { userId: receipt.user_id, now })
    const withheld = [...new Set(maturing.filter((r) => r.userId === receipt.user_id && r.holdReceiptId !== null).map((r) => r.holdReceiptId!))]
    if (withheld.length > 0) {
      await trx
        .updateTable('receipts')
        .set({ status: 'rejected', reject_reason: WITHHELD_MESSAGE })
        .where('id', 'in', withheld)
        .where('user_id', '=', receipt.user_id)
        .where('status', '=', 'approved')
        .execute()
      await trx
        .updateTable('receipts')
        .set({ audit_status: 'rejected', audit_decided_at: at })
        .where('id', 'in', withheld)
        .where('audit_status', '=', 'pending')
        .execute()
    }
    const reversedMilli = [...matured, ...maturing].filter((r) => r.userId === receipt.user_id && !r.fund).reduce((sum, r) => sum + r.amountMilli, 0)
    await recordAudit(trx, {
      adminUserId: input.adminUserId,
      action: 'receipt.audit_reject',
      targetType: 'receipt',
      targetId: input.receiptId,
      details: { reason: input.reason, fraud: true, reversedMilli, reversedEntries: [...matured, ...maturing].map((r) => r.entryId), withheldReceipts: withheld },
      now,
    })
    return { ok: true as const, reversedMilli }
  })
}

async function auditDecidedAlready(trx: Trx, receiptId: number): Promise<Refused<404 | 409>> {
  const row = await trx.selectFrom('receipts').select('id').where('id', '=', receiptId).executeTakeFirst()
  return refused(row ? auditRefusals.decided() : auditRefusals.notFound())
}

/** The audit list for staff, oldest (so the soonest to mature) first: once matured, only unclaimed credit can be taken back. */
export async function listAudits(db: DB, opts: { offset: number; limit: number }) {
  const [count, rows] = await Promise.all([
    db.selectFrom('receipts').select((eb) => eb.fn.countAll<number>().as('n')).where('audit_status', '=', 'pending').executeTakeFirstOrThrow(),
    db
      .selectFrom('receipts')
      .select(['id', 'user_id', 'created_at', 'audit_reason', 'status'])
      .select((eb) =>
        eb
          .selectFrom('transactions')
          .select((t) => t.fn.max('claimable_at').as('c'))
          .whereRef('transactions.hold_receipt_id', '=', 'receipts.id')
          .whereRef('transactions.user_id', '=', 'receipts.user_id')
          .as('claimable_at'),
      )
      .where('audit_status', '=', 'pending')
      .orderBy('id', 'asc')
      .offset(opts.offset)
      .limit(opts.limit)
      .execute(),
  ])
  return { total: Number(count.n), rows }
}

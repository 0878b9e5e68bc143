import { Refusal, refused } from '~/utils/refusal'
import type { Kysely } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database, StoreSubmissionRow, SubmissionStatus } from '#db/schema'
import { recordAudit } from '~/admin/audit.server'
import { achievementRewardDescription, achievementRewardKey } from '~/engagement/achievements'
import { linkActionSlot, takeActionSlot } from '~/rewards/daily-limit.server'
import { creditReward } from '~/rewards/ledger.server'
import { FIRST_STORE_BONUS_MILLI, STORE_ADDITION_REWARD_MILLI } from '~/rewards/receipt-reward'
import { publishStore } from '~/stores/stores.server'
import { storeTypeLabel } from '~/stores/stores'
import type { StoreSubmissionInput } from './submissions'

export type Submission = {
  id: number
  userId: number
  source: 'external_form' | 'in_app'
  name: string | null
  address: string | null
  city: string | null
  state: string | null
  storeType: string | null
  description: string
  status: SubmissionStatus
  rejectReason: string | null
  storeId: number | null
  createdAt: string
  reviewedAt: string | null
}

function toSubmission(row: StoreSubmissionRow): Submission {
  return {
    id: row.id,
    userId: row.user_id,
    source: row.source,
    name: row.name,
    address: row.address,
    city: row.city,
    state: row.state,
    storeType: row.store_type,
    description: row.description,
    status: row.status,
    rejectReason: row.reject_reason,
    storeId: row.store_id,
    createdAt: row.created_at,
    reviewedAt: row.reviewed_at,
  }
}

export type CreateSubmissionResult = { ok: true; submission: Submission } | { ok: false; code: 'daily_limit' }

/**
 * A pending store submission, counted in the daily action limit (decision 003): the slot and the
 * submission are written in one transaction, so the 4th action of a day is refused under any
 * concurrency and a refused submission leaves nothing behind.
 */
export async function createSubmission(
  db: DB,
  input: { userId: number; source: 'external_form' } | { userId: number; source: 'in_app'; store: StoreSubmissionInput },
  now = new Date(),
): Promise<CreateSubmissionResult> {
  return db.transaction().execute(async (trx) => {
    const slot = await takeActionSlot(trx, { userId: input.userId, kind: 'store_submission', now })
    if (!slot) return { ok: false, code: 'daily_limit' } as const
    const store = input.source === 'in_app' ? input.store : null
    const row = await trx
      .insertInto('store_submissions')
      .values({
        user_id: input.userId,
        source: input.source,
        name: store?.name ?? null,
        address: store?.address ?? null,
        city: store?.city ?? null,
        state: store?.state ?? null,
        store_type: store?.storeType ?? null,
        description: store
          ? `${store.name}, ${store.address}, ${store.city}, ${store.state} (${storeTypeLabel(store.storeType)})`
          : 'Store submitted through the external form',
        status: 'pending',
        created_at: now.toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await linkActionSlot(trx, input.userId, slot, row.id)
    return { ok: true, submission: toSubmission(row) } as const
  })
}

export type PendingSubmission = Submission & { walletAddress: string }

export async function listPendingSubmissions(db: DB): Promise<PendingSubmission[]> {
  const rows = await db
    .selectFrom('store_submissions')
    .innerJoin('users', 'users.id', 'store_submissions.user_id')
    .selectAll('store_submissions')
    .select('users.wallet_address')
    .where('store_submissions.status', '=', 'pending')
    .orderBy('store_submissions.created_at')
    .orderBy('store_submissions.id')
    .execute()
  return rows.map((r) => ({ ...toSubmission(r), walletAddress: r.wallet_address }))
}

export async function listUserSubmissions(db: DB, userId: number, limit = 10): Promise<Submission[]> {
  const rows = await db
    .selectFrom('store_submissions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toSubmission)
}

export type DecisionResult =
  | { ok: true; submission: Submission; rewardMilli: number; firstStoreBonusMilli: number; storeId: number | null }
  | { ok: false; status: 404 | 409; error: string }

async function alreadyDecided(trx: Kysely<Database>, id: number): Promise<DecisionResult> {
  const row = await trx.selectFrom('store_submissions').select('status').where('id', '=', id).executeTakeFirst()
  if (!row) return refused(new Refusal('not_found', 404, 'Submission not found'))
  return refused(new Refusal('already_decided', 409, `Submission already ${row.status}`))
}

/**
 * Approve a pending submission and pay for it, exactly once: the status change is conditional
 * (WHERE status = 'pending') inside the transaction, and every ledger entry has a key naming the
 * submission, so double clicks, replays and two admins at once pay one reward.
 */
export async function approveSubmission(db: DB, input: { submissionId: number; adminUserId: number; now?: Date }): Promise<DecisionResult> {
  const now = input.now ?? new Date()
  const at = now.toISOString()
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('store_submissions')
      .set({ status: 'approved', reviewed_by_user_id: input.adminUserId, reviewed_at: at })
      .where('id', '=', input.submissionId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return alreadyDecided(trx, input.submissionId)
    const row = await trx.selectFrom('store_submissions').selectAll().where('id', '=', input.submissionId).executeTakeFirstOrThrow()

    let storeId: number | null = null
    if (row.source === 'in_app' && row.name && row.address && row.city && row.state && row.store_type) {
      storeId = await publishStore(trx, {
        name: row.name,
        address: row.address,
        city: row.city,
        state: row.state,
        storeType: row.store_type,
        addedByUserId: row.user_id,
        now,
      })
      await trx.updateTable('store_submissions').set({ store_id: storeId }).where('id', '=', row.id).execute()
    }

    const base = { user_id: row.user_id, store_submission_id: row.id, receipt_id: null, referral_id: null, tx_hash: null, created_at: at }
    const label = row.name ?? `submission #${row.id}`
    const credited = await creditReward(
      trx as DB,
      {
        ...base,
        type: 'store_addition',
        amount_milli: STORE_ADDITION_REWARD_MILLI,
        description: `Store addition approved: ${label}`,
        idempotency_key: `store_submission:${row.id}`,
      },
      `store submission #${row.id}`,
    )
    const bonusDescription = achievementRewardDescription('first_store')
    const bonus = await creditReward(
      trx as DB,
      {
        ...base,
        type: 'achievement_reward',
        amount_milli: FIRST_STORE_BONUS_MILLI,
        description: bonusDescription,
        idempotency_key: achievementRewardKey(row.user_id, 'first_store'),
      },
      bonusDescription,
    )
    const rewardMilli = credited ? STORE_ADDITION_REWARD_MILLI : 0
    const firstStoreBonusMilli = bonus ? FIRST_STORE_BONUS_MILLI : 0
    await recordAudit(trx, {
      adminUserId: input.adminUserId,
      action: 'store_submission.approve',
      targetType: 'store_submission',
      targetId: row.id,
      details: { userId: row.user_id, rewardMilli, firstStoreBonusMilli, storeId },
      now,
    })
    return { ok: true, submission: toSubmission({ ...row, store_id: storeId }), rewardMilli, firstStoreBonusMilli, storeId }
  })
}

/** Reject with a reason; the daily slot stays used (docs/decisions/003). */
export async function rejectSubmission(
  db: DB,
  input: { submissionId: number; adminUserId: number; reason: string; now?: Date },
): Promise<DecisionResult> {
  const now = input.now ?? new Date()
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('store_submissions')
      .set({ status: 'rejected', reject_reason: input.reason, reviewed_by_user_id: input.adminUserId, reviewed_at: now.toISOString() })
      .where('id', '=', input.submissionId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return alreadyDecided(trx, input.submissionId)
    const row = await trx.selectFrom('store_submissions').selectAll().where('id', '=', input.submissionId).executeTakeFirstOrThrow()
    await recordAudit(trx, {
      adminUserId: input.adminUserId,
      action: 'store_submission.reject',
      targetType: 'store_submission',
      targetId: row.id,
      details: { userId: row.user_id, reason: input.reason },
      now,
    })
    return { ok: true, submission: toSubmission(row), rewardMilli: 0, firstStoreBonusMilli: 0, storeId: null }
  })
}

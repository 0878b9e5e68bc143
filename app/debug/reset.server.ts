import type { DB } from '#db/db.server'
import { recordAudit } from '~/admin/audit.server'
import { Refusal } from '~/utils/refusal'
import { plural } from '~/utils/text'
import { RESET_NOT_IN_TEST_MODE } from './reset'

export type ResetUserResult =
  | { ok: true; message: string; receiptsDeleted: number; receiptsKept: number; analysesDeleted: number; sessionsDeleted: number }
  | Refusal

/**
 * Test mode only: removes a user's receipts, unsubmitted analyses and sessions so a tester can start
 * over. Ledger entries are never deleted, so a receipt a ledger entry points at stays too. Audited in
 * the same transaction.
 */
export async function resetTestUser(
  db: DB,
  input: { adminUserId: number; userId: number; testMode: boolean; now?: Date },
): Promise<ResetUserResult> {
  if (!input.testMode) return new Refusal('not_test_mode', 403, RESET_NOT_IN_TEST_MODE)
  const { userId } = input
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
  if (!user) return new Refusal('not_found', 404, `No user with ID ${userId}`)
  return db.transaction().execute(async (trx) => {
    const receipts = await trx
      .deleteFrom('receipts')
      .where('user_id', '=', userId)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('transactions').select('transactions.id').whereRef('transactions.receipt_id', '=', 'receipts.id'))))
      .executeTakeFirst()
    const kept = await trx
      .selectFrom('receipts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    const analyses = await trx.deleteFrom('receipt_analyses').where('user_id', '=', userId).executeTakeFirst()
    const sessions = await trx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst()
    const result = {
      receiptsDeleted: Number(receipts.numDeletedRows),
      receiptsKept: Number(kept.count),
      analysesDeleted: Number(analyses.numDeletedRows),
      sessionsDeleted: Number(sessions.numDeletedRows),
    }
    await recordAudit(trx, { adminUserId: input.adminUserId, action: 'debug_reset_user', targetType: 'user', targetId: userId, details: result, now: input.now })
    const message =
      `User ${userId} reset: ${plural(result.receiptsDeleted, 'receipt')}, ${plural(result.analysesDeleted, 'analysis', 'analyses')} and ${plural(result.sessionsDeleted, 'session')} removed` +
      (result.receiptsKept ? `; ${plural(result.receiptsKept, 'rewarded receipt')} kept with their ledger entries.` : '. Ledger entries are kept.')
    return { ok: true as const, message, ...result }
  })
}

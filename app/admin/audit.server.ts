import type { Kysely } from 'kysely'
import type { Database } from '#db/schema'

/** Every admin decision is written down, in the same transaction as the decision itself. */
export async function recordAudit(
  trx: Kysely<Database>,
  entry: { adminUserId: number; action: string; targetType: string; targetId: number | null; details?: unknown; now?: Date },
) {
  await trx
    .insertInto('audit_log')
    .values({
      admin_user_id: entry.adminUserId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details_json: entry.details === undefined ? null : JSON.stringify(entry.details),
      created_at: (entry.now ?? new Date()).toISOString(),
    })
    .execute()
}

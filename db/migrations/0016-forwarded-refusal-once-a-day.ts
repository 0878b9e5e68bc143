import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 36: a flood of refused forwards wrote one notice each on the rider's Home. A refusal now
// carries its kind and UTC day ("not_a_receipt:2026-11-26"), unique per user, so Home shows at
// most one notice per kind of refusal per day. Credited and reviewed forwards keep a null key
// (unique indexes let nulls repeat on SQLite and PostgreSQL alike).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('forwarded_outcomes').addColumn('refusal_key', 'text').execute()
  await db.schema.createIndex('forwarded_outcomes_user_refusal_key').unique().on('forwarded_outcomes').columns(['user_id', 'refusal_key']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('forwarded_outcomes_user_refusal_key').execute()
  await db.schema.alterTable('forwarded_outcomes').dropColumn('refusal_key').execute()
}

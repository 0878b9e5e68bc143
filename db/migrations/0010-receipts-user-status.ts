import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 12: the home page counts one user's approved receipts on every view. With an index on the
// status alone, SQLite chose it and would walk every approved receipt of every user.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('receipts_user_status_idx').on('receipts').columns(['user_id', 'status']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('receipts_user_status_idx').execute()
}

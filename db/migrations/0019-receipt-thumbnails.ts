import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Frozen in time: never import app code here.
// Issue 38: a receipt's thumbnail for My Receipts is made once from its photo and kept, so asking
// for it again never decodes the photo again (a 6300×6300 PNG took a core for a second each time).

export async function up(db: Kysely<any>): Promise<void> {
  // Binary data: SQLite's blob is PostgreSQL's bytea.
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`
  await db.schema.alterTable('receipts').addColumn('thumbnail', bytes).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipts').dropColumn('thumbnail').execute()
}

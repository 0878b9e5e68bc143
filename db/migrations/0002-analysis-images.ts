import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Frozen in time: never import app code here.
// The analysed image is kept with its analysis until it is submitted, so the form step works
// without JavaScript (the browser does not have to upload the photo twice).

export async function up(db: Kysely<any>): Promise<void> {
  // Binary data: SQLite's blob is PostgreSQL's bytea.
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`
  await db.schema.alterTable('receipt_analyses').addColumn('image', bytes).execute()
  await db.schema.alterTable('receipt_analyses').addColumn('image_mime', 'text').execute()
  await db.schema.alterTable('receipt_analyses').addColumn('image_phash', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipt_analyses').dropColumn('image_phash').execute()
  await db.schema.alterTable('receipt_analyses').dropColumn('image_mime').execute()
  await db.schema.alterTable('receipt_analyses').dropColumn('image').execute()
}

import { type Kysely, sql } from 'kysely'

// Frozen in time: never import app code here.
// The analysed image is kept with its analysis until it is submitted, so the form step works
// without JavaScript (the browser does not have to upload the photo twice).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipt_analyses').addColumn('image', sql`blob`).execute()
  await db.schema.alterTable('receipt_analyses').addColumn('image_mime', 'text').execute()
  await db.schema.alterTable('receipt_analyses').addColumn('image_phash', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipt_analyses').dropColumn('image_phash').execute()
  await db.schema.alterTable('receipt_analyses').dropColumn('image_mime').execute()
  await db.schema.alterTable('receipt_analyses').dropColumn('image').execute()
}

import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 37: a service mails one trip's receipt again when a tip is added (a new total, a number the
// first lacked). Both print the trip's date and minute: "Uber:2026-07-12 15:06". One rider's trip
// pays once; the minute is looked up per user, never across riders.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipts').addColumn('trip_moment', 'text').execute()
  await db.schema.createIndex('receipts_user_trip_moment_idx').on('receipts').columns(['user_id', 'trip_moment']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('receipts_user_trip_moment_idx').execute()
  await db.schema.alterTable('receipts').dropColumn('trip_moment').execute()
}

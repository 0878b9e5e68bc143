import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 24: the Notifications setting shows review and payout outcomes as notices on the next
// visit; this is when the user last dismissed them (null: never, count from the account's start).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('notices_seen_at', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('notices_seen_at').execute()
}

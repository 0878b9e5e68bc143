import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 40: sign in with a code (RFC 8628's device flow). A browser without a wallet asks for a
// code; a wallet signed in elsewhere confirms it on /device; the asking browser then redeems it once
// with the device secret it holds in a cookie. Only the secret's sha256 is stored. Rows live a day
// past their ten minutes, so a late "Continue" can still be told the code expired; housekeeping
// deletes them after that.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_codes')
    // hex sha256 of the 256-bit device secret the asking browser holds.
    .addColumn('secret_hash', 'text', (c) => c.primaryKey())
    // The short code shown and typed, stored without its dash (unique while the row lives).
    .addColumn('user_code', 'text', (c) => c.notNull().unique())
    // pending | approved | denied | used
    .addColumn('status', 'text', (c) => c.notNull())
    // The wallet that confirmed (or denied) it.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    // What the confirming wallet is shown about the asking browser.
    .addColumn('requester_user_agent', 'text')
    .addColumn('requester_address', 'text')
    // Where the asking browser goes once signed in (a same-site path).
    .addColumn('redirect_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.createIndex('device_codes_expires_idx').on('device_codes').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_codes').execute()
}

import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 29: each delivery of the mail provider's inbound webhook is answered once. Its token is
// claimed before the receipt is read; a retry of the same delivery gets the stored answer again.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('inbound_deliveries')
    // The provider's delivery id (X-Inbound-Token).
    .addColumn('token', 'text', (c) => c.primaryKey())
    // sha256 of the recipient and the body: the same delivery again, or another message.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // The answer, once there is one (null while the first attempt runs).
    .addColumn('status', 'integer')
    .addColumn('response_json', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('inbound_deliveries_created_at').on('inbound_deliveries').column('created_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inbound_deliveries').execute()
}

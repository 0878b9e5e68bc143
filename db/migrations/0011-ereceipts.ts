import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 21: e-receipts verified by their sender's DKIM signature. A verified e-mail pays once
// across all wallets (one row per signature and per trip id, unique), the mailbox a receipt was
// sent to is bound to the first wallet that claims it, and each user has a forwarding address.

export async function up(db: Kysely<any>): Promise<void> {
  // The verified signing domain ("uber.com") of an e-receipt; null for a photo.
  await db.schema.alterTable('receipts').addColumn('verified_sender', 'text').execute()
  await db.schema
    .createTable('ereceipt_claims')
    // "sig:<sha256 of the signature>" or "trip:<Service>:<trip id>".
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('receipt_id', 'integer', (c) => c.notNull().references('receipts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('ereceipt_mailboxes')
    // sha256 of the receipt's To address; the address itself is never stored.
    .addColumn('address_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('inbound_addresses')
    // The local part of the user's forwarding address (random, unguessable).
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inbound_addresses').execute()
  await db.schema.dropTable('ereceipt_mailboxes').execute()
  await db.schema.dropTable('ereceipt_claims').execute()
  await db.schema.alterTable('receipts').dropColumn('verified_sender').execute()
}

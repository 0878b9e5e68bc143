import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 31: standing decides instant photo rewards. A receipt staff rejected as fraud takes a
// wallet's standing away; where a receipt came from (the browser install and the client address,
// both as keyed hashes) lets staff see wallets that travel together.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipts').addColumn('rejected_as_fraud', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('receipts').addColumn('install_hash', 'text').execute()
  await db.schema.alterTable('receipts').addColumn('address_hash', 'text').execute()
  // Standing is three EXISTS over a wallet's receipts (app/receipts/standing.server.ts). With the
  // columns they test in the index, a wallet with hundreds of receipts is answered from the index
  // alone (npm run bench:standing: p99 7.6 ms on (user_id, status) alone, table rows read per receipt).
  await db.schema
    .createIndex('receipts_standing_idx')
    .on('receipts')
    .columns(['user_id', 'status', 'verified_sender', 'reviewed_by_user_id', 'rejected_as_fraud'])
    .execute()
  // The review queue's links: the same install, the same address (within 24 h).
  await db.schema.createIndex('receipts_install_hash_idx').on('receipts').column('install_hash').execute()
  await db.schema.createIndex('receipts_address_hash_idx').on('receipts').columns(['address_hash', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('receipts_address_hash_idx').execute()
  await db.schema.dropIndex('receipts_standing_idx').execute()
  await db.schema.dropIndex('receipts_install_hash_idx').execute()
  await db.schema.alterTable('receipts').dropColumn('address_hash').execute()
  await db.schema.alterTable('receipts').dropColumn('install_hash').execute()
  await db.schema.alterTable('receipts').dropColumn('rejected_as_fraud').execute()
}

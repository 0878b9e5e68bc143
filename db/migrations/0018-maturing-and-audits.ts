import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 38: photo rewards mature (decision 109). A ledger entry may be claimable only from a time
// on (claimable_at; null: at once), it names the photo receipt whose hold it waits on
// (hold_receipt_id: that receipt's reward, its first-receipt bonus, the referrer's reward), and a
// reversal names the entry it reverses (reverses_id, once: its idempotency key is reversal:<id>).
// A share of automatic photo approvals is sampled for a staff audit (audit_status on the receipt).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('claimable_at', 'text').execute()
  await db.schema.alterTable('transactions').addColumn('hold_receipt_id', 'integer', (c) => c.references('receipts.id')).execute()
  await db.schema.alterTable('transactions').addColumn('reverses_id', 'integer', (c) => c.references('transactions.id')).execute()
  // What is still maturing is read for every page (the header's balance): only the entries past
  // now are visited, however long the ledger.
  await db.schema.createIndex('transactions_maturing_idx').on('transactions').columns(['user_id', 'claimable_at']).execute()
  await db.schema.createIndex('transactions_hold_receipt_idx').on('transactions').column('hold_receipt_id').execute()

  // pending | cleared | rejected; null: not sampled.
  await db.schema.alterTable('receipts').addColumn('audit_status', 'text').execute()
  // Why staff see it: a sample, or a verified e-receipt of the same trip from another wallet.
  await db.schema.alterTable('receipts').addColumn('audit_reason', 'text').execute()
  await db.schema.alterTable('receipts').addColumn('audit_decided_at', 'text').execute()
  await db.schema.createIndex('receipts_audit_idx').on('receipts').columns(['audit_status', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('receipts_audit_idx').execute()
  await db.schema.alterTable('receipts').dropColumn('audit_decided_at').execute()
  await db.schema.alterTable('receipts').dropColumn('audit_reason').execute()
  await db.schema.alterTable('receipts').dropColumn('audit_status').execute()
  await db.schema.dropIndex('transactions_hold_receipt_idx').execute()
  await db.schema.dropIndex('transactions_maturing_idx').execute()
  await db.schema.alterTable('transactions').dropColumn('reverses_id').execute()
  await db.schema.alterTable('transactions').dropColumn('hold_receipt_id').execute()
  await db.schema.alterTable('transactions').dropColumn('claimable_at').execute()
}

import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 10: a receipt's content identifies it across wallets (vendor + total + date, and the
// trip / order number it prints), and a receipt sent to review records why (the fraud signals).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('receipts').addColumn('reference_number', 'text').execute()
  await db.schema.alterTable('receipts').addColumn('review_signals_json', 'text').execute()
  await db.schema.createIndex('receipts_content_idx').on('receipts').columns(['store_name', 'amount_cents', 'purchase_date']).execute()
  await db.schema.createIndex('receipts_reference_idx').on('receipts').columns(['store_name', 'reference_number']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('receipts_reference_idx').execute()
  await db.schema.dropIndex('receipts_content_idx').execute()
  await db.schema.alterTable('receipts').dropColumn('review_signals_json').execute()
  await db.schema.alterTable('receipts').dropColumn('reference_number').execute()
}

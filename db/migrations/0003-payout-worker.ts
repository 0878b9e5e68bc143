import { type Kysely, sql } from 'kysely'

// Frozen in time: never import app code here.
// The payout worker's state lives on the payouts row (issue 9): the signed raw transaction and its
// id are stored before anything is sent, so a crash or a lost answer re-sends the same transaction
// instead of signing a second one; a lease lets several workers share the queue.

const COLUMNS: Array<[string, string]> = [
  ['raw_tx', 'text'],
  ['block_ref', 'text'],
  ['expiration', 'integer'],
  ['gas', 'integer'],
  ['signings', 'integer not null default 0'],
  ['previous_tx_ids', 'text'],
  ['attempts', 'integer not null default 0'],
  ['next_attempt_at', 'text'],
  ['lease_owner', 'text'],
  ['lease_until', 'text'],
  ['signed_at', 'text'],
  ['sent_at', 'text'],
  ['confirmed_at', 'text'],
  ['block_number', 'integer'],
  ['receipt_count', 'integer not null default 0'],
  ['carbon_grams', 'integer not null default 0'],
  ['water_liters', 'integer not null default 0'],
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type] of COLUMNS) {
    await sql`alter table payouts add column ${sql.raw(name)} ${sql.raw(type)}`.execute(db)
  }
  await db.schema.createIndex('payouts_status_idx').on('payouts').columns(['status', 'next_attempt_at']).execute()
  // The last reading of the node and the contracts, shared by every instance (no process memory).
  await db.schema
    .createTable('chain_checks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('details_json', 'text')
    .addColumn('error', 'text')
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chain_checks').execute()
  await db.schema.dropIndex('payouts_status_idx').execute()
  for (const [name] of [...COLUMNS].reverse()) {
    await sql`alter table payouts drop column ${sql.raw(name)}`.execute(db)
  }
}

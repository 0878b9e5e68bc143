import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Frozen in time: never import app code here.
// Issue 12: milli-B3TR amounts as 64-bit integers on PostgreSQL, whose `integer` stops at 2^31
// (2.1 million B3TR, within reach of one claim of a large balance). SQLite's integer is already 64-bit.

const AMOUNTS: Array<[string, string]> = [
  ['transactions', 'amount_milli'],
  ['payouts', 'amount_milli'],
  ['receipts', 'reward_milli'],
]

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  for (const [table, column] of AMOUNTS) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type bigint`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  for (const [table, column] of AMOUNTS) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type integer`.execute(db)
  }
}

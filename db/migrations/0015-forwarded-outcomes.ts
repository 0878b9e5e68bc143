import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: never import app code here.
// Issue 32: a forwarded e-receipt was credited (or refused) silently. Each forward that reached a
// user's address leaves its outcome here, shown once on Home ("Uber receipt received by e-mail").

export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable('forwarded_outcomes')
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  await (isPostgres ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('receipt_id', 'integer', (c) => c.references('receipts.id').onDelete('set null'))
    // approved | pending_review | refused
    .addColumn('outcome', 'text', (c) => c.notNull())
    // Why it was refused, in the words the user is shown.
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('forwarded_outcomes_user_created_idx').on('forwarded_outcomes').columns(['user_id', 'created_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('forwarded_outcomes').execute()
}

import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: never import app code here.
// Issue 14: debug logs a signed-in user sends to support from the debug console. The lines are one
// JSON array of strings (bounded by the endpoint); created_at drives the 30-day purge.

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  const table = db.schema.createTable('debug_logs')
  const withId = isPostgres
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await withId
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_agent', 'text')
    .addColumn('test_type', 'text')
    .addColumn('client_timestamp', 'text')
    .addColumn('lines_json', 'text', (c) => c.notNull())
    .addColumn('line_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('debug_logs_created_idx').on('debug_logs').column('created_at').execute()
  await db.schema.createIndex('debug_logs_user_idx').on('debug_logs').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('debug_logs_user_idx').execute()
  await db.schema.dropIndex('debug_logs_created_idx').execute()
  await db.schema.dropTable('debug_logs').execute()
}

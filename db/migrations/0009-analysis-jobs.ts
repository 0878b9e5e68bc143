import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Frozen in time: never import app code here.
// Issue 12: receipt analysis on separate worker machines. A web instance stores the photo as a job
// and waits for its result; `npm run worker` processes take jobs with a conditional update and a
// lease, so a job whose worker died is taken again, and the result is stored once.

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  const table = db.schema.createTable('analysis_jobs')
  const withId = isPostgres
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  await withId
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('image', isPostgres ? sql`bytea` : sql`blob`, (c) => c.notNull())
    // queued → running → done | failed; cancelled when the web request gave up first.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('analysis_json', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute()
  await db.schema.createIndex('analysis_jobs_status_idx').on('analysis_jobs').columns(['status', 'id']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('analysis_jobs_status_idx').execute()
  await db.schema.dropTable('analysis_jobs').execute()
}

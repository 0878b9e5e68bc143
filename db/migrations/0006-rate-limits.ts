import type { Kysely } from 'kysely'

// Frozen in time: never import app code here.
// Issue 10: fixed-window request counters shared by every instance. One row per key and window;
// `INSERT … ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 RETURNING count` counts
// atomically on SQLite and PostgreSQL. expires_at (the window's end) lets housekeeping drop old rows.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['key', 'window_start'])
    .execute()
  await db.schema.createIndex('rate_limits_expires_idx').on('rate_limits').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('rate_limits_expires_idx').execute()
  await db.schema.dropTable('rate_limits').execute()
}

import { type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely'

// Frozen in time: never import app code here.

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter
/** Binary data: SQLite's blob is PostgreSQL's bytea. */
const bytes = (db: Kysely<any>) => (isPostgres(db) ? sql`bytea` : sql`blob`)
/** SQLite's real is 8 bytes; PostgreSQL's is 4, so coordinates take double precision there. */
const float8 = (db: Kysely<any>) => (isPostgres(db) ? sql`double precision` : sql`real`)

function withId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('wallet_address', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text')
    .addColumn('referral_code', 'text', (c) => c.notNull().unique())
    .addColumn('referred_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('current_streak', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('best_streak', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_streak_day', 'text')
    .addColumn('notifications_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('biometric_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('auth_challenges'))
    .addColumn('nonce', 'text', (c) => c.notNull().unique())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('auth_challenges_expires_idx').on('auth_challenges').column('expires_at').execute()

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute()

  await withId(db, db.schema.createTable('receipts'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    // The same image can be submitted once, by anyone (decision 005).
    .addColumn('image_hash', 'text', (c) => c.notNull().unique())
    .addColumn('image_phash', 'text')
    .addColumn('image', bytes(db))
    .addColumn('image_mime', 'text')
    .addColumn('store_name', 'text')
    .addColumn('category', 'text')
    .addColumn('amount_cents', 'integer')
    .addColumn('purchase_date', 'text')
    .addColumn('user_store_id', 'integer')
    .addColumn('user_category', 'text')
    .addColumn('user_amount_cents', 'integer')
    .addColumn('user_purchase_date', 'text')
    .addColumn('analysis_json', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('review_reasons_json', 'text')
    .addColumn('reject_reason', 'text')
    .addColumn('reward_milli', 'integer')
    .addColumn('reward_details_json', 'text')
    .addColumn('reviewed_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('receipts_user_idx').on('receipts').columns(['user_id', 'created_at']).execute()
  await db.schema.createIndex('receipts_status_idx').on('receipts').column('status').execute()

  await withId(db, db.schema.createTable('receipt_analyses'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('image_hash', 'text', (c) => c.notNull())
    .addColumn('analysis_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('receipt_analyses_user_image_uq', ['user_id', 'image_hash'])
    .execute()

  await withId(db, db.schema.createTable('transactions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount_milli', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('receipt_id', 'integer', (c) => c.references('receipts.id'))
    .addColumn('store_submission_id', 'integer')
    .addColumn('referral_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('transactions_user_idx').on('transactions').columns(['user_id', 'created_at']).execute()
  await db.schema.createIndex('transactions_type_idx').on('transactions').columns(['type', 'status']).execute()

  // One row per daily action; the unique key caps the day at the number of slots under any concurrency.
  await db.schema
    .createTable('action_slots')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('action_slots_pk', ['user_id', 'day', 'slot'])
    .execute()

  await withId(db, db.schema.createTable('transportation_services'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('category', 'text', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('stores'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('latitude', float8(db))
    .addColumn('longitude', float8(db))
    .addColumn('store_type', 'text', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('added_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('stores_name_address_uq', ['name', 'address', 'city'])
    .execute()

  await withId(db, db.schema.createTable('store_submissions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('store_type', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reject_reason', 'text')
    .addColumn('store_id', 'integer', (c) => c.references('stores.id'))
    .addColumn('reviewed_by_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('reviewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('store_submissions_status_idx').on('store_submissions').column('status').execute()

  await withId(db, db.schema.createTable('referrals'))
    .addColumn('referrer_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('referred_user_id', 'integer', (c) => c.notNull().unique().references('users.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('rewarded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('payouts'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('transaction_id', 'integer', (c) => c.notNull().unique().references('transactions.id'))
    .addColumn('amount_milli', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('feedback'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('admin_user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer')
    .addColumn('details_json', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'audit_log',
    'feedback',
    'payouts',
    'referrals',
    'store_submissions',
    'stores',
    'transportation_services',
    'action_slots',
    'transactions',
    'receipt_analyses',
    'receipts',
    'sessions',
    'auth_challenges',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}

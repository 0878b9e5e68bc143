import { type Kysely, PostgresAdapter } from 'kysely'

// Frozen in time: never import app code here.
// Issue 39: before a mail provider forwards automatically it mails the forwarding address a code and
// a link (Gmail: forwarding-noreply@google.com, signed by google.com). One arriving at a rider's
// personal address is verified and kept here for its owner alone, shown on Home and /e-receipts
// until it expires, is dismissed, or housekeeping deletes it. The link is a bearer credential for
// that one setting: it is never logged and never followed by the server.

export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema.createTable('forwarding_confirmations')
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter
  await (isPostgres ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The provider whose forwarding system sent it ("gmail").
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('link', 'text')
    // The mailbox that asks to forward, partly hidden ("s…m@gmail.com").
    .addColumn('account_hint', 'text')
    // sha256 of the verified DKIM signature: the same mail delivered twice is kept once.
    .addColumn('signature_id', 'text', (c) => c.notNull().unique())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('dismissed_at', 'text')
    .execute()
  await db.schema.createIndex('forwarding_confirmations_user_idx').on('forwarding_confirmations').columns(['user_id', 'expires_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('forwarding_confirmations').execute()
}

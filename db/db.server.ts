import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import {
  createQueryId,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type Compilable,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely'
import pg from 'pg'
import { migrationProvider } from './migrations/index'
import type { Database } from './schema'

export type DB = Kysely<Database>

/** `file:data/recircle.db`, `file:/abs/path.db` or a plain path. */
export function sqlitePathFromUrl(url: string): string {
  const raw = url.startsWith('file:') ? url.slice('file:'.length) : url
  return raw.startsWith('//') ? raw.slice(2) : raw
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url)
}

/**
 * PostgreSQL answers `bigint` (sum, count, int8 columns) as a string. Milli-B3TR sums must stay
 * exact: a value past 2^53 is refused rather than rounded. Every amount in this app is far below.
 */
export function parseBigint(value: string): number {
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} is outside the exact integer range`)
  return n
}
pg.types.setTypeParser(pg.types.builtins.INT8, parseBigint)

/** An EXISTS (or other boolean) answer: SQLite gives 0/1, PostgreSQL a boolean (`'t'` if read as text). */
export function sqlTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't'
}

/**
 * `DATABASE_URL`: `postgres://…` selects PostgreSQL (several instances share it); anything else is
 * a SQLite file, the embedded default. Where the engines differ, see `isPostgres` and `lockKey`.
 */
export function createDb(databaseUrl: string, opts: { poolSize?: number } = {}): DB {
  if (isPostgresUrl(databaseUrl)) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: opts.poolSize ?? 10 })
    // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
    pool.on('error', (error) => console.error('PostgreSQL pool:', error.message))
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  }
  const file = sqlitePathFromUrl(databaseUrl)
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  return new Kysely<Database>({ dialect: new QueuedSqliteDialect({ database: withStatementCache(sqlite) }) })
}

/**
 * Kysely's SQLite driver lends its one connection through a mutex that wakes every waiter each time
 * it is released; all but one then wait again. Under 50 concurrent page views that cost more than
 * the queries themselves (issue 12, decision 072). Here waiters queue in order and the connection is
 * handed to the next one alone; Kysely's own lock then never has more than one taker.
 */
class QueuedSqliteDriver extends SqliteDriver {
  #busy = false
  readonly #waiting: Array<() => void> = []

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#busy) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    else this.#busy = true
    return super.acquireConnection()
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection()
    const next = this.#waiting.shift()
    // Handed over: the connection stays taken, by the next in line.
    if (next) next()
    else this.#busy = false
  }
}

class QueuedSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new QueuedSqliteDriver(this.#config)
  }
}

const STATEMENT_CACHE_SIZE = 500

/**
 * Kysely prepares every query's SQL afresh; compiling it was a tenth of a signed-in page (issue 12).
 * The queries are a fixed set of texts, so their prepared statements are kept (the oldest dropped
 * past 500). Sharing one is safe: Kysely runs one query at a time on its single SQLite connection.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => void sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text)
      if (!statement) {
        statement = sqlite.prepare(text)
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!)
        statements.set(text, statement)
      }
      return statement
    },
  }
}

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/**
 * Serialise transactions that decide on the same `key` (for example one trip's content): on
 * PostgreSQL a transaction-scoped advisory lock, held until commit or rollback. SQLite needs none:
 * one connection per process runs one transaction at a time, and it is the only process.
 */
export async function lockKey(trx: Kysely<any>, key: string): Promise<void> {
  if (!isPostgres(trx)) return
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx)
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** Stands for argument `index` of a prepared query while it is built (see `preparedQuery`). */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * A read query built and compiled once per database (its transactions share it), then run with
 * new arguments. For the hottest reads (the signed-in user, the balance, the home summary) building
 * and compiling a query with Kysely cost more than SQLite took to run it (issue 12, decision 072).
 *
 * `build` gets placeholders in place of the arguments. Each must be used as one plain value (a
 * comparison, an `sql` template value), never inspected or spread into an `in` list: a placeholder
 * that did not reach the query's parameters is refused when the query is first compiled.
 */
export function preparedQuery<Args extends unknown[], Row>(build: (db: DB, ...args: Args) => Compilable<Row>) {
  // Keyed by the database's adapter, which its transactions share: the same SQL serves both.
  const compiled = new WeakMap<object, CompiledQuery<Row>>()
  return async (db: DB, ...args: Args): Promise<Row[]> => {
    // A view with plugins (withSchema, withPlugin) would compile other SQL than the one kept.
    if (db.getExecutor().plugins.length > 0) {
      throw new Error('A prepared query runs on the database or a transaction, not on a view with plugins')
    }
    const adapter = db.getExecutor().adapter
    let query = compiled.get(adapter)
    if (!query) {
      const placeholders = args.map((_, i) => new Placeholder(i)) as unknown as Args
      query = build(db, ...placeholders).compile()
      const used = new Set(query.parameters.filter((p) => p instanceof Placeholder).map((p) => p.index))
      if (used.size !== args.length) throw new Error(`A prepared query used ${used.size} of its ${args.length} arguments as values`)
      compiled.set(adapter, query)
    }
    const parameters = query.parameters.map((p) => (p instanceof Placeholder ? args[p.index] : p))
    const result = await db.executeQuery<Row>({ ...query, parameters, queryId: createQueryId() })
    return result.rows
  }
}

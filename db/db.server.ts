import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, Migrator, SqliteDialect } from 'kysely'
import { migrationProvider } from './migrations/index'
import type { Database } from './schema'

export type DB = Kysely<Database>

/** `file:data/recircle.db`, `file:/abs/path.db` or a plain path. */
export function sqlitePathFromUrl(url: string): string {
  const raw = url.startsWith('file:') ? url.slice('file:'.length) : url
  return raw.startsWith('//') ? raw.slice(2) : raw
}

export function createDb(databaseUrl: string): DB {
  const file = sqlitePathFromUrl(databaseUrl)
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const sqlite = new SQLite(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error(String(error))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

import fs from 'node:fs'
import path from 'node:path'
import { createDb, migrateToLatest } from '../../db/db.server'
import { seed } from '../../db/seed'
import { createDatabase, startTestPostgres } from './postgres'

export const BASE_DB = path.resolve('tests/.cache/base.db')
/** The migrated and seeded PostgreSQL database each test file copies (TEST_DB=postgres). */
export const PG_TEMPLATE = 'recircle_template'

/**
 * One migrated and seeded database; each test file copies it (setup-test-env.ts). SQLite by
 * default; with TEST_DB=postgres (npm run test:pg) a throwaway PostgreSQL server and a template
 * database, whose server address the test workers inherit as RECIRCLE_PG_SERVER_URL.
 */
export async function setup() {
  if (process.env.TEST_DB === 'postgres') return setupPostgres()
  fs.rmSync(path.dirname(BASE_DB), { recursive: true, force: true })
  fs.mkdirSync(path.dirname(BASE_DB), { recursive: true })
  const db = createDb(`file:${BASE_DB}`)
  await migrateToLatest(db)
  await seed(db)
  // Fold the WAL into the main file so a plain copy is complete.
  await db.destroy()
}

async function setupPostgres() {
  const server = await startTestPostgres()
  const db = createDb(await createDatabase(server.url, PG_TEMPLATE), { poolSize: 1 })
  await migrateToLatest(db)
  await seed(db)
  await db.destroy()
  process.env.RECIRCLE_PG_SERVER_URL = server.url
  return () => server.stop()
}

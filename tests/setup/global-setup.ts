import fs from 'node:fs'
import path from 'node:path'
import { createDb, migrateToLatest } from '../../db/db.server'
import { seed } from '../../db/seed'

export const BASE_DB = path.resolve('tests/.cache/base.db')

/** One migrated and seeded database; each test worker copies it (setup-test-env.ts). */
export async function setup() {
  fs.rmSync(path.dirname(BASE_DB), { recursive: true, force: true })
  fs.mkdirSync(path.dirname(BASE_DB), { recursive: true })
  const db = createDb(`file:${BASE_DB}`)
  await migrateToLatest(db)
  await seed(db)
  // Fold the WAL into the main file so a plain copy is complete.
  await db.destroy()
}

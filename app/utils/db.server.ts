import { createDb, type DB } from '#db/db.server'
import { getEnv } from './env.server'

declare global {
  // eslint-disable-next-line no-var
  var __recircleDb: DB | undefined
}

/** One Kysely instance per process (kept across dev rebuilds); all state lives in the database. */
export function getDb(): DB {
  if (!globalThis.__recircleDb) globalThis.__recircleDb = createDb(getEnv().DATABASE_URL)
  return globalThis.__recircleDb
}

import './load-env'
import { createDb, migrateToLatest } from '#db/db.server'
import { getEnv } from '~/utils/env.server'

const db = createDb(getEnv().DATABASE_URL)
try {
  const applied = await migrateToLatest(db)
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.')
} finally {
  await db.destroy()
}

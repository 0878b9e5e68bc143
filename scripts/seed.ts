import './load-env'
import { createDb, migrateToLatest } from '#db/db.server'
import { seed } from '#db/seed'
import { getEnv } from '~/utils/env.server'

const db = createDb(getEnv().DATABASE_URL)
try {
  await migrateToLatest(db)
  const { services, stores } = await seed(db)
  console.log(`Seeded ${services} transportation services and ${stores} demo stores (existing rows kept).`)
} finally {
  await db.destroy()
}

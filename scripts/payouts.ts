import './load-env'
import { createDb, migrateToLatest } from '#db/db.server'
import { startPayouts } from '~/payouts/run.server'
import { getEnv } from '~/utils/env.server'

// `npm run payouts`: the payout worker alone (for a separate machine, or next to web instances
// started without it). Several may run at once.

let env
try {
  env = getEnv()
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}
const db = createDb(env.DATABASE_URL)
await migrateToLatest(db)
const stop = startPayouts(db, env)
if (!stop) {
  await db.destroy()
  process.exit(1)
}
async function shutdown() {
  await stop?.()
  await db.destroy()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())

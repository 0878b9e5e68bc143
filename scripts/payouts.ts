import { envOrExit } from './load-env'
import { createDb, migrateToLatest } from '#db/db.server'
import { startPayouts } from '~/payouts/run.server'

// `npm run payouts`: the payout worker alone (for a separate machine, or next to web instances
// started without it). Several may run at once.

const env = envOrExit()
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

import { envOrExit } from './load-env'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { broadcastDevReady, type ServerBuild } from '@remix-run/node'
import { createDb, migrateToLatest } from '#db/db.server'
import { isEmpty, seed } from '#db/seed'
import { startPayouts } from '~/payouts/run.server'
import { purgeExpiredReceiptData } from '~/receipts/retention.server'
import { startInboundSmtp } from '~/ereceipts/smtp.server'
import { createServerApp } from './server'

const dev = process.argv.includes('--dev')
process.env.NODE_ENV ??= dev ? 'development' : 'production'

const env = envOrExit()

const db = createDb(env.DATABASE_URL)
const applied = await migrateToLatest(db)
if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`)
if (await isEmpty(db)) {
  const { services, stores } = await seed(db)
  console.log(`Seeded ${services} transportation services and ${stores} demo stores.`)
}
await db.destroy()

const buildPath = path.resolve('build/index.js')
if (!fs.existsSync(buildPath)) {
  console.error('No build found: run `npm run build` first (npm start does this).')
  process.exit(1)
}

async function loadBuild(): Promise<ServerBuild> {
  // In development every rebuild is imported afresh (cache-busting query on the file URL).
  const stamp = dev ? `?t=${fs.statSync(buildPath).mtimeMs}` : ''
  return import(pathToFileURL(buildPath).href + stamp)
}

// In production the build is loaded once: a build function would make Remix derive its route
// tables (and import the module) on every request, about a fifth of a page's cost (issue 12).
const app = createServerApp(
  dev ? { buildPath, trustProxy: env.TRUST_PROXY, getBuild: loadBuild } : { buildPath, trustProxy: env.TRUST_PROXY, build: await loadBuild() },
)
const server = app.listen(env.PORT, async () => {
  console.log(`ReCircle listening on http://localhost:${env.PORT}${env.RECIRCLE_TEST_MODE ? ' (test mode)' : ''}`)
  if (dev) broadcastDevReady(await loadBuild())
  // The second reader's models (issue 13) load in the background: the first bad photo does not wait.
  const entry = (await loadBuild()).entry.module as { warmUp?: () => Promise<void> }
  entry.warmUp?.().catch((error: Error) => console.error('The second receipt reader could not start:', error.message))
})

if (dev) {
  fs.watch(path.dirname(buildPath), { persistent: false }, async () => {
    try {
      broadcastDevReady(await loadBuild())
    } catch {
      // a half-written build: the next change event retries
    }
  })
}

// Housekeeping (image retention, stale analyses, sessions): idempotent, so every instance may run it.
const appDb = createDb(env.DATABASE_URL)
async function housekeeping() {
  try {
    await purgeExpiredReceiptData(appDb)
  } catch (error) {
    console.error('Housekeeping failed:', (error as Error).message)
  }
}
void housekeeping()
setInterval(housekeeping, 60 * 60 * 1000).unref()

// The payout worker, when a distributor key and the app id are configured (issue 9).
const stopPayouts = startPayouts(appDb, env)

// Forwarded e-receipts by SMTP (issue 21), when INBOUND_SMTP_PORT is set.
if (env.INBOUND_SMTP_PORT !== undefined && !env.INBOUND_DOMAIN) {
  console.error('INBOUND_SMTP_PORT needs INBOUND_DOMAIN: the domain of the forwarding addresses.')
  process.exit(1)
}
const smtp = env.INBOUND_SMTP_PORT !== undefined ? await startInboundSmtp(appDb, { port: env.INBOUND_SMTP_PORT, host: env.INBOUND_SMTP_HOST }) : null
if (smtp) console.log(`Forwarded e-receipts: SMTP on port ${smtp.port} for *@${env.INBOUND_DOMAIN}`)

async function shutdown() {
  server.close()
  setTimeout(() => process.exit(0), 5000).unref()
  try {
    await stopPayouts?.()
    await smtp?.close()
    const build = await loadBuild()
    const entry = build.entry.module as { shutdown?: () => Promise<void> }
    await entry.shutdown?.()
  } finally {
    await appDb.destroy()
    process.exit(0)
  }
}
process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())

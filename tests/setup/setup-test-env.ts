import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { resetEnvCache } from '../../app/utils/env.server'
import { server } from '../mocks/index'
import { ADMIN_WALLET } from '../utils/wallet'
import { createDatabase, dropDatabase } from './postgres'

// A worker runs one test file after another in the same process (vitest.config.ts, decision 107),
// so the environment a file changed is put back as the worker found it before the next file starts.
const first = globalThis as { __recircleBaseEnv?: Record<string, string | undefined> }
first.__recircleBaseEnv ??= { ...process.env }
for (const name of Object.keys(process.env)) if (!(name in first.__recircleBaseEnv)) delete process.env[name]
Object.assign(process.env, first.__recircleBaseEnv)

// Each test file gets its own copy of the migrated, seeded database (global-setup.ts): a SQLite
// file, or with TEST_DB=postgres a database made from the PostgreSQL template.
const pgServer = process.env.RECIRCLE_PG_SERVER_URL
const workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-test-'))
const pgDatabase = `test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`
if (pgServer) {
  process.env.DATABASE_URL = await createDatabase(pgServer, pgDatabase, 'recircle_template')
} else {
  const dbFile = path.join(workerDir, 'test.db')
  fs.copyFileSync(path.resolve('tests/.cache/base.db'), dbFile)
  process.env.DATABASE_URL = `file:${dbFile}`
}
process.env.SESSION_SECRET = 'test-session-secret-that-is-long-enough-0123456789'
process.env.ADMIN_WALLETS = ADMIN_WALLET.address
process.env.APP_DOMAINS = 'recircle.test'
process.env.THOR_NODE_URL = 'https://thor.test'
process.env.RECIRCLE_TEST_MODE = ''
// Analyses in the suites read with tesseract alone; app/ocr/paddle.server.test.ts runs PaddleOCR itself.
process.env.SECOND_READER = 'off'
// The request log line of every route test would drown the test output; tests that read logs use their own logger.
process.env.LOG_LEVEL ??= 'warn'
// Receipt suites approve without asking VeBetter Passport; tests/passport.test.ts turns it on.
process.env.PASSPORT_CHECKS = 'off'
// Suites about what a receipt earns claim it at once and see no audits; tests/maturing.test.ts
// turns maturing (PHOTO_REWARD_HOLD_HOURS) and audit sampling (PHOTO_AUDIT_RATE) on (issue 38).
process.env.PHOTO_REWARD_HOLD_HOURS = '0'
process.env.PHOTO_AUDIT_RATE = '0'
resetEnvCache()

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(async () => {
  server.close()
  await globalThis.__recircleDb?.destroy()
  globalThis.__recircleDb = undefined
  if (pgServer) await dropDatabase(pgServer, pgDatabase)
  fs.rmSync(workerDir, { recursive: true, force: true })
})

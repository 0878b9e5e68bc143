/**
 * How long the database figures of /metrics and /admin take on a big database (issue 25, decision
 * 080): `npx tsx scripts/bench/metrics.ts [--ledger 200000] [--receipts 20000] [--postgres]`.
 * Fills a throwaway SQLite file (or, with --postgres, a throwaway PostgreSQL server) and prints JSON.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createDb, migrateToLatest, type DB } from '#db/db.server'
import { readAnalysisLatencyToday, readOperatorFigures } from '~/ops/figures.server'
import { createMetrics, scrape } from '~/ops/metrics.server'
import { checkReadiness } from '~/ops/health.server'
import { createDatabase, startTestPostgres } from '../../tests/setup/postgres'

const { values } = parseArgs({
  options: { ledger: { type: 'string', default: '200000' }, receipts: { type: 'string', default: '20000' }, postgres: { type: 'boolean', default: false } },
})
const LEDGER = Number(values.ledger)
const RECEIPTS = Number(values.receipts)
const USERS = 2_000

async function fill(db: DB) {
  const now = Date.now()
  const at = (i: number) => new Date(now - (i % 86_400) * 1000 * 30).toISOString()
  const chunk = async <T>(rows: T[], insert: (part: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500))
  }
  await chunk(
    Array.from({ length: USERS }, (_, i) => ({ wallet_address: '0x' + i.toString(16).padStart(40, '0'), display_name: null, referral_code: `B${i}`, referred_by_user_id: null, last_streak_day: null, created_at: at(i), updated_at: at(i) })),
    (part) => db.insertInto('users').values(part).execute(),
  )
  const analysis = JSON.stringify({ reader: 'tesseract', timings: { totalMs: 240 }, ocrText: 'x'.repeat(600) })
  await chunk(
    Array.from({ length: RECEIPTS }, (_, i) => ({
      user_id: 1 + (i % USERS), image_hash: `h${i}`, image_phash: null, image: null, image_mime: null, store_name: 'Uber', category: 'ride_share', amount_cents: 1000 + i,
      purchase_date: '2026-11-20', user_store_id: null, user_category: null, user_amount_cents: null, user_purchase_date: null, analysis_json: analysis,
      status: i % 20 === 0 ? ('pending_review' as const) : ('approved' as const), reference_number: null, review_reasons_json: null, review_signals_json: null,
      reject_reason: null, reward_milli: null, reward_details_json: null, reviewed_by_user_id: null, reviewed_at: null, created_at: at(i),
    })),
    (part) => db.insertInto('receipts').values(part).execute(),
  )
  await chunk(
    Array.from({ length: LEDGER }, (_, i) => ({
      user_id: 1 + (i % USERS), type: i % 10 === 0 ? ('token_claim' as const) : ('receipt_verification' as const), amount_milli: i % 10 === 0 ? -9000 : 1000,
      description: 'bench', status: i % 10 === 0 ? (i % 30 === 0 ? ('pending' as const) : ('confirmed' as const)) : ('completed' as const), tx_hash: null,
      idempotency_key: `bench:${i}`, receipt_id: null, store_submission_id: null, referral_id: null, created_at: at(i),
    })),
    (part) => db.insertInto('transactions').values(part).execute(),
  )
  await chunk(
    Array.from({ length: LEDGER / 10 }, (_, i) => ({
      user_id: 1 + (i % USERS), transaction_id: 1 + i * 10, amount_milli: 9000, status: i % 3 === 0 ? ('pending' as const) : ('confirmed' as const), created_at: at(i), updated_at: at(i),
    })),
    (part) => db.insertInto('payouts').values(part).execute(),
  )
}

async function time(fn: () => Promise<unknown>, runs = 20) {
  const ms: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await fn()
    ms.push(performance.now() - started)
  }
  ms.sort((a, b) => a - b)
  return { medianMs: round(ms[Math.floor(runs / 2)]), maxMs: round(ms[runs - 1]) }
}
const round = (n: number) => Math.round(n * 100) / 100

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-bench-metrics-'))
const pg = values.postgres ? await startTestPostgres() : null
const url = pg ? await createDatabase(pg.url, 'bench_metrics') : `file:${path.join(dir, 'bench.db')}`
const db = createDb(url)
try {
  await migrateToLatest(db)
  const filling = performance.now()
  await fill(db)
  const fillS = round((performance.now() - filling) / 1000)
  const metrics = createMetrics()
  const result = {
    engine: pg ? 'postgresql' : 'sqlite',
    rows: { ledger: LEDGER, receipts: RECEIPTS, payouts: LEDGER / 10 },
    fillS,
    readyz: await time(() => checkReadiness(db, { shuttingDown: false })),
    operatorFigures: await time(() => readOperatorFigures(db)),
    fullScrape: await time(() => scrape(metrics, { db })),
    adminLatencyToday: await time(() => readAnalysisLatencyToday(db), 5),
  }
  console.log(JSON.stringify(result))
} finally {
  await db.destroy()
  pg?.stop()
  fs.rmSync(dir, { recursive: true, force: true })
}

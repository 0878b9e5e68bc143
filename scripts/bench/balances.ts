/**
 * The claimable and pending amounts (issue 38, app/rewards/ledger.server.ts getBalances) for a user
 * with a long ledger, against the one sum the balance was before maturing:
 *   tsx scripts/bench/balances.ts [--rows 10000] [--others 2000] [--lookups 5000] [--postgres]
 *   (npm run bench:balances). Prints one JSON object; progress goes to stderr.
 * Target: getBalances adds at most 5 ms at p99 over the old sum.
 *
 * A scratch SQLite file (or, with --postgres, a throwaway PostgreSQL server), migrated by the app's
 * migrator and filled through it: one user with --rows ledger rows over two years as the app writes
 * them (receipt credits with their 30 % fund shares, claims every ~20 credits; photo credits of the
 * last 72 hours still maturing, some reversed), and --others users with 100 rows each around it.
 * Both reads are then timed in turn, alternating, on the app's own connection (createDb), after 500
 * untimed rounds: `before` is the ledger's sum alone (the pre-issue-38 balance), `after` is
 * getBalances (that sum and, in the same round trip, the maturing entries from the (user_id,
 * claimable_at) index). addedP99Ms is after's p99 minus before's; pairedDifference summarises each
 * round's after minus before. On a shared machine both move with the load (loadAverage is printed):
 * run it when the machine is quiet.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createDb, migrateToLatest, type DB } from '#db/db.server'
import type { NewTransaction } from '#db/schema'
import { FUND_TYPES, getBalances } from '~/rewards/ledger.server'
import { createDatabase, startTestPostgres } from '../../tests/setup/postgres'
import { mulberry32 } from './random'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    others: { type: 'string', default: '2000' },
    lookups: { type: 'string', default: '5000' },
    postgres: { type: 'boolean', default: false },
  },
})
const ROWS = Number(values.rows)
const OTHERS = Number(values.others)
const LOOKUPS = Number(values.lookups)
const OTHER_ROWS = 100
const TARGET_ADDED_P99_MS = 5
const WARMUP = 500
const HOUR = 3_600_000
const HOLD = 72 * HOUR

const log = (message: string) => console.error(`[bench:balances] ${message}`)
const random = mulberry32(38)

/** One user's ledger as the app writes it, `count` rows ending now. */
function ledgerOf(userId: number, count: number, now: number): NewTransaction[] {
  const rows: NewTransaction[] = []
  const span = 730 * 24 * HOUR
  let sinceClaim = 0
  let balance = 0
  for (let i = 0; rows.length < count; i++) {
    const at = now - span + Math.floor((rows.length / count) * span)
    const created_at = new Date(at).toISOString()
    const key = `bench:${userId}:${i}`
    if (sinceClaim >= 20 && now - at > HOLD) {
      rows.push({ user_id: userId, type: 'token_claim', amount_milli: -balance, description: 'Claim All Tokens', status: 'confirmed', tx_hash: null, idempotency_key: `${key}:claim`, receipt_id: null, store_submission_id: null, referral_id: null, created_at })
      balance = 0
      sinceClaim = 0
      continue
    }
    const amount = 9000 + Math.floor(random() * 3) * 1000
    // A photo approved automatically in the last 72 hours is still maturing.
    const claimable_at = now - at < HOLD ? new Date(at + HOLD).toISOString() : null
    const credit = { user_id: userId, receipt_id: null, store_submission_id: null, referral_id: null, tx_hash: null, status: 'completed' as const, created_at, claimable_at }
    rows.push({ ...credit, type: 'receipt_verification', amount_milli: amount, description: 'Receipt verified', idempotency_key: key })
    rows.push({ ...credit, type: 'sustainability_app', amount_milli: Math.floor(amount * 0.3), description: 'Sustainability fund', idempotency_key: `${key}:sustainability_app` })
    if (claimable_at && random() < 0.2) {
      rows.push({ ...credit, type: 'receipt_verification', amount_milli: -amount, description: 'Reversed: Receipt verified', idempotency_key: `reversal:${key}` })
    } else if (!claimable_at) {
      balance += amount
    }
    sinceClaim++
  }
  return rows.slice(0, count)
}

async function fill(db: DB, now: number) {
  const users = Array.from({ length: OTHERS + 1 }, (_, i) => ({
    wallet_address: '0x' + (i + 1).toString(16).padStart(40, '0'),
    display_name: null,
    referral_code: `BAL${i}`,
    referred_by_user_id: null,
    last_streak_day: null,
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
  }))
  for (let i = 0; i < users.length; i += 500) await db.insertInto('users').values(users.slice(i, i + 500)).execute()
  const ids = (await db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id)
  const measured = ids[Math.floor(ids.length / 2)]!
  // Interleaved as they arrive: the measured user's rows spread over the table.
  const all = ids.flatMap((id) => ledgerOf(id, id === measured ? ROWS : OTHER_ROWS, now))
  all.sort((a, b) => a.created_at.localeCompare(b.created_at))
  for (let i = 0; i < all.length; i += 500) await db.insertInto('transactions').values(all.slice(i, i + 500)).execute()
  return { measured, totalRows: all.length }
}

/** The balance before issue 38: the ledger's sum, the same query getBalances still makes. */
async function oldBalance(db: DB, userId: number) {
  return db
    .selectFrom('transactions')
    .select(sql<number>`coalesce(sum(amount_milli), 0)`.as('balance'))
    .where('user_id', '=', userId)
    .where('type', 'not in', FUND_TYPES)
    .where('status', '!=', 'failed')
    .executeTakeFirstOrThrow()
}

const round = (n: number) => Math.round(n * 1000) / 1000
function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0)
  return { p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99), maxMs: round(sorted.at(-1) ?? 0) }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-bench-balances-'))
const pg = values.postgres ? await startTestPostgres() : null
const url = pg ? await createDatabase(pg.url, 'bench_balances') : `file:${path.join(dir, 'bench.db')}`
const db = createDb(url)
try {
  await migrateToLatest(db)
  const now = Date.now()
  const filling = performance.now()
  const { measured, totalRows } = await fill(db, now)
  log(`${totalRows} ledger rows in ${((performance.now() - filling) / 1000).toFixed(1)} s`)
  const at = new Date(now)
  const check = await getBalances(db, measured, at)
  const sum = Number((await oldBalance(db, measured)).balance)
  if (check.claimableMilli + check.pendingMilli !== sum) throw new Error('claimable + pending must be the ledger sum')

  for (let i = 0; i < WARMUP; i++) {
    await oldBalance(db, measured)
    await getBalances(db, measured, at)
  }
  const before: number[] = []
  const after: number[] = []
  const added: number[] = []
  const timed = async (read: () => Promise<unknown>) => {
    const t0 = performance.now()
    await read()
    return performance.now() - t0
  }
  for (let i = 0; i < LOOKUPS; i++) {
    // Alternating which goes first, so neither always meets a warmer cache.
    const oldFirst = i % 2 === 0
    const first = await timed(() => (oldFirst ? oldBalance(db, measured) : getBalances(db, measured, at)))
    const second = await timed(() => (oldFirst ? getBalances(db, measured, at) : oldBalance(db, measured)))
    before.push(oldFirst ? first : second)
    after.push(oldFirst ? second : first)
    added.push(after.at(-1)! - before.at(-1)!)
  }
  const b = summary(before)
  const a = summary(after)
  const m = summary(added)
  const addedP99Ms = round(a.p99Ms - b.p99Ms)
  console.log(
    JSON.stringify(
      {
        engine: pg ? 'postgresql' : 'sqlite',
        userRows: ROWS,
        totalRows,
        lookups: LOOKUPS,
        balances: { claimableMilli: check.claimableMilli, pendingMilli: check.pendingMilli, maturingTimes: check.maturing.length },
        before: b,
        after: a,
        addedP50Ms: round(a.p50Ms - b.p50Ms),
        addedP99Ms,
        pairedDifference: m,
        targetAddedP99Ms: TARGET_ADDED_P99_MS,
        withinTarget: addedP99Ms <= TARGET_ADDED_P99_MS,
        machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? null, node: process.version, loadAverage: os.loadavg().map((n) => round(n)) },
      },
      null,
      2,
    ),
  )
} finally {
  await db.destroy()
  pg?.stop()
  fs.rmSync(dir, { recursive: true, force: true })
}

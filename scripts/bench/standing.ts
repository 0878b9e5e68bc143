/**
 * The standing lookup a photo submission makes (issue 31, app/receipts/standing.server.ts), measured
 * on a database the size the issue names:
 *   tsx scripts/bench/standing.ts [--users N] [--receipts N] [--lookups N] [--seed N] [--analyze] [--image-kb K]
 *   (npm run bench:standing; defaults: 100,000 users, 1,000,000 receipts, 20,000 lookups)
 * Target: the lookup adds at most 5 ms at p99 to a submission. Prints one JSON object; progress
 * goes to stderr.
 *
 * 1. A scratch SQLite file in os.tmpdir(), migrated by migrateToLatest (what `npm run db:migrate`
 *    and `npm start` run), then filled through better-sqlite3 directly (prepared inserts, 10,000 a
 *    transaction) with every index of the migrations in place, as production writes them:
 *    - users: 20 % never submitted, 0.2 % heavy (200..1,000 receipts), the rest 1..30 skewed low;
 *      scaled so the receipts add up to --receipts. Receipts come in shuffled order over 365 days,
 *      so one user's rows are spread over the table as they are in production.
 *    - receipts: 85 % approved, 10 % pending_review, 5 % rejected. E-receipts are a habit of some
 *      users: 12 % of users send them, a quarter of their approved receipts (about 3 % of all
 *      approved); staff reviewed 5 % of approved and every rejected receipt; 0.5 % of rejected
 *      were rejected as fraud. analysis_json about 1 KB (with OCR text), image NULL (--image-kb K:
 *      a K KB image on receipts younger than the 90-day image retention, as production keeps them).
 *    No ANALYZE: production never runs it (nothing in app/, db/ or scripts/ does), so SQLite plans
 *    without statistics there too. --analyze runs it after the seeding, for comparison.
 * 2. The database is opened as the app opens it (createDb, the factory behind getDb: WAL, the
 *    statement cache, the queued driver) and getStanding(db, userId, null) is timed, one at a time,
 *    after 2,000 untimed lookups: half the user ids drawn uniformly from all users (a fifth of them
 *    have no receipts), half the owner of a random receipt, as submissions come (heavy users often).
 *    For scale, the duplicate-image check every submission already makes (one unique-index probe on
 *    receipts.image_hash) is timed the same way.
 * The file is deleted at the end. On a shared 2-core machine run it once, with nothing else busy.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely'
import { createDb, migrateToLatest } from '#db/db.server'
import type { Database } from '#db/schema'
import { getStanding, readStandingFacts } from '~/receipts/standing.server'
import { IMAGE_RETENTION_DAYS } from '~/receipts/retention.server'
import { mulberry32 } from './random'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} wants a number`)
  return Math.floor(value)
}
const userCount = arg('users', 100_000)
const receiptCount = arg('receipts', 1_000_000)
const lookupCount = arg('lookups', 20_000)
const seed = arg('seed', 31)
const imageKb = arg('image-kb', 0)
const runAnalyze = process.argv.includes('--analyze')
const TARGET_P99_MS = 5
const WARMUP_LOOKUPS = 2_000
const SPAN_DAYS = 365
const BATCH = 10_000
const STAFF_USERS = 20

const log = (message: string) => console.error(`[bench:standing] ${message}`)

const random = mulberry32(seed)
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]

function percentile(sorted: number[], q: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : 0
}
const ms = (n: number) => Math.round(n * 1000) / 1000
function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b)
  return { lookups: sorted.length, p50Ms: ms(percentile(sorted, 0.5)), p90Ms: ms(percentile(sorted, 0.9)), p99Ms: ms(percentile(sorted, 0.99)), maxMs: ms(sorted.at(-1) ?? 0) }
}

/** Receipts per user (index 0 is user id 1), adding up to `total`. */
function receiptsPerUser(users: number, total: number) {
  const weights = new Float64Array(users)
  for (let i = 0; i < users; i++) {
    const r = random()
    if (r < 0.2) weights[i] = 0
    else if (r < 0.202) weights[i] = 200 + Math.floor(random() * 801)
    else weights[i] = 1 + Math.floor(30 * random() ** 2.2)
  }
  const sum = weights.reduce((a, b) => a + b, 0)
  const counts = new Int32Array(users)
  let assigned = 0
  for (let i = 0; i < users; i++) assigned += counts[i] = Math.floor((weights[i] * total) / sum)
  const active = [...weights.keys()].filter((i) => weights[i] > 0)
  while (assigned < total) counts[pick(active)]++, assigned++
  return counts
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-bench-standing-'))
const file = path.join(dir, 'standing.db')
try {
  // 1. Migrate with the app's migrator, then seed through better-sqlite3.
  const seedStarted = performance.now()
  const migrating = createDb(`file:${file}`)
  await migrateToLatest(migrating)
  await migrating.destroy()

  const raw = new SQLite(file)
  raw.pragma('journal_mode = WAL')
  raw.pragma('synchronous = OFF') // seeding only; the measured connection is the app's
  raw.pragma('cache_size = -524288') // 512 MB: the random image_hash index stays in memory while filling

  const now = Date.now()
  const iso = (t: number) => new Date(t).toISOString()
  const insertUser = raw.prepare(
    'insert into users (id, wallet_address, referral_code, current_streak, best_streak, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)',
  )
  raw.transaction(() => {
    for (let id = 1; id <= userCount; id++) {
      const created = iso(now - (SPAN_DAYS + 30) * 86_400_000 + Math.floor(random() * SPAN_DAYS * 86_400_000))
      insertUser.run(id, '0x' + crypto.randomBytes(20).toString('hex'), `R${id.toString(36).toUpperCase().padStart(7, '0')}`, 0, 0, created, created)
    }
  })()
  log(`${userCount} users`)

  const counts = receiptsPerUser(userCount, receiptCount)
  const heavy = new Set([...counts.keys()].filter((i) => counts[i] >= 200).map((i) => i + 1))
  const sendsEReceipts = Uint8Array.from({ length: userCount }, () => (random() < 0.12 ? 1 : 0))
  // One user id per receipt, shuffled: receipts arrive interleaved over time.
  const owners = new Int32Array(receiptCount)
  for (let i = 0, k = 0; i < userCount; i++) for (let c = 0; c < counts[i]; c++) owners[k++] = i + 1
  for (let i = receiptCount - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const t = owners[i]
    owners[i] = owners[j]
    owners[j] = t
  }

  const services = [
    { store: 'Uber', category: 'ride_share', domain: 'uber.com' },
    { store: 'Lyft', category: 'ride_share', domain: 'lyft.com' },
    { store: 'Lime', category: 'micromobility', domain: 'li.me' },
    { store: 'Amtrak', category: 'public_transit', domain: 'amtrak.com' },
    { store: 'BART', category: 'public_transit', domain: 'bart.gov' },
  ] as const
  const ocrLine = 'TRIP RECEIPT  Thanks for riding  Pickup 8:14 AM  Dropoff 8:41 AM  Distance 6.2 mi  Trip fare 14.20  Booking fee 2.45  '
  const image = imageKb > 0 ? crypto.randomBytes(imageKb * 1024) : null
  const imageCutoff = now - IMAGE_RETENTION_DAYS * 86_400_000
  const insertReceipt = raw.prepare(`insert into receipts (
      user_id, image_hash, image_phash, image, image_mime, store_name, category, amount_cents, purchase_date,
      user_store_id, user_category, user_amount_cents, user_purchase_date, analysis_json, status, reference_number,
      review_reasons_json, review_signals_json, reject_reason, reward_milli, reward_details_json,
      reviewed_by_user_id, reviewed_at, created_at, verified_sender, rejected_as_fraud, install_hash, address_hash
    ) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const mix = { approved: 0, pending_review: 0, rejected: 0, ereceipts: 0, staffApproved: 0, fraud: 0 }
  // Some existing image hashes, for the baseline (the duplicate check probes this unique index).
  const knownHashes: string[] = []
  const insertBatch = raw.transaction((from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const userId = owners[k]
      const created = now - SPAN_DAYS * 86_400_000 + Math.floor((k / receiptCount) * SPAN_DAYS * 86_400_000)
      const r = random()
      const status = r < 0.85 ? 'approved' : r < 0.95 ? 'pending_review' : 'rejected'
      const eReceipt = status === 'approved' && sendsEReceipts[userId - 1] === 1 && random() < 0.25
      const staff = status === 'rejected' || (status === 'approved' && random() < 0.05)
      const fraud = status === 'rejected' && random() < 0.005
      mix[status]++
      if (eReceipt) mix.ereceipts++
      if (staff && status === 'approved') mix.staffApproved++
      if (fraud) mix.fraud++
      const service = pick(services)
      const cents = 500 + Math.floor(random() * 6000)
      const day = iso(created - Math.floor(random() * 3) * 86_400_000).slice(0, 10)
      const reference = crypto.randomBytes(6).toString('hex').toUpperCase()
      const hash = crypto.randomBytes(32).toString('hex')
      if (knownHashes.length < lookupCount && random() < (lookupCount * 2) / receiptCount) knownHashes.push(hash)
      const analysis = {
        isValid: true,
        storeName: service.store,
        category: service.category,
        totalAmount: cents / 100,
        purchaseDate: day,
        isAcceptable: status !== 'pending_review',
        needsManualReview: status === 'pending_review',
        reasons: [],
        confidence: 0.9,
        referenceNumber: reference,
        isSustainableStore: true,
        purchaseCategory: service.category,
        ocrText: `${service.store.toUpperCase()} ${ocrLine.repeat(6)}Total ${(cents / 100).toFixed(2)}  Ref ${reference}`,
        reader: eReceipt ? 'email' : 'tesseract',
        verifiedSender: eReceipt ? service.domain : null,
        timings: { validateMs: 4, preprocessMs: 120, ocrMs: 1800, extractMs: 6, totalMs: 1930 },
      }
      const withImage = image && created >= imageCutoff
      insertReceipt.run(
        userId,
        hash,
        eReceipt ? null : crypto.randomBytes(8).toString('hex'),
        withImage ? image : null,
        withImage ? (eReceipt ? 'message/rfc822' : 'image/jpeg') : null,
        service.store,
        service.category,
        cents,
        day,
        null,
        service.category,
        cents,
        day,
        JSON.stringify(analysis),
        status,
        reference,
        status === 'pending_review' ? JSON.stringify(['New wallet: its photo receipts are checked by our team until one is approved.']) : null,
        JSON.stringify({ nearDuplicateOf: null, sameReceiptFromOtherAccount: null, referredByUserId: null, inviteeAutoApprovalsToday: 0, walletAgeDays: 40 }),
        status === 'rejected' ? (fraud ? 'Fraud: the same trip photographed twice' : 'Not a transport receipt') : null,
        status === 'approved' ? 10_000 + cents * 10 : null,
        status === 'approved' ? JSON.stringify({ base: 10_000, perDollar: cents * 10 }) : null,
        staff ? 1 + Math.floor(random() * STAFF_USERS) : null,
        staff ? iso(created + 3_600_000) : null,
        iso(created),
        eReceipt ? service.domain : null,
        fraud ? 1 : 0,
        created >= now - 30 * 86_400_000 ? crypto.randomBytes(16).toString('hex') : null,
        created >= now - 30 * 86_400_000 ? crypto.randomBytes(16).toString('hex') : null,
      )
    }
  })
  for (let from = 0; from < receiptCount; from += BATCH) {
    insertBatch(from, Math.min(receiptCount, from + BATCH))
    if ((from + BATCH) % 100_000 === 0 || from + BATCH >= receiptCount) {
      log(`${Math.min(receiptCount, from + BATCH)} receipts (${((performance.now() - seedStarted) / 1000).toFixed(0)} s)`)
    }
  }
  if (runAnalyze) raw.exec('analyze')
  raw.pragma('wal_checkpoint(TRUNCATE)')
  raw.close()
  const seedSeconds = (performance.now() - seedStarted) / 1000
  const dbMB = Math.round(fs.statSync(file).size / 1e5) / 10
  log(`seeded in ${seedSeconds.toFixed(1)} s, ${dbMB} MB${runAnalyze ? ', analyzed' : ''}`)

  // The SQL readStandingFacts runs and SQLite's plan for it, read through a logging Kysely instance.
  const planDb = new SQLite(file, { readonly: true })
  const queries: CompiledQuery[] = []
  const logging = new Kysely<Database>({
    dialect: new SqliteDialect({ database: planDb }),
    log: (event) => void queries.push(event.query),
  })
  await readStandingFacts(logging, 1)
  const queryPlan = queries.slice(0, 1).flatMap((query) =>
    (planDb.prepare(`explain query plan ${query.sql}`).all(...query.parameters) as Array<{ parent: number; detail: string }>).map(
      (row) => `${row.parent === 0 ? '' : '  '}${row.detail}`,
    ),
  )
  await logging.destroy()

  // 2. Measure on the app's own connection.
  const db = createDb(`file:${file}`)
  const anyUser = () => 1 + Math.floor(random() * userCount)
  const submittingUser = () => owners[Math.floor(random() * receiptCount)]
  for (let i = 0; i < WARMUP_LOOKUPS; i++) await getStanding(db, i % 2 ? anyUser() : submittingUser(), null)
  const uniform: number[] = []
  const byActivity: number[] = []
  const heavyTimes: number[] = []
  const noReceiptTimes: number[] = []
  const reasons: Record<string, number> = {}
  for (let i = 0; i < lookupCount; i++) {
    const userId = i % 2 ? anyUser() : submittingUser()
    const t0 = performance.now()
    const standing = await getStanding(db, userId, null)
    const elapsed = performance.now() - t0
    ;(i % 2 ? uniform : byActivity).push(elapsed)
    if (heavy.has(userId)) heavyTimes.push(elapsed)
    if (counts[userId - 1] === 0) noReceiptTimes.push(elapsed)
    reasons[standing.reason] = (reasons[standing.reason] ?? 0) + 1
  }
  const baseline: number[] = []
  for (let i = 0; i < Math.min(lookupCount, knownHashes.length * 4); i++) {
    const hash = knownHashes[i % knownHashes.length]
    const t0 = performance.now()
    await db.selectFrom('receipts').select('id').where('image_hash', '=', hash).executeTakeFirst()
    baseline.push(performance.now() - t0)
  }
  await db.destroy()

  const all = summary([...uniform, ...byActivity])
  console.log(
    JSON.stringify(
      {
        users: userCount,
        receipts: receiptCount,
        seedSeconds: Math.round(seedSeconds * 10) / 10,
        ...all,
        targetP99Ms: TARGET_P99_MS,
        withinTarget: all.p99Ms <= TARGET_P99_MS,
        machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? null, node: process.version },
        analyzed: runAnalyze,
        imageKb,
        dbMB,
        mix: { ...mix, heavyUsers: heavy.size, usersWithoutReceipts: counts.filter((c) => c === 0).length, maxReceiptsOfOneUser: counts.reduce((a, b) => Math.max(a, b), 0) },
        samples: {
          uniformUsers: summary(uniform),
          bySubmission: summary(byActivity),
          heavyUsers: summary(heavyTimes),
          usersWithoutReceipts: summary(noReceiptTimes),
        },
        standingReasons: reasons,
        baselineDuplicateCheck: summary(baseline),
        queryPlan,
      },
      null,
      2,
    ),
  )
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}

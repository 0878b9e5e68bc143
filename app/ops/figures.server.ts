import { sql } from 'kysely'
import { isPostgres, type DB } from '#db/db.server'
import { PAYOUT_STATUSES, type PayoutStatus, type TransactionStatus } from '#db/schema'
import { ageSeconds, latencySummary, ledgerTotals, startOfUtcDay, UNCONFIRMED_PAYOUTS, type LatencySummary, type LedgerTotals } from './figures'

// The figures an operator watches (issue 25), read from the database, so every instance answers the
// same: /metrics reads them at scrape time, the /admin page when it is shown. Each is one indexed
// aggregate (receipts_status_idx, payouts_status_idx, transactions_type_idx).

export type OperatorFigures = {
  review: { size: number; oldestAgeSeconds: number }
  payouts: { byStatus: Record<PayoutStatus, { count: number; amountMilli: number }>; unconfirmed: number; oldestUnconfirmedAgeSeconds: number }
  ledger: LedgerTotals
  analysisJobs: { queued: number }
}

export async function readOperatorFigures(db: DB, now = new Date()): Promise<OperatorFigures> {
  const [review, payoutRows, oldestPayout, ledgerRows, jobs] = await Promise.all([
    db
      .selectFrom('receipts')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'pending_review')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('payouts')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_milli').as('total')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('payouts')
      .select((eb) => eb.fn.min('created_at').as('oldest'))
      .where('status', 'in', UNCONFIRMED_PAYOUTS)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('transactions')
      .select((eb) => ['type', 'status', eb.fn.sum<number>('amount_milli').as('total')])
      .groupBy(['type', 'status'])
      .execute(),
    db
      .selectFrom('analysis_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow(),
  ])
  const byStatus = Object.fromEntries(PAYOUT_STATUSES.map((s) => [s, { count: 0, amountMilli: 0 }])) as OperatorFigures['payouts']['byStatus']
  for (const r of payoutRows) byStatus[r.status] = { count: Number(r.n), amountMilli: exact(r.total) }
  return {
    review: { size: Number(review.n), oldestAgeSeconds: ageSeconds(review.oldest as string | null, now) },
    payouts: {
      byStatus,
      unconfirmed: UNCONFIRMED_PAYOUTS.reduce((n, s) => n + byStatus[s].count, 0),
      oldestUnconfirmedAgeSeconds: ageSeconds(oldestPayout.oldest as string | null, now),
    },
    ledger: ledgerTotals(ledgerRows.map((r) => ({ type: r.type, status: r.status as TransactionStatus, total: exact(r.total) }))),
    analysisJobs: { queued: Number(jobs.n) },
  }
}

/** PostgreSQL answers sum(bigint) as a numeric string: money must stay an exact integer. */
function exact(value: unknown): number {
  const n = Number(value ?? 0)
  if (!Number.isSafeInteger(n)) throw new RangeError(`ledger sum ${String(value)} is not an exact integer`)
  return n
}

/** Today's analyses (UTC), kept or already submitted: how long each took, by the reader that decided. */
export async function readAnalysisLatencyToday(db: DB, now = new Date()): Promise<LatencySummary & { byReader: Record<string, number> }> {
  const since = startOfUtcDay(now)
  const pg = isPostgres(db)
  const totalMs = pg ? sql<string | null>`(analysis_json::json #>> '{timings,totalMs}')` : sql<string | null>`json_extract(analysis_json, '$.timings.totalMs')`
  const reader = pg ? sql<string | null>`(analysis_json::json ->> 'reader')` : sql<string | null>`json_extract(analysis_json, '$.reader')`
  // At most a day's worth of rows, newest first; a busy day's summary stays a sample of 5000.
  const [kept, submitted] = await Promise.all([
    db.selectFrom('receipt_analyses').select([totalMs.as('ms'), reader.as('reader')]).where('created_at', '>=', since).orderBy('id', 'desc').limit(5000).execute(),
    db.selectFrom('receipts').select([totalMs.as('ms'), reader.as('reader')]).where('created_at', '>=', since).orderBy('id', 'desc').limit(5000).execute(),
  ])
  const rows = [...kept, ...submitted].filter((r) => r.ms !== null)
  const byReader: Record<string, number> = {}
  for (const r of rows) byReader[r.reader ?? 'unknown'] = (byReader[r.reader ?? 'unknown'] ?? 0) + 1
  return { ...latencySummary(rows.map((r) => Number(r.ms))), byReader }
}

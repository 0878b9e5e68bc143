import crypto from 'node:crypto'
import os from 'node:os'
import type { ExpressionBuilder } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database } from '#db/schema'
import { ReaderBusyError } from '~/ocr/tesseract.server'
import { getLogger } from '~/ops/logger.server'
import { getMetrics } from '~/ops/metrics.server'
import { parseStoredAnalysis, timeoutFallback, type StoredAnalysis, type Analyzer } from './stored-analysis'

// Issue 12: receipt analysis on separate worker machines (`npm run worker`). The web instance
// stores the photo as a job and polls for the result; a worker takes a job with a conditional
// update and a lease. A job whose worker died is taken again once the lease has run out, and a
// result is stored only by the worker that holds the lease, so it is stored once.

/** How long a taken job is a worker's. An analysis takes 0.2–2 s; the web waits at most 25 s. */
export const JOB_LEASE_MS = 8_000
/** A photo that made this many workers die or fail is not tried again. */
export const MAX_JOB_ATTEMPTS = 3
/** How often the web instance looks for the result, and an idle worker for a job. */
export const JOB_POLL_MS = 100

export type TakenJob = { id: number; userId: number; image: Buffer; attempts: number }

export async function enqueueAnalysis(db: DB, input: { userId: number; image: Buffer; now?: Date }): Promise<number> {
  const row = await db
    .insertInto('analysis_jobs')
    .values({ user_id: input.userId, image: input.image, status: 'queued', created_at: (input.now ?? new Date()).toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function countQueuedJobs(db: DB): Promise<number> {
  const row = await db
    .selectFrom('analysis_jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'queued')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Take the oldest job that is queued, or running under a lease that has run out (its worker died).
 * The update repeats the condition, so of several workers reaching for one job exactly one gets it.
 */
export async function takeNextJob(db: DB, input: { owner: string; now?: Date; leaseMs?: number }): Promise<TakenJob | null> {
  const now = input.now ?? new Date()
  const at = now.toISOString()
  const takeable = (eb: ExpressionBuilder<Database, 'analysis_jobs'>) =>
    eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', at)])])
  const candidates = await db.selectFrom('analysis_jobs').select(['id', 'attempts']).where(takeable).orderBy('id').limit(8).execute()
  for (const candidate of candidates) {
    if (candidate.attempts >= MAX_JOB_ATTEMPTS) {
      await db
        .updateTable('analysis_jobs')
        .set({ status: 'failed', error: 'Gave up after repeated worker failures', lease_owner: null, finished_at: at })
        .where('id', '=', candidate.id)
        .where(takeable)
        .execute()
      continue
    }
    const taken = await db
      .updateTable('analysis_jobs')
      .set((eb) => ({
        status: 'running',
        lease_owner: input.owner,
        lease_until: new Date(now.getTime() + (input.leaseMs ?? JOB_LEASE_MS)).toISOString(),
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', candidate.id)
      .where(takeable)
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) !== 1) continue
    const job = await db.selectFrom('analysis_jobs').select(['id', 'user_id', 'image', 'attempts']).where('id', '=', candidate.id).executeTakeFirst()
    if (job) return { id: job.id, userId: job.user_id, image: Buffer.from(job.image), attempts: job.attempts }
  }
  return null
}

/** Store the result, only while this worker still holds the job: true when it was stored. */
export async function finishJob(
  db: DB,
  input: { id: number; owner: string; analysis?: StoredAnalysis; error?: string; now?: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('analysis_jobs')
    .set({
      status: input.analysis ? 'done' : 'failed',
      analysis_json: input.analysis ? JSON.stringify(input.analysis) : null,
      error: input.error ?? null,
      lease_owner: null,
      finished_at: (input.now ?? new Date()).toISOString(),
    })
    .where('id', '=', input.id)
    .where('status', '=', 'running')
    .where('lease_owner', '=', input.owner)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** The web request gave up: a job nobody finished is not worth a worker's time any more. */
export async function cancelJob(db: DB, id: number, now = new Date()): Promise<void> {
  await db
    .updateTable('analysis_jobs')
    .set({ status: 'cancelled', lease_owner: null, finished_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute()
}

/** Housekeeping: finished and abandoned jobs (and their photos) older than an hour. */
export async function purgeOldJobs(db: DB, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 3_600_000).toISOString()
  const result = await db.deleteFrom('analysis_jobs').where('created_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

/**
 * The web side: an Analyzer that queues the photo and waits for a worker's result. Past
 * `maxQueued` waiting jobs it refuses at once (503, as the in-process reader does). A failed job
 * gets the manual-review fallback; the caller's 25 s limit cancels a job still waiting.
 */
export function queuedAnalyzer(db: DB, userId: number, opts: { maxQueued: number; pollMs?: number }): Analyzer {
  return async (image, { signal }) => {
    if ((await countQueuedJobs(db)) >= opts.maxQueued) {
      getMetrics().ocrRefusals.inc({ mode: 'queue' })
      throw new ReaderBusyError()
    }
    const id = await enqueueAnalysis(db, { userId, image })
    try {
      while (!signal.aborted) {
        const job = await db.selectFrom('analysis_jobs').select(['status', 'analysis_json']).where('id', '=', id).executeTakeFirst()
        if (job?.status === 'done' && job.analysis_json) return parseStoredAnalysis(job.analysis_json)
        if (!job || job.status === 'failed' || job.status === 'cancelled') return timeoutFallback()
        await sleep(opts.pollMs ?? JOB_POLL_MS, signal)
      }
      throw signal.reason ?? new Error('Analysis cancelled')
    } finally {
      // Done: the web keeps the analysis with the photo itself. Otherwise nobody should work on it.
      await db.deleteFrom('analysis_jobs').where('id', '=', id).where('status', 'in', ['done', 'failed']).execute()
      await cancelJob(db, id)
    }
  }
}

export function workerId(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`
}

/**
 * The worker side: `concurrency` loops that take jobs and analyse them until `signal` aborts.
 * Each result is stored with finishJob; an analysis that throws marks the job failed.
 */
export async function runAnalysisWorker(
  db: DB,
  input: { analyze: Analyzer; signal: AbortSignal; concurrency?: number; owner?: string; pollMs?: number; leaseMs?: number; timeoutMs?: number; onJob?: (e: { id: number; ms: number; stored: boolean }) => void },
): Promise<void> {
  const owner = input.owner ?? workerId()
  const loop = async () => {
    while (!input.signal.aborted) {
      let job: TakenJob | null = null
      try {
        job = await takeNextJob(db, { owner, leaseMs: input.leaseMs })
      } catch (error) {
        getLogger().child({ component: 'analysis-worker' }).error({ err: (error as Error).message }, 'could not take a job')
      }
      if (!job) {
        await sleep(input.pollMs ?? JOB_POLL_MS, input.signal)
        continue
      }
      const started = performance.now()
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), input.timeoutMs ?? 25_000)
      let stored = false
      try {
        const analysis = await input.analyze(job.image, { signal: controller.signal })
        stored = await finishJob(db, { id: job.id, owner, analysis })
      } catch (error) {
        stored = await finishJob(db, { id: job.id, owner, error: (error as Error).message ?? String(error) }).catch(() => false)
      } finally {
        clearTimeout(timer)
      }
      input.onJob?.({ id: job.id, ms: performance.now() - started, stored })
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency ?? 1) }, loop))
}

/**
 * A worker shutting down past its grace (issue 25): its unfinished jobs go back to the queue at once,
 * for another worker, instead of waiting for the lease to run out. The attempt is not counted
 * against the photo. Whatever the stopping worker computes later is not stored (its lease is gone).
 */
export async function releaseJobs(db: DB, owner: string): Promise<number> {
  const result = await db
    .updateTable('analysis_jobs')
    .set((eb) => ({ status: 'queued', lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
    .where('status', '=', 'running')
    .where('lease_owner', '=', owner)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

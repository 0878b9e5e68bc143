import { afterEach, describe, expect, it } from 'vitest'
import { runPayoutsOnce } from '../app/payouts/worker.server'
import { enqueueAnalysis, finishJob, releaseJobs, takeNextJob } from '../app/analysis/analysis-queue.server'
import { getDb } from '../app/utils/db.server'
import { fakeChain, payoutRow, testClock, userWithClaim, workerContext } from './utils/payouts'
import { noiseImage } from './utils/images'
import { signInNewUser } from './utils/requests'

// Issue 25: what the workers do on SIGTERM (scripts/worker.ts, scripts/payouts.ts). The process
// level (a SIGTERM during a payout and analyses) is tests/e2e/operations.e2e.ts.

afterEach(async () => {
  await getDb().deleteFrom('analysis_jobs').execute()
  await getDb().deleteFrom('payouts').execute()
})

describe('an analysis worker past its grace hands its jobs back', () => {
  it('requeues only its own running jobs, without counting the attempt, and can no longer store them', async () => {
    const db = getDb()
    const { user } = await signInNewUser()
    const mine = await enqueueAnalysis(db, { userId: user.id, image: await noiseImage() })
    const theirs = await enqueueAnalysis(db, { userId: user.id, image: await noiseImage() })
    expect((await takeNextJob(db, { owner: 'stopping-worker' }))?.id).toBe(mine)
    expect((await takeNextJob(db, { owner: 'other-worker' }))?.id).toBe(theirs)

    expect(await releaseJobs(db, 'stopping-worker')).toBe(1)
    const rows = await db.selectFrom('analysis_jobs').select(['id', 'status', 'lease_owner', 'attempts']).orderBy('id').execute()
    expect(rows).toEqual([
      { id: mine, status: 'queued', lease_owner: null, attempts: 0 },
      { id: theirs, status: 'running', lease_owner: 'other-worker', attempts: 1 },
    ])
    // The stopping worker's late result is not stored; another worker takes the job at once.
    expect(await finishJob(db, { id: mine, owner: 'stopping-worker', error: 'late' })).toBe(false)
    expect((await takeNextJob(db, { owner: 'next-worker' }))?.id).toBe(mine)
  })
})

describe('a payout worker told to stop', () => {
  it('finishes the payout in hand and takes no further one', async () => {
    fakeChain()
    const clock = testClock()
    const ctx = workerContext(clock)
    const first = await userWithClaim(4_000)
    const second = await userWithClaim(5_000)
    const controller = new AbortController()
    // Stop as soon as the first payout is signed and stored: the pass sends it, then stops.
    const withStop = { ...ctx, log: (m: string) => (/signed/.test(m) ? controller.abort() : undefined) }
    expect(await runPayoutsOnce(withStop, controller.signal)).toBe(1)
    expect((await payoutRow(first.payoutId)).status).toBe('sent')
    expect((await payoutRow(first.payoutId)).lease_owner).toBeNull()
    expect((await payoutRow(second.payoutId)).status).toBe('pending')
    expect((await payoutRow(second.payoutId)).lease_owner).toBeNull()
  })
})

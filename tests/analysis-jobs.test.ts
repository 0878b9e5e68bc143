import { afterEach, describe, expect, it } from 'vitest'
import {
  cancelJob,
  enqueueAnalysis,
  finishJob,
  queuedAnalyzer,
  runAnalysisWorker,
  takeNextJob,
} from '../app/analysis/analysis-queue.server'
import { ReaderBusyError } from '../app/ocr/tesseract.server'
import { analyzeAndStore } from '../app/analysis/analyses.server'
import { type StoredAnalysis } from '../app/analysis/stored-analysis'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { noiseImage } from './utils/images'
import { bodyOf, jsonRequest, signInNewUser } from './utils/requests'

// Issue 12: receipt analysis on separate worker processes through the database.

const ctx = { context: {}, params: {} }
const analysis = (storeName: string): StoredAnalysis => ({
  isValid: true,
  storeName,
  category: 'ride_share',
  totalAmount: 12.5,
  purchaseDate: new Date().toISOString().slice(0, 10),
  confidence: 0.95,
  isAcceptable: true,
  needsManualReview: false,
  reasons: [],
})

async function jobRows() {
  return getDb().selectFrom('analysis_jobs').selectAll().execute()
}

afterEach(async () => {
  delete process.env.RECEIPT_ANALYSIS
  resetEnvCache()
  await getDb().deleteFrom('analysis_jobs').execute()
})

describe('the analysis job queue', () => {
  it('with RECEIPT_ANALYSIS=queue the API waits for a worker, which reads each photo once', async () => {
    process.env.RECEIPT_ANALYSIS = 'queue'
    resetEnvCache()
    const { user, cookie } = await signInNewUser()
    const controller = new AbortController()
    const analysed: number[] = []
    const worker = runAnalysisWorker(getDb(), {
      analyze: async (image) => {
        analysed.push(image.length)
        return analysis('Lyft')
      },
      signal: controller.signal,
      concurrency: 2,
      pollMs: 10,
    })
    try {
      const image = await noiseImage()
      const res = await validateAction({ ...ctx, request: jsonRequest('/api/receipts/validate', { image: `data:image/png;base64,${image.toString('base64')}` }, { headers: { Cookie: cookie } }) })
      expect(res.status).toBe(200)
      expect(await bodyOf(res)).toMatchObject({ storeName: 'Lyft', totalAmount: 12.5, isAcceptable: true })
      expect(analysed).toEqual([image.length])
      // The web keeps the analysis with the photo; the job row is gone.
      expect(await jobRows()).toHaveLength(0)
      const stored = await getDb().selectFrom('receipt_analyses').select('analysis_json').where('user_id', '=', user.id).execute()
      expect(stored).toHaveLength(1)
    } finally {
      controller.abort()
      await worker
    }
  })

  it('gives one job to one of several workers reaching for it at once', async () => {
    const { user } = await signInNewUser()
    await enqueueAnalysis(getDb(), { userId: user.id, image: Buffer.from('photo') })
    const taken = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((owner) => takeNextJob(getDb(), { owner })))
    expect(taken.filter(Boolean)).toHaveLength(1)
  })

  it('takes a job again after its worker died, and stores the result once', async () => {
    const { user } = await signInNewUser()
    const id = await enqueueAnalysis(getDb(), { userId: user.id, image: Buffer.from('photo') })
    const now = new Date()
    const first = await takeNextJob(getDb(), { owner: 'dead', now, leaseMs: 1000 })
    expect(first?.id).toBe(id)
    // Still leased: nobody else gets it.
    expect(await takeNextJob(getDb(), { owner: 'second', now: new Date(now.getTime() + 500) })).toBeNull()
    // The lease ran out: another worker takes it and stores its result.
    const again = await takeNextJob(getDb(), { owner: 'second', now: new Date(now.getTime() + 1500) })
    expect(again).toMatchObject({ id, attempts: 2 })
    expect(await finishJob(getDb(), { id, owner: 'second', analysis: analysis('Uber') })).toBe(true)
    // The first worker comes back to life: its late result is not stored.
    expect(await finishJob(getDb(), { id, owner: 'dead', analysis: analysis('Bolt') })).toBe(false)
    const [row] = await jobRows()
    expect(JSON.parse(row!.analysis_json!)).toMatchObject({ storeName: 'Uber' })
  })

  it('gives up on a photo after three workers died on it', async () => {
    const { user } = await signInNewUser()
    const id = await enqueueAnalysis(getDb(), { userId: user.id, image: Buffer.from('photo') })
    let t = Date.now()
    for (let i = 0; i < 3; i++) {
      expect(await takeNextJob(getDb(), { owner: `w${i}`, now: new Date((t += 2000)), leaseMs: 1000 })).toMatchObject({ id })
    }
    expect(await takeNextJob(getDb(), { owner: 'w4', now: new Date((t += 2000)), leaseMs: 1000 })).toBeNull()
    expect((await jobRows())[0]).toMatchObject({ status: 'failed' })
  })

  it('a job the web gave up on is not taken', async () => {
    const { user } = await signInNewUser()
    const id = await enqueueAnalysis(getDb(), { userId: user.id, image: Buffer.from('photo') })
    await cancelJob(getDb(), id)
    expect(await takeNextJob(getDb(), { owner: 'w' })).toBeNull()
  })

  it('falls back to manual review when no worker answers in time, and cancels the job', async () => {
    const { user } = await signInNewUser()
    const stored = await analyzeAndStore(getDb(), {
      userId: user.id,
      image: await noiseImage(),
      analyze: queuedAnalyzer(getDb(), user.id, { maxQueued: 10, pollMs: 10 }),
      timeoutMs: 200,
    })
    expect(stored.analysis).toMatchObject({ timeoutFallback: true, needsManualReview: true })
    expect((await jobRows())[0]).toMatchObject({ status: 'cancelled' })
  })

  it('refuses at once (503) when too many jobs are waiting', async () => {
    const { user } = await signInNewUser()
    for (let i = 0; i < 3; i++) await enqueueAnalysis(getDb(), { userId: user.id, image: Buffer.from('photo') })
    const analyze = queuedAnalyzer(getDb(), user.id, { maxQueued: 3 })
    await expect(analyze(Buffer.from('x'), { signal: new AbortController().signal })).rejects.toBeInstanceOf(ReaderBusyError)
    expect(await jobRows()).toHaveLength(3)
  })
})

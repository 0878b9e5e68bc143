import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createDb, type DB } from '../../db/db.server'
import { getBalanceMilli } from '../../app/rewards/ledger.server'
import { postgresAvailable, createDatabase, startTestPostgres, type TestPostgres } from '../setup/postgres'
import { receiptImage, todayUtc, writtenDate } from '../utils/images'
import { ADMIN_WALLET, createTestWallet, identificationCert, type TestWallet } from '../utils/wallet'
import { startAppServer, type AppServer } from './app-server'

// Issue 12: two app instances on one PostgreSQL database keep every exactly-once guarantee, with
// requests sent through both at once. Runs wherever PostgreSQL is installed (always on CI).

let pg: TestPostgres
let db: DB
let a: AppServer
let b: AppServer

describe.skipIf(!postgresAvailable())('two instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    pg = await startTestPostgres()
    const url = await createDatabase(pg.url, 'recircle_two_instances')
    // Both start at once: migrations take PostgreSQL's migration lock, the seed is idempotent.
    // VeBetter Passport on the suite's fake node counts these random wallets as people, so their
    // photos are paid at once as an established wallet's are (issue 31).
    const env = { DATABASE_URL: url, RATE_LIMITS_DISABLED: '1', THOR_NODE_URL: inject('thorUrl'), PASSPORT_CHECKS: 'on' }
    const started = await Promise.allSettled([startAppServer(env), startAppServer(env)])
    // One that failed must not leave the other running after the suite.
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed) {
      await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : null)))
      throw failed.reason
    }
    ;[a, b] = started.map((s) => (s as PromiseFulfilledResult<AppServer>).value)
    db = createDb(url, { poolSize: 2 })
  })
  afterAll(async () => {
    await db?.destroy()
    await Promise.all([a?.stop(), b?.stop()])
    pg?.stop()
  })

  const post = (app: AppServer, path: string, body: unknown, cookie?: string) =>
    fetch(app.baseUrl + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    })

  async function challenge(app: AppServer): Promise<string> {
    const res = await post(app, '/api/auth/challenge', {})
    expect(res.status).toBe(200)
    return ((await res.json()) as { content: string }).content
  }

  /** Sign in on `app`; the session cookie it sets. */
  async function signIn(app: AppServer, wallet: TestWallet): Promise<{ cookie: string; userId: number }> {
    const certificate = identificationCert(wallet, await challenge(app), 'localhost')
    const res = await post(app, '/api/auth/certificate', { certificate })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { user: { id: number } }
    return { cookie: res.headers.get('set-cookie')!.split(';')[0], userId: body.user.id }
  }

  it('accepts a challenge issued by one instance once on the other, and a session works on both', async () => {
    const wallet = createTestWallet()
    const certificate = identificationCert(wallet, await challenge(a), 'localhost')
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i % 2 ? a : b, '/api/auth/certificate', { certificate })))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401])
    const ok = answers.find((r) => r.status === 200)!
    const cookie = ok.headers.get('set-cookie')!.split(';')[0]
    const { user } = (await ok.json()) as { user: { id: number } }
    for (const app of [a, b]) {
      const me = await fetch(`${app.baseUrl}/api/users/${user.id}`, { headers: { Cookie: cookie } })
      expect(me.status).toBe(200)
    }
  })

  it('accepts 3 of 10 receipts submitted through both at once, and makes one claim of 20', async () => {
    const { cookie, userId } = await signIn(a, createTestWallet())
    const vendors = ['Uber', 'Lyft', 'Waymo', 'Uber', 'Lyft', 'Waymo', 'Uber', 'Lyft', 'Waymo', 'Uber']
    const images = await Promise.all(
      vendors.map((vendor, i) =>
        receiptImage({ vendor, lines: [['Trip fare', `$${10 + i}.40`], ['Booking fee', '$2.35']], total: `$${12 + i}.75`, date: writtenDate(todayUtc()) }),
      ),
    )
    const submissions = await Promise.all(
      images.map((image, i) =>
        post(i % 2 ? a : b, '/api/receipts', {
          image: `data:image/png;base64,${image.toString('base64')}`,
          storeId: '1',
          category: 'ride_share',
          amount: 12 + i + 0.75,
          purchaseDate: todayUtc(),
          userId,
        }, cookie),
      ),
    )
    const statuses = submissions.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
    const receipts = await db.selectFrom('receipts').select('id').where('user_id', '=', userId).execute()
    expect(receipts).toHaveLength(3)

    const milli = await getBalanceMilli(db, userId)
    expect(milli).toBeGreaterThan(0)
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(i % 2 ? a : b, '/api/token-redemption', { userId, amount: milli / 1000, type: 'claim_all_tokens' }, cookie),
      ),
    )
    expect(claims.filter((r) => r.status === 200)).toHaveLength(1)
    const rows = await db.selectFrom('transactions').select(['amount_milli']).where('user_id', '=', userId).where('type', '=', 'token_claim').execute()
    expect(rows).toEqual([{ amount_milli: -milli }])
    expect(await getBalanceMilli(db, userId)).toBe(0)
  }, 120_000)

  it('pays a store submission once when two admins approve it on different instances', async () => {
    const user = await signIn(b, createTestWallet())
    const submitted = await post(b, '/api/google-form-submission', { userId: user.userId, formType: 'store_submission' }, user.cookie)
    expect(submitted.status).toBeLessThan(300)
    const submission = await db.selectFrom('store_submissions').select('id').where('user_id', '=', user.userId).executeTakeFirstOrThrow()
    const [adminA, adminB] = [await signIn(a, ADMIN_WALLET), await signIn(b, ADMIN_WALLET)]
    const approvals = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(i % 2 ? a : b, `/api/admin/approve-submission/${submission.id}`, {}, i % 2 ? adminA.cookie : adminB.cookie),
      ),
    )
    expect(approvals.filter((r) => r.status === 200)).toHaveLength(1)
    const credits = await db
      .selectFrom('transactions')
      .select(['type', 'amount_milli'])
      .where('user_id', '=', user.userId)
      .where('store_submission_id', '=', submission.id)
      .execute()
    expect(credits.filter((c) => c.type === 'store_addition')).toEqual([{ type: 'store_addition', amount_milli: 10_000 }])
  })
})

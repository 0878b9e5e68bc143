import { beforeAll, describe, expect, it } from 'vitest'
import { createChallenge, signInRequest } from '../app/auth/auth.server'
import { attachReferral, rewardReferrerForFirstAcceptedReceipt } from '../app/referrals/referrals.server'
import { countActionsToday, takeActionSlot } from '../app/rewards/daily-limit.server'
import { getBalanceMilli, recordEntry } from '../app/rewards/ledger.server'
import { DAILY_LIMIT_MESSAGE } from '../app/rewards/daily-limit'
import { action as addStoreAction, loader as addStoreLoader } from '../app/routes/add-store'
import { action as adminPageAction, loader as adminPageLoader } from '../app/routes/admin.pending-submissions'
import { action as approveApi } from '../app/routes/api.admin.approve-submission.$id'
import { action as googleFormApi } from '../app/routes/api.google-form-submission'
import { loader as storeApi } from '../app/routes/api.thrift-stores.$id'
import { loader as storesApi } from '../app/routes/api.thrift-stores'
import { action as redemptionApi } from '../app/routes/api.token-redemption'
import { loader as transactionsApi } from '../app/routes/api.transactions'
import { loader as referralCodeApi } from '../app/routes/api.users.$id.referral-code'
import { loader as referralsApi } from '../app/routes/api.users.$id.referrals'
import { loader as joinLoader } from '../app/routes/join'
import { action as redeemAction, loader as redeemLoader } from '../app/routes/redeem'
import { loader as storeLoader } from '../app/routes/stores.$id'
import { loader as storesLoader } from '../app/routes/stores._index'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { BASE_URL, bodyOf, cookieFrom, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { ADMIN_WALLET, createTestWallet, identificationCert, walletFromKey } from './utils/wallet'

const SECOND_ADMIN = walletFromKey(Buffer.from('22'.repeat(32), 'hex'))

beforeAll(() => {
  process.env.ADMIN_WALLETS = `${ADMIN_WALLET.address},${SECOND_ADMIN.address}`
  resetEnvCache()
})

const ctx = { context: {} }

/** A loader/action result, or the Response it threw (requireUser/requireAdmin/404). */
async function settle(promise: Promise<Response>): Promise<Response> {
  try {
    return await promise
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

async function storesPage(search: string, cookie: string) {
  const res = await storesLoader({ ...ctx, params: {}, request: getRequest(`/stores${search}`, cookie) })
  return bodyOf(res) as Promise<{ stores: Array<{ id: number; name: string; city: string; state: string; distanceMiles: number | null }>; location: { label: string } | null }>
}

async function submitInApp(cookie: string, store: Record<string, string>) {
  return settle(addStoreAction({ ...ctx, params: {}, request: formRequest('/add-store', { intent: 'in-app', ...store }, cookie) }))
}

function approve(id: number, cookie: string) {
  return settle(approveApi({ ...ctx, params: { id: String(id) }, request: new Request(`${BASE_URL}/api/admin/approve-submission/${id}`, { method: 'POST', headers: { Cookie: cookie } }) }))
}

function claim(cookie: string, body: unknown) {
  return settle(redemptionApi({ ...ctx, params: {}, request: jsonRequest('/api/token-redemption', body, { headers: { 'Content-Type': 'application/json', Cookie: cookie } }) }))
}

async function ledger(userId: number) {
  return getDb().selectFrom('transactions').selectAll().where('user_id', '=', userId).orderBy('id').execute()
}

async function credit(userId: number, amountMilli: number, key: string) {
  await recordEntry(getDb(), {
    user_id: userId,
    type: 'receipt_verification',
    amount_milli: amountMilli,
    description: 'test credit',
    status: 'completed',
    tx_hash: null,
    idempotency_key: key,
    receipt_id: null,
    store_submission_id: null,
    referral_id: null,
  })
}

let storeCounter = 0
function newStore() {
  storeCounter += 1
  return { name: `Test Reuse Shop ${storeCounter} ${Date.now()}`, address: `${storeCounter} Test St`, city: 'Tucson', state: 'az', storeType: 'clothing' }
}

describe('stores', () => {
  it('searches name, city, state and address from the URL', async () => {
    const { cookie } = await signInNewUser()
    const phoenix = await storesPage('?q=phoenix', cookie)
    expect(phoenix.stores.length).toBeGreaterThanOrEqual(4)
    expect(phoenix.stores.every((s) => s.city === 'Phoenix')).toBe(true)
    const books = await storesPage('?q=BOOKS', cookie)
    expect(books.stores.map((s) => s.name)).toEqual(expect.arrayContaining(['Camelback Second Chapter Books', 'Harlem Used Books & Records']))
    expect((await storesPage('?q=Bowery', cookie)).stores.map((s) => s.name)).toContain('Bowery Second Look')
    expect((await storesPage('?q=CA', cookie)).stores.some((s) => s.state === 'CA')).toBe(true)
    expect((await storesPage('?q=no%20such%20store%20anywhere', cookie)).stores).toEqual([])
  })

  it('sorts by distance in miles from the given location, and from Phoenix without one', async () => {
    const { cookie } = await signInNewUser()
    const ny = await storesPage('?lat=40.7128&lng=-74.006', cookie)
    expect(ny.stores.slice(0, 4).every((s) => s.state === 'NY')).toBe(true)
    const known = ny.stores.filter((s) => s.distanceMiles !== null).map((s) => s.distanceMiles!)
    expect(known).toEqual([...known].sort((a, b) => a - b))
    expect(known[0]).toBeLessThan(5)
    const sf = await storesPage('?q=francisco&lat=37.7749&lng=-122.4194', cookie)
    expect(sf.stores[0]!.distanceMiles!).toBeLessThan(5)
    const fallback = await storesPage('?locate=1', cookie)
    expect(fallback.location?.label).toContain('Phoenix')
    expect(fallback.stores[0]!.city).toBe('Phoenix')
    const none = await storesPage('', cookie)
    expect(none.stores.every((s) => s.distanceMiles === null)).toBe(true)
  })

  it('serves the directory and one store over the API; a missing store is 404', async () => {
    const all = await bodyOf(await storesApi({ ...ctx, params: {}, request: getRequest('/api/thrift-stores') }))
    expect(all.length).toBeGreaterThanOrEqual(12)
    expect(all[0]).toEqual(expect.objectContaining({ id: expect.any(Number), name: expect.any(String), storeType: expect.any(String), verified: expect.any(Boolean) }))
    const one = await storeApi({ ...ctx, params: { id: String(all[0].id) }, request: getRequest(`/api/thrift-stores/${all[0].id}`) })
    expect((await bodyOf(one)).name).toBe(all[0].name)
    const missing = await storeApi({ ...ctx, params: { id: '999999' }, request: getRequest('/api/thrift-stores/999999') })
    expect(missing.status).toBe(404)
  })

  it('shows a store with Open Now or Closed and 404s a missing one', async () => {
    const { cookie } = await signInNewUser()
    const first = (await storesPage('?q=Desert', cookie)).stores[0]!
    const detail = await bodyOf(await storeLoader({ ...ctx, params: { id: String(first.id) }, request: getRequest(`/stores/${first.id}?tab=hours`, cookie) }))
    expect(detail.store.name).toBe('Desert Threads Thrift')
    expect(typeof detail.open).toBe('boolean')
    expect(detail.tab).toBe('hours')
    expect(detail.hours).toHaveLength(7)
    const missing = await settle(storeLoader({ ...ctx, params: { id: '999999' }, request: getRequest('/stores/999999', cookie) }))
    expect(missing.status).toBe(404)
  })
})

describe('daily action limit across receipts and store submissions', () => {
  it('refuses the 4th action of the day, whichever kind it is', async () => {
    const { user, cookie } = await signInNewUser()
    const db = getDb()
    for (let i = 0; i < 2; i++) {
      expect(await db.transaction().execute((trx) => takeActionSlot(trx, { userId: user.id, kind: 'receipt' }))).not.toBeNull()
    }
    const ok = await submitInApp(cookie, newStore())
    expect(ok.status).toBe(302)
    expect(await countActionsToday(db, user.id)).toBe(3)

    const page = await bodyOf(await addStoreLoader({ ...ctx, params: {}, request: getRequest('/add-store', cookie) }))
    expect(page.actionsToday).toBe(3)

    const refused = await submitInApp(cookie, newStore())
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await bodyOf(refused))).toContain(DAILY_LIMIT_MESSAGE)

    const api = await settle(googleFormApi({ ...ctx, params: {}, request: jsonRequest('/api/google-form-submission', { userId: user.id, formType: 'store_submission' }, { headers: { 'Content-Type': 'application/json', Cookie: cookie } }) }))
    expect(api.status).toBe(429)
    expect((await bodyOf(api)).message).toContain('Daily action limit reached')

    expect(await db.transaction().execute((trx) => takeActionSlot(trx, { userId: user.id, kind: 'receipt' }))).toBeNull()
    const rows = await db.selectFrom('store_submissions').select('id').where('user_id', '=', user.id).execute()
    expect(rows).toHaveLength(1)
  })

  it('counts store submissions against receipts too, and holds under 10 concurrent requests', async () => {
    const { user, cookie } = await signInNewUser()
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        settle(googleFormApi({ ...ctx, params: {}, request: jsonRequest('/api/google-form-submission', { userId: user.id, formType: 'store_submission' }, { headers: { 'Content-Type': 'application/json', Cookie: cookie } }) })),
      ),
    )
    const statuses = results.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(3)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
    expect((await bodyOf(results.find((r) => r.status === 200)!)).potentialReward).toBe(10)
    expect(await getDb().transaction().execute((trx) => takeActionSlot(trx, { userId: user.id, kind: 'receipt' }))).toBeNull()
  })

  it('records "I\'ve Completed The Form" from the add-store page as a pending external submission', async () => {
    const { user, cookie } = await signInNewUser()
    const res = await settle(addStoreAction({ ...ctx, params: {}, request: formRequest('/add-store', { intent: 'external-form-completed' }, cookie) }))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/add-store')
    const rows = await getDb().selectFrom('store_submissions').selectAll().where('user_id', '=', user.id).execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ source: 'external_form', status: 'pending', name: null })
    expect(await countActionsToday(getDb(), user.id)).toBe(1)
  })

  it("refuses another user's id on the form API", async () => {
    const { cookie } = await signInNewUser()
    const other = await signInNewUser()
    const res = await settle(googleFormApi({ ...ctx, params: {}, request: jsonRequest('/api/google-form-submission', { userId: other.user.id, formType: 'store_submission' }, { headers: { 'Content-Type': 'application/json', Cookie: cookie } }) }))
    expect(res.status).toBe(403)
  })
})

describe('store submission approval', () => {
  async function pendingInApp() {
    const submitter = await signInNewUser()
    const store = newStore()
    expect((await submitInApp(submitter.cookie, store)).status).toBe(302)
    const row = await getDb().selectFrom('store_submissions').selectAll().where('user_id', '=', submitter.user.id).executeTakeFirstOrThrow()
    return { submitter, store, submissionId: row.id }
  }

  it('pays once when 10 approvals by two admins race, publishes the store and audits once', async () => {
    const admin1 = await signInNewUser(ADMIN_WALLET)
    const admin2 = await signInNewUser(SECOND_ADMIN)
    const { submitter, store, submissionId } = await pendingInApp()

    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => approve(submissionId, (i % 2 ? admin1 : admin2).cookie)))
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(9)
    const winner = await bodyOf(results.find((r) => r.status === 200)!)
    expect(winner).toMatchObject({ success: true, reward: 13, storeAdditionReward: 10, firstStoreBonus: 3 })

    const entries = await ledger(submitter.user.id)
    expect(entries.map((e) => [e.type, e.amount_milli, e.idempotency_key]).sort()).toEqual(
      [
        ['achievement_reward', 3000, `achievement:${submitter.user.id}:first_store`],
        ['store_addition', 10000, `store_submission:${submissionId}`],
        ['sustainability_app', 3000, `store_submission:${submissionId}:sustainability_app`],
        ['sustainability_app', 900, `achievement:${submitter.user.id}:first_store:sustainability_app`],
      ].sort(),
    )
    expect(entries.find((e) => e.type === 'achievement_reward')?.description).toBe('Achievement Reward: first_store')
    expect(await getBalanceMilli(getDb(), submitter.user.id)).toBe(13000)

    const audit = await getDb().selectFrom('audit_log').selectAll().where('target_type', '=', 'store_submission').where('target_id', '=', submissionId).execute()
    expect(audit).toHaveLength(1)
    expect(audit[0]!.action).toBe('store_submission.approve')

    const published = await getDb().selectFrom('stores').selectAll().where('name', '=', store.name).executeTakeFirstOrThrow()
    expect(published).toMatchObject({ added_by_user_id: submitter.user.id, is_demo: 0, state: 'AZ', city: 'Tucson' })
    const list = await storesPage(`?q=${encodeURIComponent(store.name)}`, submitter.cookie)
    expect(list.stores).toHaveLength(1)

    // Approving again later is refused and pays nothing.
    expect((await approve(submissionId, admin1.cookie)).status).toBe(409)
    expect(await getBalanceMilli(getDb(), submitter.user.id)).toBe(13000)
  })

  it('pays the first-store bonus only for the first approved store', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const submitter = await signInNewUser()
    for (let i = 0; i < 2; i++) expect((await submitInApp(submitter.cookie, newStore())).status).toBe(302)
    const ids = (await getDb().selectFrom('store_submissions').select('id').where('user_id', '=', submitter.user.id).orderBy('id').execute()).map((r) => r.id)
    expect((await bodyOf(await approve(ids[0]!, admin.cookie))).reward).toBe(13)
    expect((await bodyOf(await approve(ids[1]!, admin.cookie))).reward).toBe(10)
    expect(await getBalanceMilli(getDb(), submitter.user.id)).toBe(23000)
  })

  it('rejects with a reason (audited, unpaid); a rejected submission cannot be approved', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const { submitter, submissionId } = await pendingInApp()
    const noReason = await settle(adminPageAction({ ...ctx, params: {}, request: formRequest('/admin/pending-submissions', { intent: 'reject', submissionId: String(submissionId), reason: '' }, admin.cookie) }))
    expect(noReason.status).toBe(400)

    const rejected = await settle(adminPageAction({ ...ctx, params: {}, request: formRequest('/admin/pending-submissions', { intent: 'reject', submissionId: String(submissionId), reason: 'Permanently closed' }, admin.cookie) }))
    expect(rejected.status).toBe(302)
    const row = await getDb().selectFrom('store_submissions').selectAll().where('id', '=', submissionId).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'rejected', reject_reason: 'Permanently closed', reviewed_by_user_id: admin.user.id })
    expect((await approve(submissionId, admin.cookie)).status).toBe(409)
    expect(await ledger(submitter.user.id)).toEqual([])
    const audit = await getDb().selectFrom('audit_log').select('action').where('target_id', '=', submissionId).where('target_type', '=', 'store_submission').execute()
    expect(audit.map((a) => a.action)).toEqual(['store_submission.reject'])
  })

  it('approves from the admin page form too', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const { submitter, submissionId } = await pendingInApp()
    const page = await bodyOf(await adminPageLoader({ ...ctx, params: {}, request: getRequest('/admin/pending-submissions', admin.cookie) }))
    expect(page.submissions.map((s: { id: number }) => s.id)).toContain(submissionId)
    const res = await settle(adminPageAction({ ...ctx, params: {}, request: formRequest('/admin/pending-submissions', { intent: 'approve', submissionId: String(submissionId) }, admin.cookie) }))
    expect(res.status).toBe(302)
    expect(await getBalanceMilli(getDb(), submitter.user.id)).toBe(13000)
  })

  it('lists pending submissions for admins; 404 for an unknown submission', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const { submissionId, submitter } = await pendingInApp()
    const list = await bodyOf(await transactionsApi({ ...ctx, params: {}, request: getRequest('/api/transactions?type=form_submission_pending', admin.cookie) }))
    expect(list).toContainEqual(expect.objectContaining({ id: submissionId, userId: submitter.user.id, createdAt: expect.any(String), description: expect.any(String) }))
    expect((await approve(99999999, admin.cookie)).status).toBe(404)
  })

  it('answers 403 to non-admins everywhere', async () => {
    const { cookie } = await signInNewUser()
    const { submissionId } = await pendingInApp()
    expect((await settle(transactionsApi({ ...ctx, params: {}, request: getRequest('/api/transactions?type=form_submission_pending', cookie) }))).status).toBe(403)
    expect((await approve(submissionId, cookie)).status).toBe(403)
    expect((await settle(adminPageLoader({ ...ctx, params: {}, request: getRequest('/admin/pending-submissions', cookie) }))).status).toBe(403)
    const form = await settle(adminPageAction({ ...ctx, params: {}, request: formRequest('/admin/pending-submissions', { intent: 'approve', submissionId: String(submissionId) }, cookie) }))
    expect(form.status).toBe(403)
    const row = await getDb().selectFrom('store_submissions').select('status').where('id', '=', submissionId).executeTakeFirstOrThrow()
    expect(row.status).toBe('pending')
    // Signed out: 401 on the API.
    expect((await approve(submissionId, '')).status).toBe(401)
  })
})

describe('referrals', () => {
  async function signInWithCookie(cookie: string, wallet = createTestWallet()) {
    const { content } = await createChallenge(getDb())
    const request = new Request(`${BASE_URL}/api/auth/certificate`, { method: 'POST', headers: { Cookie: cookie } })
    const result = await signInRequest(request, identificationCert(wallet, content, 'localhost'))
    if (!result.ok) throw new Error(result.error)
    return { ...result, wallet }
  }

  it('keeps ?ref from /join in a cookie and attaches it to a new user at first sign-in, once', async () => {
    const referrer = await signInNewUser()
    const join = await joinLoader({ ...ctx, params: {}, request: getRequest(`/join?ref=${referrer.user.referralCode.toLowerCase()}`) })
    expect((await bodyOf(join)).code).toBe(referrer.user.referralCode)
    const refCookie = cookieFrom(join.headers.get('Set-Cookie'))
    expect(join.headers.get('Set-Cookie')).toMatch(/HttpOnly/i)

    const friend = await signInWithCookie(refCookie)
    expect(friend.created).toBe(true)
    const referral = await getDb().selectFrom('referrals').selectAll().where('referred_user_id', '=', friend.user.id).executeTakeFirstOrThrow()
    expect(referral).toMatchObject({ referrer_user_id: referrer.user.id, code: referrer.user.referralCode, rewarded_at: null })
    const row = await getDb().selectFrom('users').select('referred_by_user_id').where('id', '=', friend.user.id).executeTakeFirstOrThrow()
    expect(row.referred_by_user_id).toBe(referrer.user.id)

    // Signing in again with another code changes nothing; neither does attaching a second code.
    const other = await signInNewUser()
    const otherJoin = await joinLoader({ ...ctx, params: {}, request: getRequest(`/join?ref=${other.user.referralCode}`) })
    const again = await signInWithCookie(cookieFrom(otherJoin.headers.get('Set-Cookie')), friend.wallet)
    expect(again.created).toBe(false)
    expect(await attachReferral(getDb(), { userId: friend.user.id, code: other.user.referralCode })).toEqual({ ok: false, reason: 'already_referred' })
    const all = await getDb().selectFrom('referrals').selectAll().where('referred_user_id', '=', friend.user.id).execute()
    expect(all).toHaveLength(1)
    expect(all[0]!.referrer_user_id).toBe(referrer.user.id)

    const count = await bodyOf(await referralsApi({ ...ctx, params: { id: String(referrer.user.id) }, request: getRequest(`/api/users/${referrer.user.id}/referrals`, referrer.cookie) }))
    expect(count).toMatchObject({ count: 1 })
  })

  it('refuses self-referral and unknown codes; an existing user never takes a code', async () => {
    const self = await signInNewUser()
    expect(await attachReferral(getDb(), { userId: self.user.id, code: self.user.referralCode })).toEqual({ ok: false, reason: 'self_referral' })
    expect(await attachReferral(getDb(), { userId: self.user.id, code: 'ZZZZ9999' })).toEqual({ ok: false, reason: 'unknown_code' })
    const join = await joinLoader({ ...ctx, params: {}, request: getRequest('/join?ref=ZZZZ9999') })
    expect(join.headers.get('Set-Cookie')).toBeNull()
    expect((await bodyOf(join)).invalid).toBe(true)

    // An existing user signing in with their own code in the cookie: no referral.
    const ownJoin = await joinLoader({ ...ctx, params: {}, request: getRequest(`/join?ref=${self.user.referralCode}`) })
    const again = await signInWithCookie(cookieFrom(ownJoin.headers.get('Set-Cookie')), self.wallet)
    expect(again.created).toBe(false)
    expect(await getDb().selectFrom('referrals').selectAll().where('referred_user_id', '=', self.user.id).execute()).toEqual([])
  })

  it('rewards the referrer 15 B3TR once for the first accepted receipt, also when called concurrently', async () => {
    const referrer = await signInNewUser()
    const friend = await signInNewUser()
    expect(await attachReferral(getDb(), { userId: friend.user.id, code: referrer.user.referralCode })).toMatchObject({ ok: true })
    const db = getDb()
    const now = new Date()
    const results = await Promise.all(Array.from({ length: 5 }, () => db.transaction().execute((trx) => rewardReferrerForFirstAcceptedReceipt(trx, friend.user.id, now))))
    expect(results.filter((r) => r.rewarded)).toHaveLength(1)
    expect(await db.transaction().execute((trx) => rewardReferrerForFirstAcceptedReceipt(trx, friend.user.id, new Date()))).toEqual({ rewarded: false })
    expect(await getBalanceMilli(db, referrer.user.id)).toBe(15000)
    expect(await getBalanceMilli(db, friend.user.id)).toBe(0)
    const entries = await ledger(referrer.user.id)
    expect(entries.filter((e) => e.type === 'referral_reward')).toHaveLength(1)
    const referral = await db.selectFrom('referrals').selectAll().where('referred_user_id', '=', friend.user.id).executeTakeFirstOrThrow()
    expect(entries.find((e) => e.type === 'referral_reward')?.idempotency_key).toBe(`referral:${referral.id}`)
    expect(referral.rewarded_at).not.toBeNull()
    const stats = await bodyOf(await referralsApi({ ...ctx, params: { id: String(referrer.user.id) }, request: getRequest(`/api/users/${referrer.user.id}/referrals`, referrer.cookie) }))
    expect(stats).toEqual({ count: 1, rewarded: 1 })
    // A user nobody referred: nothing happens.
    expect(await db.transaction().execute((trx) => rewardReferrerForFirstAcceptedReceipt(trx, referrer.user.id, new Date()))).toEqual({ rewarded: false })
  })

  it("serves the user's own referral code and refuses another user's", async () => {
    const me = await signInNewUser()
    const other = await signInNewUser()
    const mine = await referralCodeApi({ ...ctx, params: { id: String(me.user.id) }, request: getRequest(`/api/users/${me.user.id}/referral-code`, me.cookie) })
    expect(await bodyOf(mine)).toEqual({ referralCode: me.user.referralCode })
    const theirs = await settle(referralCodeApi({ ...ctx, params: { id: String(other.user.id) }, request: getRequest(`/api/users/${other.user.id}/referral-code`, me.cookie) }))
    expect(theirs.status).toBe(403)
    const count = await settle(referralsApi({ ...ctx, params: { id: String(other.user.id) }, request: getRequest(`/api/users/${other.user.id}/referrals`, me.cookie) }))
    expect(count.status).toBe(403)
  })
})

describe('claiming', () => {
  it('makes one claim of the whole balance out of 10 concurrent requests, leaving exactly 0', async () => {
    const { user, cookie } = await signInNewUser()
    await credit(user.id, 12345, `test:${user.id}:a`)
    const results = await Promise.all(Array.from({ length: 10 }, () => claim(cookie, { userId: user.id, amount: 12.345, type: 'claim_all_tokens' })))
    const ok = results.filter((r) => r.status === 200)
    expect(ok).toHaveLength(1)
    expect(await bodyOf(ok[0]!)).toMatchObject({ success: true, claim: { amount: 12.345, status: 'pending', txHash: null }, balance: 0 })
    for (const r of results.filter((r) => r.status !== 200)) expect([400, 409]).toContain(r.status)
    expect(await getBalanceMilli(getDb(), user.id)).toBe(0)

    const claims = (await ledger(user.id)).filter((e) => e.type === 'token_claim')
    expect(claims).toHaveLength(1)
    expect(claims[0]).toMatchObject({ amount_milli: -12345, status: 'pending', tx_hash: null, idempotency_key: `claim:${user.id}:1` })
    const payouts = await getDb().selectFrom('payouts').selectAll().where('user_id', '=', user.id).execute()
    expect(payouts).toHaveLength(1)
    expect(payouts[0]).toMatchObject({ transaction_id: claims[0]!.id, amount_milli: 12345, status: 'pending', tx_hash: null })

    const empty = await claim(cookie, { userId: user.id, amount: 12.345, type: 'claim_all_tokens' })
    expect(empty.status).toBe(400)
    expect((await bodyOf(empty)).message).toBe("You don't have any tokens to redeem.")

    // New earnings can be claimed again, under a new key.
    await credit(user.id, 2000, `test:${user.id}:b`)
    expect((await claim(cookie, { userId: user.id, amount: 2, type: 'claim_all_tokens' })).status).toBe(200)
    expect(await getBalanceMilli(getDb(), user.id)).toBe(0)
    const keys = (await ledger(user.id)).filter((e) => e.type === 'token_claim').map((e) => e.idempotency_key)
    expect(keys).toEqual([`claim:${user.id}:1`, `claim:${user.id}:2`])
  })

  it('refuses an amount that is not the balance, another user, and a wrong type', async () => {
    const { user, cookie } = await signInNewUser()
    const other = await signInNewUser()
    await credit(user.id, 5000, `test:${user.id}:c`)
    const less = await claim(cookie, { userId: user.id, amount: 4, type: 'claim_all_tokens' })
    expect(less.status).toBe(409)
    const more = await claim(cookie, { userId: user.id, amount: 5.001, type: 'claim_all_tokens' })
    expect(more.status).toBe(409)
    expect((await claim(cookie, { userId: other.user.id, amount: 5, type: 'claim_all_tokens' })).status).toBe(403)
    expect((await claim(cookie, { userId: user.id, amount: 5, type: 'send' })).status).toBe(400)
    expect((await claim('', { userId: user.id, amount: 5, type: 'claim_all_tokens' })).status).toBe(401)
    expect(await getBalanceMilli(getDb(), user.id)).toBe(5000)
    expect((await ledger(user.id)).filter((e) => e.type === 'token_claim')).toEqual([])
  })

  it('claims from the /redeem form once under concurrency and lists the claim', async () => {
    const { user, cookie } = await signInNewUser()
    await credit(user.id, 7500, `test:${user.id}:d`)
    const results = await Promise.all(
      Array.from({ length: 10 }, () => settle(redeemAction({ ...ctx, params: {}, request: formRequest('/redeem', { intent: 'claim_all_tokens', amountMilli: '7500' }, cookie) }))),
    )
    expect(results.every((r) => r.status === 302)).toBe(true)
    const page = await bodyOf(await redeemLoader({ ...ctx, params: {}, request: getRequest('/redeem', cookie) }))
    expect(page.balanceMilli).toBe(0)
    expect(page.claims).toHaveLength(1)
    expect(page.claims[0]).toMatchObject({ amountMilli: 7500, status: 'pending', payoutStatus: 'pending', txHash: null })
  })
})

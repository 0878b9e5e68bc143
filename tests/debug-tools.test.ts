import { createRequestHandler } from '@remix-run/node'
import { mnemonic } from 'thor-devkit'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createChallenge, signInWithCertificate } from '../app/auth/auth.server'
import { purgeOldDebugLogs } from '../app/debug/debug-logs.server'
import { walletTestContent } from '../app/debug/wallet-test'
import { recordEntry } from '../app/rewards/ledger.server'
import * as adminDebugLogs from '../app/routes/admin.debug-logs'
import * as adminDebugTools from '../app/routes/admin.debug-tools'
import * as apiDebugLogs from '../app/routes/api.debug-logs'
import * as apiWalletVerify from '../app/routes/api.debug.wallet-verify'
import * as debugConsole from '../app/routes/debug'
import * as diagnostics from '../app/routes/diagnostics'
import * as logoShowcase from '../app/routes/logo-showcase'
import * as walletTest from '../app/routes/wallet-test'
import { getDb } from '../app/utils/db.server'
import { resetEnvCache } from '../app/utils/env.server'
import { BASE_URL, bodyOf, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { buildOf } from './utils/remix-build'
import { ADMIN_WALLET, createTestWallet, identificationCert } from './utils/wallet'

const ctx = { context: {}, params: {} }
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (args: any) => Promise<Response>

/** Every debug page and endpoint behind ENABLE_DEBUG_TOOLS + admin, as [name, handler, request]. */
const GATED: Array<[string, Handler, (cookie?: string) => Request]> = [
  ['GET /admin/debug-tools', adminDebugTools.loader, (c) => getRequest('/admin/debug-tools', c)],
  ['POST /admin/debug-tools (reset)', adminDebugTools.action, (c) => formRequest('/admin/debug-tools', { intent: 'reset-user', userId: '1' }, c)],
  ['GET /debug', debugConsole.loader, (c) => getRequest('/debug', c)],
  ['GET /wallet-test', walletTest.loader, (c) => getRequest('/wallet-test', c)],
  ['POST /wallet-test', walletTest.action, (c) => formRequest('/wallet-test', { certificate: '{}' }, c)],
  ['POST /api/debug/wallet-verify', apiWalletVerify.action, (c) => jsonRequest('/api/debug/wallet-verify', { certificate: {} }, { headers: c ? { Cookie: c } : {} })],
]

const TOUCHED = ['ENABLE_DEBUG_TOOLS', 'RECIRCLE_TEST_MODE', 'SESSION_SECRET', 'PAYOUT_PRIVATE_KEY', 'PAYOUT_MNEMONIC', 'VEBETTER_APP_ID', 'DATABASE_URL', 'THOR_NODE_URL']
const saved = Object.fromEntries(TOUCHED.map((k) => [k, process.env[k]]))

/** undefined removes a variable. */
function setEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  resetEnvCache()
}

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  resetEnvCache()
})

beforeAll(() => {
  // The database is opened before any test changes DATABASE_URL (it is kept per process).
  getDb()
})

/** A handler's answer, thrown or returned. */
async function answer(handler: Handler, request: Request): Promise<Response> {
  try {
    return await handler({ ...ctx, request })
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

const handle = createRequestHandler(
  buildOf([
    ['routes/admin.debug-tools', 'admin/debug-tools', adminDebugTools],
    ['routes/logo-showcase', 'logo-showcase', logoShowcase],
  ]),
  'production',
)

describe('debug tools off (the default): 404 for everyone', () => {
  it.each(GATED)('%s', async (_name, handler, request) => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const user = await signInNewUser()
    for (const cookie of [admin.cookie, user.cookie, undefined]) {
      expect((await answer(handler, request(cookie))).status).toBe(404)
    }
  })

  it('renders the not-found page for /admin/debug-tools', async () => {
    const admin = await signInNewUser(ADMIN_WALLET)
    const res = await handle(getRequest('/admin/debug-tools', admin.cookie))
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('404 Page Not Found')
  })
})

describe('debug tools on: admins only', () => {
  it.each(GATED)('%s: 403 for a signed-in non-admin', async (_name, handler, request) => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1' })
    const user = await signInNewUser()
    expect((await answer(handler, request(user.cookie))).status).toBe(403)
  })

  it.each(GATED.filter(([name]) => name.startsWith('GET')))('%s: 200 for an admin', async (_name, handler, request) => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1' })
    const admin = await signInNewUser(ADMIN_WALLET)
    expect((await answer(handler, request(admin.cookie))).status).toBe(200)
  })

  it('sends a visitor without a session to connect a wallet', async () => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1' })
    const res = await answer(adminDebugTools.loader, getRequest('/admin/debug-tools'))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toMatch(/^\/connect-wallet/)
  })
})

describe('/admin/debug-tools server configuration', () => {
  const appId = '0x' + 'ab'.repeat(32)
  const dbPassword = 'Db-Pa55word-9f8e7d'
  const databaseUrl = `postgres://recircle:${dbPassword}@db.internal:5432/recircle`
  const sessionSecret = 'session-secret-for-the-mask-test-0123456789abcdef'

  async function pageOf(vars: Record<string, string | undefined>) {
    setEnv({ ENABLE_DEBUG_TOOLS: '1', SESSION_SECRET: sessionSecret, DATABASE_URL: databaseUrl, VEBETTER_APP_ID: appId, ...vars })
    // Signed in after SESSION_SECRET changed: the session cookie is signed with it.
    const admin = await signInNewUser(ADMIN_WALLET)
    const data = JSON.stringify(await bodyOf(await adminDebugTools.loader({ ...ctx, request: getRequest('/admin/debug-tools', admin.cookie) })))
    const res = await handle(getRequest('/admin/debug-tools', admin.cookie))
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Admin Debug Tools')
    return { data, html }
  }

  function expectAbsent(haystacks: string[], secrets: string[]) {
    for (const haystack of haystacks) for (const secret of secrets) expect(haystack.includes(secret), `leaked ${secret.slice(0, 4)}…`).toBe(false)
  }

  it('never shows the session secret, the payout key or the database password', async () => {
    const payoutKey = 'c0ffee'.repeat(10) + 'beef'
    const { data, html } = await pageOf({ PAYOUT_PRIVATE_KEY: `0x${payoutKey}`, PAYOUT_MNEMONIC: undefined })
    expectAbsent([data, html], [sessionSecret, payoutKey, payoutKey.slice(0, 16), dbPassword, 'c0ffeec0ffee'])
    expect(data).toContain('SESSION_SECRET')
    expect(data).toContain('set (•••• 64 characters)')
    expect(html).toContain('postgres://••••@db.internal:5432/recircle')
  })

  it('never shows the payout mnemonic, not even two words of it', async () => {
    const words = mnemonic.generate()
    const { data, html } = await pageOf({ PAYOUT_MNEMONIC: words.join(' '), PAYOUT_PRIVATE_KEY: undefined })
    const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`)
    expectAbsent([data, html], [words.join(' '), ...pairs, sessionSecret, dbPassword])
    expect(data).toContain('set (•••• 12 words)')
  })
})

describe('POST /api/debug-logs', () => {
  const body = (logs: string[], extra: Record<string, unknown> = {}) => ({
    logs,
    userAgent: 'Mozilla/5.0 (test)',
    timestamp: new Date().toISOString(),
    testType: 'debug-console',
    ...extra,
  })
  const post = (payload: unknown, cookie?: string) =>
    answer(apiDebugLogs.action, jsonRequest('/api/debug-logs', payload, { headers: cookie ? { Cookie: cookie } : {} }))

  it('takes a signed-in user’s own log with debug tools off, and admins read it', async () => {
    const user = await signInNewUser()
    const line = `wallet step failed ${Date.now()}`
    const res = await post(body(['[INFO] capture started', line]), user.cookie)
    expect(res.status).toBe(201)
    expect((await bodyOf(res)).message).toMatch(/2 lines were sent to support/)

    const admin = await signInNewUser(ADMIN_WALLET)
    const list = await bodyOf(await adminDebugLogs.loader({ ...ctx, request: getRequest('/admin/debug-logs', admin.cookie) }))
    expect(list.logs).toContainEqual(expect.objectContaining({ userId: user.user.id, testType: 'debug-console', lines: ['[INFO] capture started', line] }))
    expect((await answer(adminDebugLogs.loader, getRequest('/admin/debug-logs', user.cookie))).status).toBe(403)
  })

  it('refuses a visitor without a session (401) and a GET (405)', async () => {
    expect((await post(body(['x']))).status).toBe(401)
    expect((await apiDebugLogs.loader()).status).toBe(405)
  })

  it.each([
    ['201 lines', body(Array(201).fill('x')), 413],
    ['a 2,001-character line', body(['x'.repeat(2001)]), 413],
    ['a body over 64 kB', body(Array(40).fill('y'.repeat(1900))), 413],
    ['logs that are not a list', body([], { logs: 'everything' }), 400],
    ['an empty log', body([]), 400],
  ])('refuses %s with a 4xx and a message', async (_name, payload, status) => {
    const user = await signInNewUser()
    const res = await post(payload, user.cookie)
    expect(res.status).toBe(status)
    expect((await bodyOf(res)).message).toBeTruthy()
  })

  it('refuses a body that is not JSON with 400', async () => {
    const user = await signInNewUser()
    const request = new Request(`${BASE_URL}/api/debug-logs`, { method: 'POST', headers: { Cookie: user.cookie, 'Content-Type': 'application/json' }, body: '{"logs": [' })
    expect((await answer(apiDebugLogs.action, request)).status).toBe(400)
  })

  it('takes 5 logs per user per hour, then answers 429 with Retry-After', async () => {
    const user = await signInNewUser()
    for (let i = 0; i < 5; i++) expect((await post(body([`log ${i}`]), user.cookie)).status).toBe(201)
    const refused = await post(body(['one too many']), user.cookie)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((await bodyOf(refused)).message).toMatch(/Too many requests/)
    // Another user has their own allowance.
    expect((await post(body(['mine']), (await signInNewUser()).cookie)).status).toBe(201)
  })

  it('purges logs older than 30 days', async () => {
    const user = await signInNewUser()
    const db = getDb()
    const insert = (createdAt: Date) =>
      db.insertInto('debug_logs').values({ user_id: user.user.id, user_agent: null, test_type: null, client_timestamp: null, lines_json: '["x"]', line_count: 1, created_at: createdAt.toISOString() }).returning('id').executeTakeFirstOrThrow()
    const old = await insert(new Date(Date.now() - 31 * 86_400_000))
    const recent = await insert(new Date(Date.now() - 29 * 86_400_000))
    expect(await purgeOldDebugLogs(db)).toBeGreaterThanOrEqual(1)
    const left = await db.selectFrom('debug_logs').select('id').where('id', 'in', [old.id, recent.id]).execute()
    expect(left.map((r) => r.id)).toEqual([recent.id])
  })
})

describe('server reset of a user', () => {
  async function userWithHistory() {
    const target = await signInNewUser()
    const db = getDb()
    const receipt = (hash: string) =>
      db
        .insertInto('receipts')
        .values({
          user_id: target.user.id, image_hash: `${hash}-${target.user.id}`, image_phash: null, image: null, image_mime: null, store_name: 'Uber',
          category: 'ride_share', amount_cents: 1200, purchase_date: '2026-01-01', user_store_id: null, user_category: null,
          user_amount_cents: null, user_purchase_date: null, analysis_json: '{}', status: 'approved', review_reasons_json: null,
          reject_reason: null, reward_milli: 8000, reward_details_json: null, reviewed_by_user_id: null, reviewed_at: null,
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    const rewarded = await receipt('rewarded')
    const unrewarded = await receipt('unrewarded')
    await recordEntry(db, {
      user_id: target.user.id, type: 'receipt_verification', amount_milli: 8000, description: 'Receipt reward', status: 'completed',
      tx_hash: null, idempotency_key: `reset-test:${target.user.id}`, receipt_id: rewarded.id, store_submission_id: null, referral_id: null,
    })
    return { target, rewarded, unrewarded }
  }

  it('is refused outside test mode (403 with a message) and changes nothing', async () => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1', RECIRCLE_TEST_MODE: '' })
    const { target } = await userWithHistory()
    const admin = await signInNewUser(ADMIN_WALLET)
    const res = await answer(adminDebugTools.action, formRequest('/admin/debug-tools', { intent: 'reset-user', userId: String(target.user.id) }, admin.cookie))
    expect(res.status).toBe(403)
    expect(JSON.stringify(await bodyOf(res))).toContain('only available when the server runs in test mode')
    const receipts = await getDb().selectFrom('receipts').select('id').where('user_id', '=', target.user.id).execute()
    expect(receipts).toHaveLength(2)
  })

  it('in test mode removes receipts and sessions, keeps every ledger entry and the receipts they point at, and is audited', async () => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1', RECIRCLE_TEST_MODE: '1' })
    const { target, rewarded } = await userWithHistory()
    const db = getDb()
    const ledgerBefore = await db.selectFrom('transactions').selectAll().where('user_id', '=', target.user.id).orderBy('id').execute()
    expect(ledgerBefore.length).toBeGreaterThan(0)
    const admin = await signInNewUser(ADMIN_WALLET)
    const res = await answer(adminDebugTools.action, formRequest('/admin/debug-tools', { intent: 'reset-user', userId: String(target.user.id) }, admin.cookie))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/admin/debug-tools')

    expect(await db.selectFrom('transactions').selectAll().where('user_id', '=', target.user.id).orderBy('id').execute()).toEqual(ledgerBefore)
    const receipts = await db.selectFrom('receipts').select('id').where('user_id', '=', target.user.id).execute()
    expect(receipts.map((r) => r.id)).toEqual([rewarded.id])
    expect(await db.selectFrom('sessions').select('id').where('user_id', '=', target.user.id).execute()).toEqual([])
    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'debug_reset_user').where('target_id', '=', target.user.id).execute()
    expect(audit).toHaveLength(1)
    expect(JSON.parse(audit[0].details_json ?? '{}')).toMatchObject({ receiptsDeleted: 1, receiptsKept: 1, sessionsDeleted: 1 })
  })

  it.each([
    ['', 400],
    ['abc', 400],
    ['-3', 400],
    ['999999999', 404],
  ])('in test mode answers user ID %j with %i', async (userId, status) => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1', RECIRCLE_TEST_MODE: '1' })
    const admin = await signInNewUser(ADMIN_WALLET)
    const res = await answer(adminDebugTools.action, formRequest('/admin/debug-tools', { intent: 'reset-user', userId }, admin.cookie))
    expect(res.status).toBe(status)
  })
})

describe('wallet test verification', () => {
  const verify = (certificate: unknown, cookie: string) =>
    answer(apiWalletVerify.action, jsonRequest('/api/debug/wallet-verify', { certificate }, { headers: { Cookie: cookie } }))

  it('verifies a wallet-test certificate with the sign-in checks, without signing in', async () => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1' })
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = createTestWallet()
    const cert = identificationCert(wallet, walletTestContent('ab'.repeat(16)), 'localhost')
    const res = await verify(cert, admin.cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('Set-Cookie')).toBeNull()
    const result = await bodyOf(res)
    expect(result).toMatchObject({ ok: true, signer: wallet.address.toLowerCase() })
    expect(result.checks.map((c: { ok: boolean }) => c.ok)).toEqual([true, true, true])
    // The test certificate can never sign anyone in.
    const signIn = await signInWithCertificate(getDb(), cert, { requestHostname: 'localhost', allowedDomains: [] })
    expect(signIn.ok).toBe(false)
    expect(await getDb().selectFrom('users').select('id').where('wallet_address', '=', wallet.address.toLowerCase()).execute()).toEqual([])
  })

  it.each([
    ['another domain', (w: ReturnType<typeof createTestWallet>) => identificationCert(w, walletTestContent('cd'.repeat(16)), 'evil.example'), /another domain/],
    ['an old timestamp', (w: ReturnType<typeof createTestWallet>) => identificationCert(w, walletTestContent('cd'.repeat(16)), 'localhost', new Date(Date.now() - 3_600_000)), /timestamp/],
    ['a forged signer', (w: ReturnType<typeof createTestWallet>) => ({ ...identificationCert(w, walletTestContent('cd'.repeat(16)), 'localhost'), signer: createTestWallet().address }), /does not verify/],
    ['a malformed certificate', () => ({ purpose: 'identification' }), /missing or malformed/],
  ])('refuses %s (422) and says why', async (_name, make, message) => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1' })
    const admin = await signInNewUser(ADMIN_WALLET)
    const res = await verify(make(createTestWallet()), admin.cookie)
    expect(res.status).toBe(422)
    expect((await bodyOf(res)).error).toMatch(message)
  })

  it('does not check (or consume) a real sign-in challenge', async () => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1' })
    const admin = await signInNewUser(ADMIN_WALLET)
    const wallet = createTestWallet()
    const { content } = await createChallenge(getDb())
    const cert = identificationCert(wallet, content, 'localhost')
    const res = await verify(cert, admin.cookie)
    expect(res.status).toBe(422)
    expect((await bodyOf(res)).error).toMatch(/Not a wallet-test message/)
    const signIn = await signInWithCertificate(getDb(), cert, { requestHostname: 'localhost', allowedDomains: [] })
    expect(signIn.ok).toBe(true)
  })

  it('verifies a pasted certificate without JavaScript (form post)', async () => {
    setEnv({ ENABLE_DEBUG_TOOLS: '1' })
    const admin = await signInNewUser(ADMIN_WALLET)
    const cert = identificationCert(createTestWallet(), walletTestContent('ef'.repeat(16)), 'localhost')
    const ok = await answer(walletTest.action, formRequest('/wallet-test', { certificate: JSON.stringify(cert) }, admin.cookie))
    expect(ok.status).toBe(200)
    expect((await bodyOf(ok)).ok).toBe(true)
    const bad = await answer(walletTest.action, formRequest('/wallet-test', { certificate: 'not json' }, admin.cookie))
    expect(bad.status).toBe(400)
  })
})

describe('pages for everyone else', () => {
  it('/logo-showcase is public and shows every variant and size', async () => {
    const res = await handle(getRequest('/logo-showcase'))
    expect(res.status).toBe(200)
    const html = await res.text()
    for (const label of ['Original', 'Integrated', 'Earth gradient', 'Earth solid']) expect(html).toContain(label)
    for (const size of ['sm · 32 px', 'md · 64 px', 'lg · 128 px']) expect(html.replace(/<!-- -->/g, '')).toContain(size)
  })

  it('/diagnostics is for any signed-in user, with debug tools off', async () => {
    const user = await signInNewUser()
    expect((await answer(diagnostics.loader, getRequest('/diagnostics', user.cookie))).status).toBe(200)
    expect((await answer(diagnostics.loader, getRequest('/diagnostics'))).status).toBe(302)
  })
})

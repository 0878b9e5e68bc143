import { describe, expect, it } from 'vitest'
import { action as certificateAction } from '../app/routes/api.auth.certificate'
import { action as challengeAction } from '../app/routes/api.auth.challenge'
import { action as logoutAction } from '../app/routes/api.auth.logout'
import { loader as userLoader } from '../app/routes/api.users.$id'
import { loader as walletLoader } from '../app/routes/api.users.wallet.$address'
import { loader as walletAddressesLoader } from '../app/routes/api.wallet-addresses'
import { action as walletFormAction } from '../app/routes/auth.wallet'
import { getDb } from '../app/utils/db.server'
import { bodyOf, cookieFrom, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { createTestWallet, identificationCert, signCertificate } from './utils/wallet'

const ctx = { context: {}, params: {} }

async function challenge() {
  const res = await challengeAction({ ...ctx, request: new Request('http://localhost:3000/api/auth/challenge', { method: 'POST' }) })
  expect(res.status).toBe(200)
  return (await res.json()) as { content: string; expiresAt: string }
}

async function postCertificate(certificate: unknown, host = 'localhost:3000') {
  return certificateAction({
    ...ctx,
    request: jsonRequest('/api/auth/certificate', { certificate }, { headers: { Host: host } }),
  })
}

describe('POST /api/auth/challenge', () => {
  it('returns single-use content with a nonce that expires in 5 minutes', async () => {
    const before = Date.now()
    const { content, expiresAt } = await challenge()
    expect(content).toMatch(/Nonce: [0-9a-f]{32}/)
    const ttl = new Date(expiresAt).getTime() - before
    expect(ttl).toBeGreaterThan(4.9 * 60_000)
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 1000)
  })
})

describe('POST /api/auth/certificate', () => {
  it('signs a new wallet in, creates the user and sets an httpOnly session cookie', async () => {
    const wallet = createTestWallet()
    const { content } = await challenge()
    const res = await postCertificate(identificationCert(wallet, content, 'localhost'))
    expect(res.status).toBe(200)
    const body = await bodyOf(res)
    expect(body.user).toMatchObject({ walletAddress: wallet.address.toLowerCase(), tokenBalance: 0, currentStreak: 0 })
    expect(body.user.id).toEqual(expect.any(Number))
    const setCookie = res.headers.get('Set-Cookie')!
    expect(setCookie).toMatch(/__session=/)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    expect(setCookie).not.toMatch(/Secure/i)

    // The session identifies the user.
    const me = await userLoader({ ...ctx, params: { id: String(body.user.id) }, request: getRequest(`/api/users/${body.user.id}`, cookieFrom(setCookie)) })
    expect((await bodyOf(me)).walletAddress).toBe(wallet.address.toLowerCase())
  })

  it('marks the cookie Secure behind https', async () => {
    const wallet = createTestWallet()
    const { content } = await challenge()
    const res = await certificateAction({
      ...ctx,
      request: new Request('https://recircle.test/api/auth/certificate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ certificate: identificationCert(wallet, content, 'recircle.test') }),
      }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('Set-Cookie')).toMatch(/Secure/i)
  })

  it('signs the same wallet in again as the same user', async () => {
    const wallet = createTestWallet()
    const first = await bodyOf(await postCertificate(identificationCert(wallet, (await challenge()).content, 'localhost')))
    const second = await bodyOf(await postCertificate(identificationCert(wallet, (await challenge()).content, 'localhost')))
    expect(second.user.id).toBe(first.user.id)
  })

  it('accepts a configured APP_DOMAINS entry', async () => {
    const res = await postCertificate(identificationCert(createTestWallet(), (await challenge()).content, 'recircle.test'))
    expect(res.status).toBe(200)
  })

  type Breaker = (args: { wallet: ReturnType<typeof createTestWallet>; content: string }) => unknown
  const now = () => Math.floor(Date.now() / 1000)
  const cases: [string, Breaker][] = [
    ['content changed after signing', ({ wallet, content }) => ({ ...identificationCert(wallet, content, 'localhost'), payload: { type: 'text', content: content + ' ' } })],
    ['content with an unknown nonce', ({ wallet }) => identificationCert(wallet, `Nonce: ${'a'.repeat(32)}`, 'localhost')],
    ['another domain', ({ wallet, content }) => identificationCert(wallet, content, 'evil.example')],
    ['a timestamp 10 minutes old', ({ wallet, content }) => signCertificate(wallet, { purpose: 'identification', payload: { type: 'text', content }, domain: 'localhost', timestamp: now() - 600 })],
    ['purpose agreement', ({ wallet, content }) => signCertificate(wallet, { purpose: 'agreement', payload: { type: 'text', content }, domain: 'localhost', timestamp: now() })],
    ['a signer that did not sign', ({ wallet, content }) => ({ ...identificationCert(wallet, content, 'localhost'), signer: createTestWallet().address })],
    ['flipped signature bytes', ({ wallet, content }) => {
      const cert = identificationCert(wallet, content, 'localhost')
      return { ...cert, signature: cert.signature.slice(0, 20) + (cert.signature[20] === '0' ? '1' : '0') + cert.signature.slice(21) }
    }],
    ['a missing signature', ({ wallet, content }) => {
      const { signature: _s, ...rest } = identificationCert(wallet, content, 'localhost')
      return rest
    }],
    ['missing fields', () => ({ purpose: 'identification' })],
    ['no certificate at all', () => undefined],
  ]

  it.each(cases)('answers 401 for %s', async (_name, breaker) => {
    const wallet = createTestWallet()
    const { content } = await challenge()
    const res = await postCertificate(breaker({ wallet, content }))
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ error: expect.any(String) })
    expect(res.headers.get('Set-Cookie')).toBeNull()
  })

  it('refuses a replayed certificate (nonce used once)', async () => {
    const cert = identificationCert(createTestWallet(), (await challenge()).content, 'localhost')
    expect((await postCertificate(cert)).status).toBe(200)
    expect((await postCertificate(cert)).status).toBe(401)
  })

  it('refuses an expired challenge', async () => {
    const wallet = createTestWallet()
    const { content } = await challenge()
    const nonce = /Nonce: (\w+)/.exec(content)![1]
    await getDb().updateTable('auth_challenges').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('nonce', '=', nonce).execute()
    expect((await postCertificate(identificationCert(wallet, content, 'localhost'))).status).toBe(401)
  })

  it('signs in once when the same certificate is posted 10 times at once', async () => {
    const cert = identificationCert(createTestWallet(), (await challenge()).content, 'localhost')
    const statuses = await Promise.all(Array.from({ length: 10 }, () => postCertificate(cert).then((r) => r.status)))
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 401)).toHaveLength(9)
  })

  it('answers 400 to a body that is not JSON', async () => {
    const res = await certificateAction({
      ...ctx,
      request: new Request('http://localhost:3000/api/auth/certificate', { method: 'POST', body: 'nope' }),
    })
    expect(res.status).toBe(400)
  })
})

describe('HTML form sign-in (/auth/wallet)', () => {
  it('uses the same certificate check and redirects with the session cookie', async () => {
    const wallet = createTestWallet()
    const { content } = await challenge()
    const res = await walletFormAction({
      ...ctx,
      request: formRequest('/auth/wallet', {
        intent: 'connect',
        certificate: JSON.stringify(identificationCert(wallet, content, 'localhost')),
        redirectTo: '/profile',
      }),
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/profile')
    expect(res.headers.get('Set-Cookie')).toMatch(/__session=/)
  })

  it('answers 401 for a bad certificate and 400 without one', async () => {
    const bad = await walletFormAction({
      ...ctx,
      request: formRequest('/auth/wallet', { intent: 'connect', certificate: JSON.stringify({ purpose: 'identification' }) }),
    })
    expect(bad.status).toBe(401)
    const none = await walletFormAction({ ...ctx, request: formRequest('/auth/wallet', { intent: 'connect' }) })
    expect(none.status).toBe(400)
  })

  it('never redirects off-site', async () => {
    const { content } = await challenge()
    const res = await walletFormAction({
      ...ctx,
      request: formRequest('/auth/wallet', {
        intent: 'connect',
        certificate: JSON.stringify(identificationCert(createTestWallet(), content, 'localhost')),
        redirectTo: '//evil.example/phish',
      }),
    })
    expect(res.headers.get('Location')).toBe('/home')
  })
})

describe('user lookups', () => {
  it('GET /api/users/{id}: 401 without a session, 403 for another user', async () => {
    const alice = await signInNewUser()
    const bob = await signInNewUser()
    const anon = await userLoader({ ...ctx, params: { id: String(alice.user.id) }, request: getRequest('/api/users/1') }).catch((r) => r)
    expect(anon.status).toBe(401)
    const other = await userLoader({ ...ctx, params: { id: String(alice.user.id) }, request: getRequest('/x', bob.cookie) }).catch((r) => r)
    expect(other.status).toBe(403)
    const own = await userLoader({ ...ctx, params: { id: String(alice.user.id) }, request: getRequest('/x', alice.cookie) })
    expect(own.status).toBe(200)
  })

  it('GET /api/users/wallet/{address}: own address only', async () => {
    const alice = await signInNewUser()
    const bob = await signInNewUser()
    const own = await walletLoader({ ...ctx, params: { address: alice.wallet.address.toUpperCase().replace('0X', '0x') }, request: getRequest('/x', alice.cookie) })
    expect((await bodyOf(own)).id).toBe(alice.user.id)
    const other = await walletLoader({ ...ctx, params: { address: alice.wallet.address }, request: getRequest('/x', bob.cookie) })
    expect(other.status).toBe(403)
    const anon = await walletLoader({ ...ctx, params: { address: alice.wallet.address }, request: getRequest('/x') }).catch((r) => r)
    expect(anon.status).toBe(401)
  })

  it('GET /api/wallet-addresses falls back to the zero address', async () => {
    const res = await walletAddressesLoader()
    expect(await res.json()).toEqual({
      creatorFundWallet: '0x0000000000000000000000000000000000000000',
      appFundWallet: '0x0000000000000000000000000000000000000000',
    })
  })

  it('logout ends the session', async () => {
    const alice = await signInNewUser()
    const res = await logoutAction({ ...ctx, request: new Request('http://localhost:3000/api/auth/logout', { method: 'POST', headers: { Cookie: alice.cookie } }) })
    expect(res.status).toBe(200)
    const after = await userLoader({ ...ctx, params: { id: String(alice.user.id) }, request: getRequest('/x', alice.cookie) }).catch((r) => r)
    expect(after.status).toBe(401)
  })
})

describe('displayed streak', () => {
  it('shows a streak that ended before yesterday as 0', async () => {
    const { displayStreak } = await import('../app/users/users.server')
    const now = new Date('2026-11-21T10:00:00Z')
    expect(displayStreak({ currentStreak: 4, lastStreakDay: '2026-11-21' }, now)).toBe(4)
    expect(displayStreak({ currentStreak: 4, lastStreakDay: '2026-11-20' }, now)).toBe(4)
    expect(displayStreak({ currentStreak: 4, lastStreakDay: '2026-11-19' }, now)).toBe(0)
    expect(displayStreak({ currentStreak: 0, lastStreakDay: null }, now)).toBe(0)
  })
})

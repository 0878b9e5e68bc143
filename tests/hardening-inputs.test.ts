import { describe, expect, it } from 'vitest'
import { action as challengeAction } from '../app/routes/api.auth.challenge'
import { action as submitAction } from '../app/routes/api.receipts'
import { action as validateAction } from '../app/routes/api.receipts.validate'
import { action as redemptionAction } from '../app/routes/api.token-redemption'
import { action as walletFormAction } from '../app/routes/auth.wallet'
import { loader as connectWalletLoader } from '../app/routes/connect-wallet'
import { bodyOf, formRequest, getRequest, jsonRequest, signInNewUser } from './utils/requests'
import { createTestWallet, identificationCert } from './utils/wallet'

// Issue 10: hostile inputs get a 4xx with a message or a safe redirect, never a 500.
const ctx = { context: {}, params: {} }

/** A thrown Response is an answer too; anything else thrown is a 500. */
async function settle(promise: Promise<Response>): Promise<Response> {
  return promise.catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown
    throw thrown
  })
}

async function freshCertificate() {
  const res = await challengeAction({ ...ctx, request: new Request('http://localhost:3000/api/auth/challenge', { method: 'POST' }) })
  const { content } = (await res.json()) as { content: string }
  return JSON.stringify(identificationCert(createTestWallet(), content, 'localhost'))
}

describe('sign-in form redirectTo', () => {
  it.each([
    ['a tab after the slash', '/\t/evil.com'],
    ['an encoded tab after the slash', '/%09/evil.com'],
    ['CR LF', '/\r\n/evil.com'],
    ['a header injection', '/home\r\nSet-Cookie: evil=1'],
    ['an encoded CR LF', '/%0d%0a/evil.com'],
    ['a backslash', '/\\evil.com'],
    ['a dot segment to a double slash', '/.//evil.com'],
  ])('redirects to /home for %s', async (_name, redirectTo) => {
    const request = formRequest('/auth/wallet', { intent: 'connect', certificate: await freshCertificate(), redirectTo })
    const res = await settle(walletFormAction({ ...ctx, request }))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/home')
    expect(res.headers.get('Set-Cookie')).toMatch(/__session=/)
  })

  it('still returns to a same-site page', async () => {
    const request = formRequest('/auth/wallet', { intent: 'connect', certificate: await freshCertificate(), redirectTo: '/transactions?page=2' })
    const res = await walletFormAction({ ...ctx, request })
    expect(res.headers.get('Location')).toBe('/transactions?page=2')
  })

  it('the connect page sends a signed-in user to / instead of an encoded tab path', async () => {
    const { cookie } = await signInNewUser()
    const loaded = connectWalletLoader({ ...ctx, request: getRequest('/connect-wallet?redirectTo=%2F%09%2Fevil.com', cookie) })
    const res = await settle(loaded as Promise<never>)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/')
  })
})

describe('receipt API with a malformed data URL', () => {
  it.each([
    ['/api/receipts/validate', validateAction],
    ['/api/receipts', submitAction],
  ] as const)('%s answers 400 with a message', async (path, action) => {
    const { user, cookie } = await signInNewUser()
    const request = jsonRequest(path, { image: 'data:image/png,%', userId: user.id }, { headers: { Cookie: cookie } })
    const res = await settle(action({ ...ctx, request }))
    expect(res.status).toBe(400)
    expect((await bodyOf(res)).error).toEqual(expect.any(String))
  })
})

describe('POST /api/token-redemption with an amount out of range', () => {
  it.each([1e13, 1e300, Number.MAX_SAFE_INTEGER, 9007199254740.998])('answers 400 with a message for %d', async (amount) => {
    const { user, cookie } = await signInNewUser()
    const request = jsonRequest('/api/token-redemption', { userId: user.id, amount, type: 'claim_all_tokens' }, { headers: { Cookie: cookie } })
    const res = await settle(redemptionAction({ ...ctx, request }))
    expect(res.status).toBe(400)
    expect((await bodyOf(res)).message).toEqual(expect.any(String))
  })

  it('answers 400 for an amount that JSON reads as Infinity', async () => {
    const { user, cookie } = await signInNewUser()
    const request = new Request('http://localhost:3000/api/token-redemption', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: `{"userId":${user.id},"amount":1e400,"type":"claim_all_tokens"}`,
    })
    const res = await settle(redemptionAction({ ...ctx, request }))
    expect(res.status).toBe(400)
    expect((await bodyOf(res)).message).toEqual(expect.any(String))
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DEVICE_CODE_TTL_MS } from '../app/auth/device-code'
import { hashDeviceSecret, purgeExpiredDeviceCodes } from '../app/auth/device-code.server'
import { createSession, getSessionUser } from '../app/auth/session.server'
import { action as codeAction, loader as codeLoader } from '../app/routes/connect-wallet_.code'
import { action as deviceAction, loader as deviceLoader } from '../app/routes/device'
import { getDb } from '../app/utils/db.server'
import { useTestEnv } from './utils/env'
import { BASE_URL, bodyOf, cookieFrom, formRequest, getRequest, signInNewUser } from './utils/requests'

// Issue 40: sign in with a code. The asking browser (no wallet, maybe no JavaScript) gets a code and
// a device secret in a cookie; a signed-in wallet confirms the code on /device; Continue signs in once.

useTestEnv({
  RATE_LIMITS_DISABLED: '',
  RATE_LIMIT_DEVICE_CODE_PER_IP_PER_HOUR: '3',
  RATE_LIMIT_DEVICE_ENTRY_PER_IP_PER_HOUR: '6',
  RATE_LIMIT_DEVICE_ENTRY_PER_USER_PER_HOUR: '4',
  RATE_LIMIT_DEVICE_ENTRY_PER_CODE: '3',
  RATE_LIMIT_DEVICE_CONTINUE_PER_IP_PER_MINUTE: '3',
})

const MINUTE = 60_000
/** 10:00:05 UTC today: the rate-limit windows (minute, hour) do not turn over during a test. */
const T0 = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 10 * 60 * MINUTE + 5_000
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
let ipCounter = 0
/** A fresh client address per use, so no two tests share a counter by accident. */
const newIp = () => `198.51.100.${++ipCounter}`
const args = (request: Request, ip?: string) => ({ request, params: {}, context: ip ? { clientIp: ip } : {} })
/** Loaders and actions throw redirects and 429s: treat them as answers. */
const settle = (p: Promise<Response>) => p.catch((r: unknown) => (r instanceof Response ? r : Promise.reject(r)))
const setCookies = (res: Response) => res.headers.getSetCookie()
const cookieNamed = (res: Response, name: string) => setCookies(res).find((c) => c.startsWith(`${name}=`))

/** The asking browser presses "Sign in with a code"; returns its device cookie and the code it shows. */
async function askForCode(opts: { ip?: string; redirectTo?: string; origin?: string } = {}) {
  const origin = opts.origin ?? BASE_URL
  const request = new Request(`${origin}/connect-wallet/code`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': ANDROID_CHROME },
    body: new URLSearchParams({ intent: 'new', ...(opts.redirectTo ? { redirectTo: opts.redirectTo } : {}) }),
  })
  const res = await settle(codeAction(args(request, opts.ip)))
  expect(res.status).toBe(302)
  expect(res.headers.get('Location')).toBe('/connect-wallet/code')
  const setCookie = cookieNamed(res, '__device')!
  const deviceCookie = cookieFrom(setCookie)
  const page = await showCodePage(deviceCookie, origin)
  return { deviceCookie, setCookie, userCode: page.code.userCode as string, page }
}

async function showCodePage(cookie?: string, origin = BASE_URL) {
  const request = new Request(`${origin}/connect-wallet/code`, { headers: cookie ? { Cookie: cookie } : {} })
  return bodyOf(await settle(codeLoader(args(request))))
}

/** The signed-in wallet on /device: look a code up, or confirm or deny it. */
const enter = (walletCookie: string, code: string, intent: 'lookup' | 'approve' | 'deny' = 'lookup', ip?: string) =>
  settle(deviceAction(args(formRequest('/device', { code, intent }, walletCookie), ip)))

const pressContinue = (deviceCookie?: string, ip?: string, fields: Record<string, string> = {}) =>
  settle(codeAction(args(formRequest('/connect-wallet/code', { intent: 'continue', ...fields }, deviceCookie), ip)))

async function codeError(res: Response): Promise<string | undefined> {
  return (await bodyOf(res)).reply.error?.code?.[0]
}
async function formError(res: Response): Promise<string | undefined> {
  const body = await bodyOf(res)
  return (body.reply ?? body).error?.['']?.[0]
}

describe('asking for a code', () => {
  it('shows a XXXX-XXXX code, the /device address, and keeps only a hash of the device secret', async () => {
    const { setCookie, deviceCookie, userCode, page } = await askForCode()
    expect(userCode).toMatch(/^[BCDFGHJKMNPRSTVWXZ3479]{4}-[BCDFGHJKMNPRSTVWXZ3479]{4}$/)
    expect(page.code.state).toBe('pending')
    expect(page.deviceUrl).toBe('http://localhost:3000/device')
    expect(new Date(page.code.expiresAt).getTime() - T0).toBe(DEVICE_CODE_TTL_MS)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    expect(setCookie).toMatch(/Path=\/connect-wallet/)
    expect(setCookie).not.toMatch(/Secure/i)

    const row = await getDb().selectFrom('device_codes').selectAll().where('user_code', '=', userCode.replace('-', '')).executeTakeFirstOrThrow()
    // The cookie holds the signed secret (Remix: base64 JSON, a dot, the signature); the row its sha256 alone.
    const signed = decodeURIComponent(deviceCookie.slice('__device='.length))
    const secret = JSON.parse(Buffer.from(signed.slice(0, signed.lastIndexOf('.')), 'base64').toString('utf8')) as string
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(row.secret_hash).toBe(hashDeviceSecret(secret))
    expect(Object.values(row).join(' ')).not.toContain(secret)
    expect(row).toMatchObject({ status: 'pending', user_id: null, requester_user_agent: ANDROID_CHROME, redirect_to: '/home' })
  })

  it('marks the device cookie Secure behind https', async () => {
    const { setCookie } = await askForCode({ origin: 'https://recircle.test' })
    expect(setCookie).toMatch(/Secure/i)
  })

  it('a browser without the cookie is offered a code, a signed-in one goes home', async () => {
    expect((await showCodePage()).code).toBeNull()
    const { cookie } = await signInNewUser()
    const res = await settle(codeLoader(args(getRequest('/connect-wallet/code', cookie))))
    expect(res.headers.get('Location')).toBe('/home')
  })

  it('is rate-limited per address', async () => {
    const ip = newIp()
    for (let i = 0; i < 3; i++) await askForCode({ ip })
    const request = formRequest('/connect-wallet/code', { intent: 'new' })
    const res = await settle(codeAction(args(request, ip)))
    expect(res.status).toBe(429)
    expect(res.headers.get('Retry-After')).toBe(String(60 * 60 - 5))
    expect(await formError(res)).toBe('Too many requests. Please try again in 60 minutes.')
    await askForCode({ ip: newIp() })
  })
})

describe('/device', () => {
  it('needs a signed-in wallet, like the other gated pages', async () => {
    const res = await settle(deviceLoader(args(getRequest('/device'))))
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/connect-wallet?redirectTo=%2Fdevice')
    const post = await enter('', 'BCDF-GHJK')
    expect(post.headers.get('Location')).toBe('/connect-wallet?redirectTo=%2Fdevice')
  })

  it('shows which browser asks, when and from where, for the code typed in lower case without the dash', async () => {
    const ip = newIp()
    const { userCode } = await askForCode({ ip })
    const { cookie } = await signInNewUser()
    vi.setSystemTime(T0 + 3 * MINUTE)
    const res = await enter(cookie, `  ${userCode.replace('-', '').toLowerCase()} `)
    expect(res.status).toBe(200)
    const at = new Date(T0).toISOString().slice(11, 16)
    expect((await bodyOf(res)).asking).toEqual({ userCode, browser: 'Chrome on Android', askedAt: `3 minutes ago (${at} UTC)`, address: ip })
  })

  it.each([
    ['a code nobody was given', 'BCDF-GHJK'],
    ['a code with a look-alike character', 'BCDF-GHJ0'],
    ['a code too short', 'BCD'],
  ])('refuses %s: "That code is not valid"', async (_, code) => {
    const { cookie } = await signInNewUser()
    const res = await enter(cookie, code)
    expect(res.status).toBe(400)
    expect(await codeError(res)).toBe('That code is not valid. Check it and try again.')
  })
})

describe('the whole flow', () => {
  it('works once: Not confirmed yet, Confirm, Continue signs in with the certificate session cookie, then the code is used', async () => {
    const phone = await askForCode({ redirectTo: '/scan' })
    const { cookie: walletCookie, user } = await signInNewUser()

    const early = await pressContinue(phone.deviceCookie)
    expect(early.status).toBe(400)
    expect(await formError(early)).toMatch(/^Not confirmed yet\./)
    expect(cookieNamed(early, '__session')).toBeUndefined()

    const confirmed = await enter(walletCookie, phone.userCode, 'approve')
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.get('Location')).toBe('/device?result=approved')
    expect(await bodyOf(await deviceLoader(args(getRequest('/device?result=approved', walletCookie))))).toEqual({ result: 'approved' })
    expect((await showCodePage(phone.deviceCookie)).code.state).toBe('approved')

    const signedIn = await pressContinue(phone.deviceCookie)
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.get('Location')).toBe('/scan')
    const session = cookieNamed(signedIn, '__session')!
    const me = await getSessionUser(getDb(), getRequest('/', cookieFrom(session)))
    expect(me?.id).toBe(user.id)
    // The same attributes as a certificate sign-in's session cookie (one function makes both).
    const attributes = (c: string) => c.split('; ').slice(1).filter((a) => !a.startsWith('Expires=')).sort()
    expect(attributes(session)).toEqual(attributes(await createSession(getDb(), new Request(BASE_URL), user.id)))
    expect(cookieNamed(signedIn, '__device')).toMatch(/Max-Age=0/)

    // Once: the same browser again, and the code typed again on /device.
    const again = await pressContinue(phone.deviceCookie)
    expect(await formError(again)).toBe('This code was already used. Get a new code to sign in again.')
    expect(await codeError(await enter(walletCookie, phone.userCode))).toBe('That code was already used.')
  })

  it('another browser that knows only the user code cannot redeem it', async () => {
    const phone = await askForCode()
    const { cookie: walletCookie } = await signInNewUser()
    await enter(walletCookie, phone.userCode, 'approve')

    const noCookie = await pressContinue(undefined, undefined, { code: phone.userCode })
    expect(await formError(noCookie)).toBe('This browser has no sign-in code. Get a new code to sign in.')
    expect(cookieNamed(noCookie, '__session')).toBeUndefined()
    // An unsigned cookie with a made-up secret is no cookie.
    const forged = await pressContinue(`__device=${'A'.repeat(43)}`)
    expect(await formError(forged)).toBe('This browser has no sign-in code. Get a new code to sign in.')
    // Another browser with a code of its own gets its own code's answer.
    const attacker = await askForCode()
    expect(await formError(await pressContinue(attacker.deviceCookie, undefined, { code: phone.userCode }))).toMatch(/^Not confirmed yet\./)

    expect((await pressContinue(phone.deviceCookie)).status).toBe(302)
  })

  it('Deny: the asking browser is told, and the code cannot be confirmed afterwards', async () => {
    const phone = await askForCode()
    const { cookie: walletCookie } = await signInNewUser()
    const denied = await enter(walletCookie, phone.userCode, 'deny')
    expect(denied.headers.get('Location')).toBe('/device?result=denied')
    const res = await pressContinue(phone.deviceCookie)
    expect(await formError(res)).toBe('The sign-in was denied on the other device. Get a new code if that was a mistake.')
    expect((await showCodePage(phone.deviceCookie)).code.state).toBe('denied')
    expect(await codeError(await enter(walletCookie, phone.userCode, 'approve'))).toBe('That code was already used.')
    // A new code for the same browser replaces the cookie.
    const fresh = await askForCode()
    expect(fresh.userCode).not.toBe(phone.userCode)
  })

  it('expires after 10 minutes, undecided or confirmed', async () => {
    const undecided = await askForCode()
    const confirmed = await askForCode()
    const { cookie: walletCookie } = await signInNewUser()
    vi.setSystemTime(T0 + 9 * MINUTE)
    expect((await enter(walletCookie, confirmed.userCode, 'approve')).status).toBe(302)

    vi.setSystemTime(T0 + DEVICE_CODE_TTL_MS)
    expect(await codeError(await enter(walletCookie, undecided.userCode))).toBe('That code has expired. Ask for a new one on the other device.')
    expect(await formError(await pressContinue(confirmed.deviceCookie))).toBe('This code has expired. Get a new code to try again.')
    expect((await showCodePage(undecided.deviceCookie)).code.state).toBe('expired')
  })

  it('keeps a same-site redirectTo and drops any other', async () => {
    const { cookie: walletCookie } = await signInNewUser()
    for (const [redirectTo, expected] of [
      ['/redeem?x=1', '/redeem?x=1'],
      ['//evil.example', '/home'],
      ['https://evil.example/', '/home'],
    ]) {
      const phone = await askForCode({ redirectTo })
      await enter(walletCookie, phone.userCode, 'approve')
      expect((await pressContinue(phone.deviceCookie)).headers.get('Location')).toBe(expected)
    }
  })
})

describe('rate limits on /device and Continue', () => {
  it('counts every entry per signed-in wallet', async () => {
    const { cookie } = await signInNewUser()
    for (let i = 0; i < 4; i++) expect((await enter(cookie, 'BCDF-GHJK', 'lookup', newIp())).status).toBe(400)
    const res = await enter(cookie, 'BCDF-GHJK', 'lookup', newIp())
    expect(res.status).toBe(429)
    expect(await formError(res)).toBe('Too many requests. Please try again in 60 minutes.')
  })

  it('counts every entry per address', async () => {
    const ip = newIp()
    const first = await signInNewUser()
    const second = await signInNewUser()
    for (let i = 0; i < 3; i++) await enter(first.cookie, 'BCDF-GHJK', 'lookup', ip)
    for (let i = 0; i < 3; i++) await enter(second.cookie, 'BCDF-GHJK', 'lookup', ip)
    const third = await signInNewUser()
    expect((await enter(third.cookie, 'BCDF-GHJK', 'lookup', ip)).status).toBe(429)
    expect((await enter(third.cookie, 'BCDF-GHJK', 'lookup', newIp())).status).toBe(400)
  })

  it('counts entries of one existing code, whoever types it', async () => {
    const phone = await askForCode()
    for (let i = 0; i < 3; i++) {
      const { cookie } = await signInNewUser()
      expect((await enter(cookie, phone.userCode, 'lookup', newIp())).status).toBe(200)
    }
    const { cookie } = await signInNewUser()
    const res = await enter(cookie, phone.userCode, 'approve', newIp())
    expect(res.status).toBe(429)
    expect((await showCodePage(phone.deviceCookie)).code.state).toBe('pending')
  })

  it('counts Continue presses per address', async () => {
    const ip = newIp()
    const phone = await askForCode()
    for (let i = 0; i < 3; i++) expect((await pressContinue(phone.deviceCookie, ip)).status).toBe(400)
    const res = await pressContinue(phone.deviceCookie, ip)
    expect(res.status).toBe(429)
    expect(await formError(res)).toBe('Too many requests. Please try again in 55 seconds.')
  })
})

describe('housekeeping', () => {
  it('deletes codes a day past their expiry, and keeps younger ones', async () => {
    const old = await askForCode()
    vi.setSystemTime(T0 + 24 * 60 * MINUTE + DEVICE_CODE_TTL_MS + 1)
    const young = await askForCode()
    expect(await purgeExpiredDeviceCodes(getDb())).toBeGreaterThanOrEqual(1)
    const codes = (await getDb().selectFrom('device_codes').select('user_code').execute()).map((r) => r.user_code)
    expect(codes).not.toContain(old.userCode.replace('-', ''))
    expect(codes).toContain(young.userCode.replace('-', ''))
  })
})

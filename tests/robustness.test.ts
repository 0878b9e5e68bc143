import { describe, expect, it } from 'vitest'
import { signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

// Every HTML form action answers a body that is not a form with a 4xx, never a 500.
const ACTIONS: [string, () => Promise<{ action: (args: never) => Promise<Response> }>, boolean][] = [
  ['/feedback', () => import('../app/routes/feedback'), false],
  ['/auth/wallet', () => import('../app/routes/auth.wallet'), false],
  ['/scan', () => import('../app/routes/scan/route'), false],
  ['/redeem', () => import('../app/routes/redeem'), false],
  ['/add-store', () => import('../app/routes/add-store'), false],
  ['/invite-friend', () => import('../app/routes/invite-friend'), false],
  ['/profile', () => import('../app/routes/profile'), false],
  ['/admin/receipts', () => import('../app/routes/admin.receipts/route'), true],
  ['/admin/pending-submissions', () => import('../app/routes/admin.pending-submissions'), true],
]

const BODIES: [string, Record<string, string>, string][] = [
  ['broken JSON', { 'Content-Type': 'application/json' }, '{bad'],
  ['broken multipart', { 'Content-Type': 'multipart/form-data; boundary=zzz' }, 'garbage'],
  ['no content type', {}, 'a=b'],
]

describe('form actions with a body that is not a form', () => {
  it.each(ACTIONS.flatMap(([path, load, admin]) => BODIES.map(([name, headers, body]) => [path, name, load, admin, headers, body] as const)))(
    '%s with %s answers 4xx',
    async (path, _name, load, admin, headers, body) => {
      const { cookie } = await signInNewUser(admin ? ADMIN_WALLET : undefined)
      const { action } = await load()
      const request = new Request(`http://localhost:3000${path}`, { method: 'POST', headers: { ...headers, Cookie: cookie }, body })
      const response = await action({ request, params: {}, context: {} } as never).catch((r: unknown) => r)
      expect(response).toBeInstanceOf(Response)
      const status = (response as Response).status
      expect(status >= 400 && status < 500, `status ${status}`).toBe(true)
    },
  )
})

const PAGES: [string, () => Promise<{ loader: (args: never) => Promise<Response> }>, Record<string, string>][] = [
  ['/stores/abc', () => import('../app/routes/stores.$id'), { id: 'abc' }],
  ['/stores/99999999', () => import('../app/routes/stores.$id'), { id: '99999999' }],
  ['/scan/receipts/abc', () => import('../app/routes/scan_.receipts.$id'), { id: 'abc' }],
  ['/scan/image/abc', () => import('../app/routes/scan_.image.$analysisId'), { analysisId: 'abc' }],
  ['/scan?analysis=abc', () => import('../app/routes/scan/route'), {}],
  ['/rewards?period=abc', () => import('../app/routes/rewards'), {}],
  ['/transactions?page=-5&q=%25', () => import('../app/routes/transactions'), {}],
  ['/profile?show=abc', () => import('../app/routes/profile'), {}],
  ['/api/users/abc/transactions?period=zz', () => import('../app/routes/api.users.$id.transactions'), { id: 'abc' }],
]

describe('pages with odd parameters', () => {
  it.each(PAGES)('%s answers 200 or a 4xx', async (path, load, params) => {
    const { cookie } = await signInNewUser()
    const { loader } = await load()
    const request = new Request(`http://localhost:3000${path}`, { headers: { Cookie: cookie } })
    const response = await loader({ request, params, context: {} } as never).catch((r: unknown) => r)
    expect(response).toBeInstanceOf(Response)
    const status = (response as Response).status
    expect(status === 200 || (status >= 400 && status < 500), `status ${status}`).toBe(true)
  })
})

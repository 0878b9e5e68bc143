import { createRequestHandler } from '@remix-run/node'
import { describe, expect, it } from 'vitest'
import * as csvRoute from '../app/routes/api.me.transactions[.csv]'
import * as helpRoute from '../app/routes/help'
import * as profileRoute from '../app/routes/profile'
import { buildOf, type RouteEntry } from './utils/remix-build'
import { signInNewUser } from './utils/requests'

// Issue 10: Remix's own 405 reads 'You made a POST request to "/help" but did not provide an `action`
// for route "routes/help"'. Route module ids are nobody's business outside the server.

const ROUTES: RouteEntry[] = [
  ['routes/help', 'help', helpRoute],
  ['routes/profile', 'profile', profileRoute],
  ['routes/api.me.transactions[.csv]', 'api/me/transactions.csv', csvRoute],
]

const build = buildOf(ROUTES)

describe('a POST to a route without an action', () => {
  it.each(['production', 'development'])('(%s) answers 405 without naming a route module', async (mode) => {
    const handle = createRequestHandler(build, mode)
    const { cookie } = await signInNewUser()
    for (const url of ['/help', '/help?_data=routes%2Fhelp', '/profile?_data=root', '/api/me/transactions.csv']) {
      const res = await handle(
        new Request(`http://localhost:3000${url}`, {
          method: 'POST',
          headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'a=b',
        }),
      )
      const body = await res.text()
      expect(res.status, url).toBe(405)
      expect(body, url).not.toMatch(/routes\//)
      expect(body, url).not.toMatch(/did not provide/)
      expect(body, url).toMatch(/Method not allowed/i)
    }
  })
})

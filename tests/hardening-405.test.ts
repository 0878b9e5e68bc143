import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { describe, expect, it } from 'vitest'
import * as entryServer from '../app/entry.server'
import * as root from '../app/root'
import * as csvRoute from '../app/routes/api.me.transactions[.csv]'
import * as helpRoute from '../app/routes/help'
import * as profileRoute from '../app/routes/profile'
import { signInNewUser } from './utils/requests'

// Issue 10: Remix's own 405 reads 'You made a POST request to "/help" but did not provide an `action`
// for route "routes/help"'. Route module ids are nobody's business outside the server.

type RouteModule = Record<string, unknown>
const ROUTES: [id: string, path: string, module: RouteModule][] = [
  ['routes/help', 'help', helpRoute],
  ['routes/profile', 'profile', profileRoute],
  ['routes/api.me.transactions[.csv]', 'api/me/transactions.csv', csvRoute],
]

/** The app's real root, entry and route modules, assembled the way `remix build` would. */
function buildOf(): ServerBuild {
  const routes: Record<string, { id: string; parentId?: string; path: string; module: RouteModule }> = {
    root: { id: 'root', path: '', module: root },
  }
  for (const [id, path, module] of ROUTES) routes[id] = { id, parentId: 'root', path, module }
  const manifestRoutes = Object.fromEntries(
    Object.values(routes).map((r) => [
      r.id,
      {
        id: r.id,
        parentId: r.parentId,
        path: r.path,
        module: `/build/${r.id}.js`,
        imports: [],
        hasAction: 'action' in r.module,
        hasLoader: 'loader' in r.module,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: 'ErrorBoundary' in r.module,
      },
    ]),
  )
  return {
    mode: 'production',
    entry: { module: entryServer },
    routes,
    assets: { entry: { module: '/build/entry.client.js', imports: [] }, routes: manifestRoutes, url: '/build/manifest.js', version: 'test' },
    publicPath: '/build/',
    assetsBuildDirectory: 'public/build',
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true },
    isSpaMode: false,
    basename: undefined,
  } as unknown as ServerBuild
}

const build = buildOf()

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

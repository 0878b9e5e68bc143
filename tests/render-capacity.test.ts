import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { createRequestHandler, json, type ServerBuild } from '@remix-run/node'
import { describe, expect, it } from 'vitest'
import type { Kysely } from 'kysely'
import { createDb, preparedQuery, type DB } from '../db/db.server'
import { getOptionalUser } from '../app/auth/auth.server'
import { getDb } from '../app/utils/db.server'
import { signInNewUser } from './utils/requests'

// Issue 12, decision 071: the per-request work removed from the render path must keep every answer
// the same. These tests use the CommonJS builds that the server loads (patched by patch-package).
const require = createRequire(import.meta.url)
const router = require('@remix-run/router') as typeof import('@remix-run/router')
const remixRoutes = require('@remix-run/react/dist/routes.js') as {
  createServerRoutes: (manifest: unknown, modules: unknown, future: unknown, isSpaMode: boolean) => unknown[]
}
const rrdServer = require('react-router-dom/server.js') as typeof import('react-router-dom/server')

describe('route matching kept per route table (patched @remix-run/router)', () => {
  const routes = [
    {
      id: 'root',
      path: '/',
      children: [
        { id: 'index', index: true },
        { id: 'scan', path: 'scan' },
        { id: 'store', path: 'stores/:id' },
        { id: 'stores', path: 'stores' },
        { id: 'new-store', path: 'stores/new' },
        { id: 'splat', path: '*' },
      ],
    },
  ]
  const ids = (pathname: string) => router.matchRoutes(routes, pathname)?.map((m) => m.route.id)

  it('matches as before: ranking, parameters, index and splat', () => {
    expect(ids('/')).toEqual(['root', 'index'])
    expect(ids('/scan')).toEqual(['root', 'scan'])
    expect(ids('/stores/new')).toEqual(['root', 'new-store'])
    expect(ids('/stores/42')).toEqual(['root', 'store'])
    expect(router.matchRoutes(routes, '/stores/42')?.[1].params).toEqual({ id: '42' })
    expect(router.matchRoutes(routes, '/no/such/page')?.[1].params).toEqual({ '*': 'no/such/page' })
    expect(router.matchRoutes(routes, '/app/scan', '/app')?.map((m) => m.pathname)).toEqual(['/', '/scan'])
    expect(router.matchRoutes(routes, '/scan', '/app')).toBeNull()
  })

  it('hands every caller its own matches: changing one answer does not change the next', () => {
    const first = router.matchRoutes(routes, '/stores/7')!
    ;(first[1].params as Record<string, string>).id = 'changed'
    first.pop()
    const second = router.matchRoutes(routes, '/stores/7')!
    expect(second).toHaveLength(2)
    expect(second[1].params).toEqual({ id: '7' })
    expect(second[1].route).toBe(first[0].route.children?.[2])
  })

  it('stays right past the number of paths it keeps', () => {
    for (let i = 0; i < 1200; i++) expect(router.matchRoutes(routes, `/stores/${i}`)?.[1].params.id).toBe(String(i))
    expect(ids('/scan')).toEqual(['root', 'scan'])
  })

  it('a different route table is matched against its own routes', () => {
    const other = [{ id: 'only', path: '/scan' }]
    expect(router.matchRoutes(other, '/scan')?.map((m) => m.route.id)).toEqual(['only'])
    expect(ids('/scan')).toEqual(['root', 'scan'])
  })

  it('matchPath still compiles case sensitivity and ends correctly', () => {
    expect(router.matchPath({ path: '/Scan', caseSensitive: true }, '/scan')).toBeNull()
    expect(router.matchPath({ path: '/Scan' }, '/scan')).not.toBeNull()
    expect(router.matchPath({ path: '/stores', end: false }, '/stores/1')?.pathnameBase).toBe('/stores')
    expect(router.matchPath({ path: '/stores', end: true }, '/stores/1')).toBeNull()
  })
})

describe('route trees kept per build (patched @remix-run/react and react-router-dom)', () => {
  const manifest = {
    root: { id: 'root', path: '', hasLoader: true, hasAction: false, hasClientLoader: false, hasClientAction: false, hasErrorBoundary: false, module: '', imports: [] },
    'routes/scan': { id: 'routes/scan', parentId: 'root', path: 'scan', hasLoader: false, hasAction: false, hasClientLoader: false, hasClientAction: false, hasErrorBoundary: false, module: '', imports: [] },
  }
  const modules = () => ({ root: { default: () => null }, 'routes/scan': { default: () => null } })
  const future = {}

  it('the server route tree is built once while the build and its modules are the same', () => {
    const mods = modules()
    const first = remixRoutes.createServerRoutes(manifest, mods, future, false)
    expect(remixRoutes.createServerRoutes(manifest, { ...mods }, future, false)).toBe(first)
    // A changed module (a rebuild in development) gives a new tree.
    expect(remixRoutes.createServerRoutes(manifest, { ...mods, 'routes/scan': { default: () => null } }, future, false)).not.toBe(first)
    expect(remixRoutes.createServerRoutes(manifest, modules(), future, false)).not.toBe(first)
  })

  it('the static router derives its data routes once per route tree and still maps the matches', async () => {
    const routes = [{ id: 'root', path: '/', children: [{ id: 'scan', path: 'scan', loader: () => null }] }]
    const handler = rrdServer.createStaticHandler(routes)
    const context = (await handler.query(new Request('http://localhost/scan'))) as Parameters<typeof rrdServer.createStaticRouter>[1]
    const first = rrdServer.createStaticRouter(routes, context)
    const second = rrdServer.createStaticRouter(routes, context)
    expect(second.routes).toBe(first.routes)
    expect(second.state.matches.map((m) => m.route.id)).toEqual(['root', 'scan'])
    expect(second.state.matches[1].route).toBe(first.routes[0].children?.[0])
  })
})

/** A build with these routes and this document function, without the app's root or assets. */
function bareBuild(routes: Record<string, unknown>, renderDocument: (...args: never[]) => Response): ServerBuild {
  return {
    mode: 'production',
    entry: { module: { default: renderDocument } },
    routes,
    assets: { entry: { module: '', imports: [] }, routes: {}, url: '', version: 'test' },
    publicPath: '/build/',
    assetsBuildDirectory: 'public/build',
    future: {},
    isSpaMode: false,
  } as unknown as ServerBuild
}

describe('one request object for all loaders of a page (patched @remix-run/server-runtime)', () => {
  function buildWith(seen: Request[]): ServerBuild {
    const loader = ({ request }: { request: Request }) => (seen.push(request), null)
    const route = (id: string, parentId: string | undefined, routePath: string | undefined, index?: boolean) => ({
      id,
      parentId,
      path: routePath,
      index,
      module: { loader, default: () => null },
    })
    const routes = { root: route('root', undefined, ''), 'routes/page': route('routes/page', 'root', 'page'), 'routes/_index': route('routes/_index', 'root', undefined, true) }
    return bareBuild(routes, () => new Response('page'))
  }

  it('a page view passes its request on unchanged; _data and ?index requests are still stripped', async () => {
    const seen: Request[] = []
    const handle = createRequestHandler(buildWith(seen), 'production')
    await handle(new Request('http://localhost/page?q=1'))
    expect(seen).toHaveLength(2)
    expect(seen[0]).toBe(seen[1])
    expect(seen[0].url).toBe('http://localhost/page?q=1')

    seen.length = 0
    await handle(new Request('http://localhost/page?q=1&_data=routes%2Fpage'))
    expect(seen.map((r) => r.url)).toEqual(['http://localhost/page?q=1'])

    seen.length = 0
    await handle(new Request('http://localhost/?index&q=2'))
    expect(seen.map((r) => r.url)).toEqual(['http://localhost/?q=2', 'http://localhost/?q=2'])
  })
})

describe("a page's loader data parsed from the text json() wrote (patched @remix-run/router)", () => {
  it('gives the same data without reading the Response body; a data request still sends the body', async () => {
    const data = { n: 42, text: 'é \u2028 "quoted" </script>', list: [1, null, { deep: true }], missing: undefined }
    const returned: Response[] = []
    const loader = () => {
      const response = json(data)
      returned.push(response)
      return response
    }
    const build = bareBuild(
      { root: { id: 'root', path: '', module: { loader, default: () => null } } },
      (_request: Request, status: number, _headers: Headers, context: { staticHandlerContext: { loaderData: unknown } }) =>
        new Response(JSON.stringify(context.staticHandlerContext.loaderData), { status }),
    )
    const handle = createRequestHandler(build, 'production')

    const page = await handle(new Request('http://localhost/'))
    expect(await page.json()).toEqual({ root: JSON.parse(JSON.stringify(data)) })
    expect(returned[0].bodyUsed).toBe(false)

    const dataRequest = await handle(new Request('http://localhost/?_data=root'))
    expect(await dataRequest.json()).toEqual(JSON.parse(JSON.stringify(data)))
  })
})

describe('the signed-in user, looked up once per page view', () => {
  it('loaders of one GET share one look-up; a POST looks up afresh (after the action)', async () => {
    const { user, cookie } = await signInNewUser()
    const get = new Request('http://localhost:3000/home', { headers: { Cookie: cookie } })
    const once = getOptionalUser(get)
    expect(getOptionalUser(get)).toBe(once)
    expect((await once)?.id).toBe(user.id)

    const post = new Request('http://localhost:3000/home', { method: 'POST', headers: { Cookie: cookie } })
    expect(getOptionalUser(post)).not.toBe(getOptionalUser(post))
    expect((await getOptionalUser(post))?.id).toBe(user.id)
  })

  it('an expired or unknown session is nobody', async () => {
    const { user, cookie } = await signInNewUser()
    await getDb().updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', user.id).execute()
    expect(await getOptionalUser(new Request('http://localhost:3000/home', { headers: { Cookie: cookie } }))).toBeNull()
    expect(await getOptionalUser(new Request('http://localhost:3000/home', { headers: { Cookie: '__session=garbage' } }))).toBeNull()
  })
  it('a cookie verified before is still asked of the database: after sign-out it is nobody', async () => {
    const { user, cookie } = await signInNewUser()
    const page = () => getOptionalUser(new Request('http://localhost:3000/home', { headers: { Cookie: cookie } }))
    expect((await page())?.id).toBe(user.id)
    await getDb().deleteFrom('sessions').where('user_id', '=', user.id).execute()
    expect(await page()).toBeNull()
  })

  it('a changed signature is refused even after the real cookie was verified', async () => {
    const { user, cookie } = await signInNewUser()
    expect((await getOptionalUser(new Request('http://localhost:3000/home', { headers: { Cookie: cookie } })))?.id).toBe(user.id)
    const last = cookie.at(-1) === 'A' ? 'B' : 'A'
    const forged = cookie.slice(0, -1) + last
    expect(await getOptionalUser(new Request('http://localhost:3000/home', { headers: { Cookie: forged } }))).toBeNull()
  })
})

type Scratch = Kysely<{ t: { n: number } }>

/** A throwaway SQLite database with one table `t`, and a count of its rows. */
async function withScratchTable(test: (db: Scratch, count: () => Promise<number>) => Promise<void>) {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'recircle-sqlite-'))
  const db = createDb(`file:${path.join(dir, 'scratch.db')}`) as unknown as Scratch
  try {
    await db.schema.createTable('t').addColumn('n', 'integer').execute()
    await test(db, async () => Number((await db.selectFrom('t').select((eb) => eb.fn.countAll().as('c')).executeTakeFirstOrThrow()).c))
  } finally {
    await db.destroy()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe('the SQLite connection lent in order (QueuedSqliteDriver)', () => {
  it('queries wait for an open transaction, then run in the order they came', () =>
    withScratchTable(async (db, count) => {
      let inserted!: () => void
      const insertedOnce = new Promise<void>((resolve) => (inserted = resolve))
      const rolledBack = db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('t').values({ n: 1 }).execute()
          inserted()
          await new Promise((resolve) => setTimeout(resolve, 20))
          throw new Error('roll back')
        })
        .catch((error: Error) => error.message)
      await insertedOnce
      // Asked while the transaction is open: answered after its rollback, never inside it.
      const order: number[] = []
      const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => count().then((c) => (order.push(i), c))))
      expect(await rolledBack).toBe('roll back')
      expect(counts).toEqual(Array(20).fill(0))
      expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i))
      await db.insertInto('t').values({ n: 2 }).execute()
      expect(await count()).toBe(1)
    }))
})

describe('hot reads prepared once per engine (preparedQuery)', () => {
  const walletOf = preparedQuery((db: DB, id: number) => db.selectFrom('users').select('wallet_address').where('id', '=', id))

  it('runs with each call\'s own arguments, in and out of a transaction', async () => {
    const [a, b] = [await signInNewUser(), await signInNewUser()]
    expect(await walletOf(getDb(), a.user.id)).toEqual([{ wallet_address: a.user.walletAddress }])
    expect(await walletOf(getDb(), b.user.id)).toEqual([{ wallet_address: b.user.walletAddress }])
    await getDb()
      .transaction()
      .execute(async (trx) => expect(await walletOf(trx, a.user.id)).toEqual([{ wallet_address: a.user.walletAddress }]))
    expect(await walletOf(getDb(), -1)).toEqual([])
  })

  it('refuses a query that does not use each argument as a value', async () => {
    const ignoresItsArgument = preparedQuery((db: DB, _id: number) => db.selectFrom('users').select('id'))
    await expect(ignoresItsArgument(getDb(), 1)).rejects.toThrow('used 0 of its 1 arguments')
  })

  it('refuses a view with plugins, whose SQL would differ from the one kept', async () => {
    await expect(walletOf(getDb().withSchema('other'), 1)).rejects.toThrow('not on a view with plugins')
  })
})

describe('SQLite prepared statements kept per query text', () => {
  it('answers stay right when statements are reused and when the oldest are dropped', () =>
    withScratchTable(async (db, count) => {
      await db.insertInto('t').values([{ n: 1 }, { n: 2 }]).execute()
      expect(await count()).toBe(2)
      await db.insertInto('t').values({ n: 3 }).execute()
      expect(await count()).toBe(3)
      // 600 distinct texts push the first ones out of the cache; they are prepared again.
      for (let i = 0; i < 600; i++) await db.selectFrom('t').select((eb) => eb.val(i).as(`v${i}`)).execute()
      expect(await count()).toBe(3)
    }))
})

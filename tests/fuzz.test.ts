/// <reference types="vite/client" />
import { HttpResponse, http } from 'msw'
import { beforeAll, beforeEach, describe, it } from 'vitest'
import { getDb } from '../app/utils/db.server'
import { makeCase, runCase, type RouteModule } from './fuzz/fuzz'
import { server } from './mocks/index'
import { signInNewUser } from './utils/requests'
import { ADMIN_WALLET } from './utils/wallet'

// Issue 10: several hundred malformed inputs to every action and API route. `npm test` runs a
// short round (FUZZ_CASES, default 40 per route and handler); `npm run fuzz` runs 400 each.

const CASES = Number(process.env.FUZZ_CASES ?? 40)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

const modules = import.meta.glob<RouteModule>('../app/routes/*.{ts,tsx}', { eager: true })

function routePath(file: string) {
  const name = file.replace(/^.*\/routes\//, '').replace(/\.tsx?$/, '')
  if (name === '_index') return { path: '/', params: [] }
  if (name === '$') return { path: '/missing', params: ['*'] }
  const params: string[] = []
  const path =
    '/' +
    name
      .replace(/\[\.\]/g, '.')
      .split('.')
      .map((seg) => seg.replace(/_$/, ''))
      .map((seg) => (seg.startsWith('$') ? (params.push(seg.slice(1)), `x${params.length}`) : seg))
      .filter((seg) => seg !== '_index')
      .join('/')
  return { path, params }
}

beforeAll(() => {
  // The fuzz run must not be throttled into testing only 429s.
  process.env.RATE_LIMITS_DISABLED = '1'
})
beforeEach(() => {
  // The chain pages read the node; here it is down (they must still answer 200 or 4xx).
  server.use(http.all('https://thor.test/*', () => HttpResponse.error()))
})

const targets = Object.entries(modules).flatMap(([file, mod]) => {
  const { path, params } = routePath(file)
  const list: Array<[string, 'GET' | 'POST', string, string[]]> = []
  if (mod.action) list.push([`${path} action`, 'POST', file, params])
  if (mod.loader && (path.startsWith('/api/') || params.length > 0)) list.push([`${path} loader`, 'GET', file, params])
  return list.map(([name, method, f, p]) => ({ name, method, file: f, path, params: p }))
})

describe('fuzz: malformed input never gets a 5xx, a stack trace or a half-written record', () => {
  it.each(targets.map((t) => [t.name, t] as const))('%s', async (_name, target) => {
    const mod = modules[target.file]!
    const handler = target.method === 'POST' ? mod.action! : mod.loader!
    // Fresh sessions per route: a logout case must not sign the next routes out.
    const cookies = { user: (await signInNewUser()).cookie, admin: (await signInNewUser(ADMIN_WALLET)).cookie }
    const statuses: Record<number, number> = {}
    for (let i = 0; i < CASES; i++) {
      const who = i % 3 === 0 ? null : i % 3 === 1 ? cookies.user : cookies.admin
      const status = await runCase(getDb(), handler as never, makeCase(target.path, target.params, target.method, who, SEED + i * 7919 + target.name.length))
      statuses[status] = (statuses[status] ?? 0) + 1
    }
    if (process.env.FUZZ_VERBOSE) console.log(target.name, JSON.stringify(statuses))
  }, 120_000)
})

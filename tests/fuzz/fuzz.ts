import type { Kysely } from 'kysely'
import { expect } from 'vitest'
import type { Database } from '../../db/schema'
import { FIELD_NAMES, INTENTS, NASTY_STRINGS, NASTY_VALUES, rng } from './inputs'

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>
export type RouteModule = { action?: Handler; loader?: Handler }

/** Tables a refused request may legitimately write: rate-limit counters, node readings, sessions' expiry. */
const MAY_CHANGE = new Set(['rate_limits', 'chain_checks', 'auth_challenges'])
const TABLES: (keyof Database)[] = [
  'users',
  'sessions',
  'receipts',
  'receipt_analyses',
  'transactions',
  'action_slots',
  'stores',
  'store_submissions',
  'referrals',
  'payouts',
  'feedback',
  'audit_log',
]

export async function rowCounts(db: Kysely<Database>) {
  const counts: Record<string, number> = {}
  for (const table of TABLES) {
    if (MAY_CHANGE.has(table)) continue
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }
  return counts
}

export type Case = { name: string; request: Request; params: Record<string, string> }

/** One malformed request for a route: a JSON, form, multipart or raw body, or odd params and query. */
export function makeCase(path: string, paramNames: string[], method: 'GET' | 'POST', cookie: string | null, seed: number): Case {
  const random = rng(seed)
  const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const params: Record<string, string> = {}
  for (const p of paramNames) params[p] = String(pick([...NASTY_STRINGS, '1', '2', '999999999']))
  const query = new URLSearchParams()
  for (let i = Math.floor(random() * 3); i > 0; i--) query.set(pick(FIELD_NAMES), String(pick(NASTY_STRINGS)))
  const url = `http://localhost:3000${path}${query.size ? `?${query}` : ''}`
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {}
  if (method === 'GET') return { name: `GET ${url}`, request: new Request(url, { headers }), params }

  const fields: Record<string, unknown> = {}
  for (let i = 1 + Math.floor(random() * 5); i > 0; i--) fields[pick(FIELD_NAMES)] = pick(NASTY_VALUES)
  if (random() < 0.6) fields.intent = pick(INTENTS)
  const kind = Math.floor(random() * 5)
  let body: BodyInit
  if (kind === 0) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(random() < 0.2 ? pick(NASTY_VALUES) : fields)
  } else if (kind === 1 || kind === 2) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? ''])).toString()
  } else if (kind === 3) {
    const form = new FormData()
    for (const [k, v] of Object.entries(fields)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v) ?? '')
    if (random() < 0.5) form.set('image', new Blob([Buffer.from(String(pick(NASTY_STRINGS)))], { type: pick(['image/png', 'image/jpeg', 'text/plain', '']) }), 'x.png')
    body = form
  } else {
    headers['Content-Type'] = pick(['application/json', 'text/plain', 'multipart/form-data; boundary=zz', 'application/x-www-form-urlencoded', ''])
    body = String(pick(NASTY_STRINGS))
  }
  return { name: `POST ${url} ${headers['Content-Type'] ?? ''} ${String(body).slice(0, 80)}`, request: new Request(url, { method: 'POST', headers, body }), params }
}

/** Runs one case: never a 5xx, never a stack trace in the body, and nothing written when refused. */
export async function runCase(db: Kysely<Database>, handler: Handler, c: Case) {
  const before = await rowCounts(db)
  let response: unknown
  try {
    response = await handler({ request: c.request, params: c.params, context: {} })
  } catch (thrown) {
    response = thrown
  }
  if (!(response instanceof Response)) {
    // Remix turns a thrown non-Response into a 500; so does a loader that returns plain data wrongly.
    const message = response instanceof Error ? `${response.name}: ${response.message}` : String(response)
    expect.fail(`${c.name}\n  threw ${message}`)
  }
  const res = response as Response
  const text = await res.text().catch(() => '')
  expect(res.status, `${c.name}\n  answered ${res.status}: ${text.slice(0, 300)}`).toBeLessThan(500)
  expect(text, `${c.name}\n  leaks a stack trace`).not.toMatch(/\n\s+at .+:\d+:\d+/)
  if (res.status >= 400 && res.status < 500) {
    expect(await rowCounts(db), `${c.name}\n  was refused with ${res.status} but wrote rows`).toEqual(before)
  }
  return res.status
}

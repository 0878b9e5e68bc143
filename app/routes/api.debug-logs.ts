import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { DEBUG_LOG_LIMITS, DEBUG_LOG_SENDS_PER_HOUR, parseDebugLogBody } from '~/debug/debug-log'
import { saveDebugLog } from '~/debug/debug-logs.server'
import { getDb } from '~/utils/db.server'
import { refusalResponse } from '~/utils/refusal.server'
import { methodNotAllowed } from '~/utils/http.server'
import { requireWithinRateLimits } from '~/utils/rate-limit.server'

export async function loader() {
  return methodNotAllowed()
}

/**
 * A signed-in user sends their own captured log to support (spec 2 §7). Open with debug tools off:
 * support asks a user on a failing phone to send one. Bounded in size and rate limited per user.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  const user = await requireUser(request, { api: true })
  const parsed = parseDebugLogBody(await request.text().catch(() => ''))
  if (!parsed.ok) return refusalResponse(parsed)
  const db = getDb()
  await requireWithinRateLimits(db, [{ key: `debug-logs:user:${user.id}`, limit: DEBUG_LOG_SENDS_PER_HOUR, windowMs: 3_600_000 }])
  const userAgent = parsed.value.userAgent ?? request.headers.get('User-Agent')?.slice(0, DEBUG_LOG_LIMITS.maxUserAgentChars)
  const id = await saveDebugLog(db, { ...parsed.value, userAgent, userId: user.id })
  const message = `Thanks: ${parsed.value.logs.length} lines were sent to support (reference #${id}).`
  return json({ ok: true, id, message }, { status: 201 })
}

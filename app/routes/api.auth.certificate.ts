import { json, type ActionFunctionArgs } from '@remix-run/node'
import { signInRequest } from '~/auth/auth.server'
import { toPublicUser } from '~/users/users.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'
import { certificateLimits, requireWithinRateLimits } from '~/utils/rate-limit.server'

export async function loader() {
  return methodNotAllowed()
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return json({ error: 'Body must be JSON: { "certificate": { ... } }' }, { status: 400 })
  }
  const certificate = (body as { certificate?: unknown } | null)?.certificate
  await requireWithinRateLimits(getDb(), certificateLimits(certificate, context))
  const result = await signInRequest(request, certificate)
  if (!result.ok) return json({ error: result.error }, { status: 401 })
  return json(
    { user: await toPublicUser(getDb(), result.user) },
    { headers: { 'Set-Cookie': result.cookie, 'Cache-Control': 'no-store' } },
  )
}

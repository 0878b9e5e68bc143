import { json, type ActionFunctionArgs } from '@remix-run/node'
import { createChallenge } from '~/auth/auth.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'
import { clientIpFrom, rateLimits, requireWithinRateLimits } from '~/utils/rate-limit.server'

export async function loader() {
  return methodNotAllowed()
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  await requireWithinRateLimits(getDb(), [rateLimits.challengeByIp(clientIpFrom(context))])
  const challenge = await createChallenge(getDb())
  return json(challenge, { headers: { 'Cache-Control': 'no-store' } })
}

import { json, type ActionFunctionArgs } from '@remix-run/node'
import { createChallenge } from '~/auth/auth.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  const challenge = await createChallenge(getDb())
  return json(challenge, { headers: { 'Cache-Control': 'no-store' } })
}

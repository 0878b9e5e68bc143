import { json, type ActionFunctionArgs } from '@remix-run/node'
import { createChallenge } from '~/auth/auth.server'
import { getDb } from '~/utils/db.server'

export async function loader() {
  return json({ error: 'Use POST' }, { status: 405, headers: { Allow: 'POST' } })
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ error: 'Use POST' }, { status: 405, headers: { Allow: 'POST' } })
  const challenge = await createChallenge(getDb())
  return json(challenge, { headers: { 'Cache-Control': 'no-store' } })
}

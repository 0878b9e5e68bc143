import { json, type ActionFunctionArgs } from '@remix-run/node'
import { destroySession } from '~/auth/session.server'
import { getDb } from '~/utils/db.server'

export async function loader() {
  return json({ error: 'Use POST' }, { status: 405, headers: { Allow: 'POST' } })
}

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await destroySession(getDb(), request)
  return json({ ok: true }, { headers: { 'Set-Cookie': cookie } })
}

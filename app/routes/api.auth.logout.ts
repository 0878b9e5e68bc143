import { json, type ActionFunctionArgs } from '@remix-run/node'
import { destroySession } from '~/auth/session.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await destroySession(getDb(), request)
  return json({ ok: true }, { headers: { 'Set-Cookie': cookie } })
}

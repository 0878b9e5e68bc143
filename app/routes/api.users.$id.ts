import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'
import { toPublicUser } from '~/users/users.server'
import { getDb } from '~/utils/db.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  return json(await toPublicUser(getDb(), user), { headers: { 'Cache-Control': 'no-store' } })
}

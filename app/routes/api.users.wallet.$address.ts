import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { toPublicUser } from '~/users/users.server'
import { getDb } from '~/utils/db.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { api: true })
  const address = (params.address ?? '').toLowerCase()
  if (!/^0x[0-9a-f]{40}$/.test(address)) return json({ error: 'Invalid wallet address' }, { status: 400 })
  if (address !== user.walletAddress) return json({ error: 'Forbidden' }, { status: 403 })
  return json(await toPublicUser(getDb(), user), { headers: { 'Cache-Control': 'no-store' } })
}

import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'
import { listUserReceipts } from '~/receipts/user-receipts.server'
import { getDb } from '~/utils/db.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  return json(await listUserReceipts(getDb(), user.id), { headers: { 'Cache-Control': 'no-store' } })
}

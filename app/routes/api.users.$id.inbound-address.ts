import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'
import { getInboundAddress } from '~/ereceipts/inbound.server'
import { getDb } from '~/utils/db.server'

/** Issue 21: the user's personal forwarding address for e-receipts; null when forwarding is not set up. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  const address = await getInboundAddress(getDb(), user.id)
  return json(
    address ? { address } : { address: null, message: 'E-mail forwarding is not set up on this server. Upload the .eml file instead.' },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

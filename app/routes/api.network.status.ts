import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireAdmin } from '~/auth/auth.server'
import { getChainConfig, getThor } from '~/chain/chain.server'
import { readNetworkStatus } from '~/chain/status.server'
import { getDb } from '~/utils/db.server'

/** Spec 2 §3 "Network status": a live read of the configured Thor node. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { api: true })
  const status = await readNetworkStatus(getDb(), getThor(), getChainConfig())
  return json(
    {
      isConnected: status.connected && status.genesisOk,
      rpcUrl: status.nodeUrl,
      network: status.network,
      blockNumber: status.bestBlock?.number ?? null,
      lastError: status.error,
      lastChecked: status.checkedAt,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

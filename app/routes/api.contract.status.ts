import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireAdmin } from '~/auth/auth.server'
import { getChainConfig, getPayoutConfig, getThor } from '~/chain/chain.server'
import { presentContractStatus, readContractStatus } from '~/chain/status.server'
import { getDb } from '~/utils/db.server'

/**
 * Spec 2 §3 "Contract status", adapted (decision 041): there is no contract of ours to deploy, so
 * `isDeployed` means "the rewards pool answers and our app is registered in it", `contractAddress`
 * is the pool's and `deploymentTx` is always null. The rest are the same reads as /contract-status.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { api: true })
  const status = presentContractStatus(await readContractStatus(getDb(), getThor(), getChainConfig(), getPayoutConfig()))
  const poolLive = status.poolHasCode.ok && status.poolHasCode.value
  const appLive = !!status.appExists?.ok && status.appExists.value
  return json(
    {
      isDeployed: poolLive && appLive,
      network: status.network.network,
      appId: status.appId,
      rewardsPoolAddress: status.poolAddress,
      contractAddress: status.poolAddress,
      deploymentTx: null,
      lastChecked: status.network.checkedAt,
      poolVersion: status.poolVersion.ok ? status.poolVersion.value : null,
      payoutsConfigured: status.payoutsConfigured,
      distributor: status.distributor,
      isRewardDistributor: status.isRewardDistributor?.ok ? status.isRewardDistributor.value : null,
      budgetB3tr: status.budgetB3tr?.ok ? status.budgetB3tr.value : null,
      ready: status.ready,
      checklist: status.checklist,
      error: status.network.error,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

import type { DB } from '#db/db.server'
import { getChainCheck, recordChainCheck, type ChainCheck } from './chain-checks.server'
import { fn } from './abi'
import type { ChainConfig, PayoutConfig } from './config.server'
import { networkFromGenesisId, type NetworkName } from './networks'
import { baseFeeOf, describeThorError, type ThorClient } from './thor.server'
import { feeCaps } from './payout'
import { formatUnits } from './units'

// What /contract-status, /admin/payouts and the status APIs show: real reads of the node and of
// VeBetterDAO's contracts, each one allowed to fail on its own (an unreachable node still gives
// an honest page). Amounts stay bigint wei here and are formatted at the edge.

export type Read<T> = { ok: true; value: T } | { ok: false; error: string }

export type NetworkStatus = {
  nodeUrl: string
  connected: boolean
  network: NetworkName
  genesisOk: boolean
  bestBlock: { number: number; id: string; timestamp: number } | null
  error: string | null
  checkedAt: string
}

export type ContractStatus = {
  network: NetworkStatus
  poolAddress: string
  appsAddress: string
  b3trAddress: string
  appId: string | null
  payoutsConfigured: boolean
  distributor: string | null
  poolHasCode: Read<boolean>
  poolVersion: Read<string>
  appExists: Read<boolean> | null
  distributionPaused: Read<boolean> | null
  isRewardDistributor: Read<boolean> | null
  rewardsPoolEnabled: Read<boolean> | null
  /** The budget the pool pays this app from: the rewards pool balance when enabled, else available funds. */
  budgetWei: Read<bigint> | null
  /** Both of the app's balances in the pool (issue 22): the allocation, and the rewards pool paid from once enabled. */
  availableFundsWei: Read<bigint> | null
  rewardsPoolBalanceWei: Read<bigint> | null
  poolB3trWei: Read<bigint>
  /** VeBetter Passport, asked before automatic approvals (issue 22). */
  passportAddress: string
  /** What a payout sent now would use: the best block's base fee, the node's tip, the first fee cap. */
  fees: Read<{ baseFeePerGas: bigint; priorityFeePerGas: bigint; maxFeePerGas: bigint }>
  distributorVetWei: Read<bigint> | null
  distributorVthoWei: Read<bigint> | null
  lastWorkerCheck: ChainCheck | null
}

async function read<T>(f: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await f() }
  } catch (error) {
    return { ok: false, error: describeThorError(error) }
  }
}

export async function readNetworkStatus(db: DB, thor: ThorClient, config: ChainConfig, now = new Date()): Promise<NetworkStatus> {
  const checkedAt = now.toISOString()
  try {
    const [genesis, best] = await Promise.all([thor.getBlock(0), thor.getBestBlock()])
    const genesisId = genesis?.id.toLowerCase() ?? null
    const genesisOk = genesisId === config.genesisId
    const error = genesisOk ? null : `The node is on another network (genesis ${genesisId ?? 'unknown'}, expected ${config.genesisId})`
    const status: NetworkStatus = {
      nodeUrl: config.nodeUrl,
      connected: true,
      network: networkFromGenesisId(genesisId),
      genesisOk,
      bestBlock: { number: best.number, id: best.id, timestamp: best.timestamp },
      error,
      checkedAt,
    }
    await recordChainCheck(db, 'network', { ok: genesisOk, details: { bestBlock: best.number }, error, now })
    return status
  } catch (error) {
    const message = describeThorError(error)
    await recordChainCheck(db, 'network', { ok: false, error: message, now })
    return { nodeUrl: config.nodeUrl, connected: false, network: 'unknown', genesisOk: false, bestBlock: null, error: message, checkedAt }
  }
}

/** The last error any check recorded (this instance or another), for "last error" on the status card. */
export async function lastNetworkError(db: DB): Promise<{ error: string; at: string } | null> {
  const check = await getChainCheck(db, 'network')
  return check && check.error ? { error: check.error, at: check.checkedAt } : null
}

export async function readContractStatus(db: DB, thor: ThorClient, config: ChainConfig, payout: PayoutConfig | null, now = new Date()): Promise<ContractStatus> {
  const network = await readNetworkStatus(db, thor, config, now)
  const appId = config.appId
  const distributor = payout?.distributor ?? null
  const unreachable = <T>(): Read<T> => ({ ok: false, error: network.error ?? 'The node cannot be reached' })
  const live = network.connected
  const view = <T>(to: string, func: (typeof fn)[keyof typeof fn], args: unknown[], map: (v: unknown) => T) =>
    live ? read(async () => map((await thor.call(to, func, args))[0])) : Promise.resolve(unreachable<T>())
  const bool = (v: unknown) => v === true
  const big = (v: unknown) => BigInt(String(v))

  const [poolHasCode, poolVersion, poolB3trWei] = await Promise.all([
    live ? read(async () => (await thor.getAccount(config.poolAddress)).hasCode) : Promise.resolve(unreachable<boolean>()),
    view(config.poolAddress, fn.version, [], String),
    view(config.b3trAddress, fn.balanceOf, [config.poolAddress], big),
  ])
  const [appExists, distributionPaused, rewardsPoolEnabled] = appId
    ? await Promise.all([
        view(config.appsAddress, fn.appExists, [appId], bool),
        view(config.poolAddress, fn.isDistributionPaused, [appId], bool),
        view(config.poolAddress, fn.isRewardsPoolEnabled, [appId], bool),
      ])
    : [null, null, null]
  const [availableFundsWei, rewardsPoolBalanceWei] = appId
    ? await Promise.all([view(config.poolAddress, fn.availableFunds, [appId], big), view(config.poolAddress, fn.rewardsPoolBalance, [appId], big)])
    : [null, null]
  let budgetWei: Read<bigint> | null = null
  if (appId && rewardsPoolEnabled) {
    budgetWei = rewardsPoolEnabled.ok ? (rewardsPoolEnabled.value ? rewardsPoolBalanceWei : availableFundsWei) : rewardsPoolEnabled
  }
  const fees: Read<{ baseFeePerGas: bigint; priorityFeePerGas: bigint; maxFeePerGas: bigint }> = live
    ? await read(async () => {
        const best = await thor.getBestBlock()
        const baseFeePerGas = baseFeeOf(best)
        if (!baseFeePerGas) throw new Error('The node reports no base fee')
        const priorityFeePerGas = await thor.getPriorityFee()
        const caps = feeCaps({ baseFeePerGas, suggestedPriorityFee: priorityFeePerGas, previousSignings: 0 })
        return { baseFeePerGas, priorityFeePerGas: caps.maxPriorityFeePerGas, maxFeePerGas: caps.maxFeePerGas }
      })
    : unreachable()
  const isRewardDistributor = appId && distributor ? await view(config.appsAddress, fn.isRewardDistributor, [appId, distributor], bool) : null
  const account = distributor ? (live ? await read(() => thor.getAccount(distributor)) : unreachable<{ balance: bigint; energy: bigint }>()) : null
  return {
    network,
    poolAddress: config.poolAddress,
    appsAddress: config.appsAddress,
    b3trAddress: config.b3trAddress,
    appId,
    payoutsConfigured: payout !== null,
    distributor,
    poolHasCode,
    poolVersion,
    appExists,
    distributionPaused,
    isRewardDistributor,
    rewardsPoolEnabled,
    budgetWei,
    availableFundsWei,
    rewardsPoolBalanceWei,
    poolB3trWei,
    passportAddress: config.passportAddress,
    fees,
    distributorVetWei: account ? (account.ok ? { ok: true, value: account.value.balance } : account) : null,
    distributorVthoWei: account ? (account.ok ? { ok: true, value: account.value.energy } : account) : null,
    lastWorkerCheck: await getChainCheck(db, 'payout_worker'),
  }
}

export type ChecklistItem = { label: string; done: boolean; detail: string }

/**
 * The spec's integration checklist, ticked from real reads instead of always ticked (decision 041):
 * a box is ticked only when what it names was read from the chain just now.
 */
export function integrationChecklist(status: ContractStatus): ChecklistItem[] {
  const yes = (r: Read<boolean> | null) => !!r && r.ok && r.value
  const why = (r: Read<unknown> | null, missing: string) => (r === null ? missing : r.ok ? '' : r.error)
  return [
    {
      label: 'VeChain testnet',
      done: status.network.connected && status.network.genesisOk,
      detail: status.network.error ?? `Best block ${status.network.bestBlock?.number ?? '—'}`,
    },
    { label: 'Rewards pool', done: yes(status.poolHasCode), detail: status.poolVersion.ok ? `Version ${status.poolVersion.value}` : why(status.poolVersion, '') },
    { label: 'App Registration', done: yes(status.appExists), detail: status.appId ? (yes(status.appExists) ? 'The app exists in X2EarnApps' : why(status.appExists, '') || 'No app with this id in X2EarnApps') : 'VEBETTER_APP_ID is not set' },
    {
      label: 'Reward Distributor',
      done: yes(status.isRewardDistributor),
      detail: status.distributor ? (yes(status.isRewardDistributor) ? `${status.distributor} may distribute` : why(status.isRewardDistributor, '') || `${status.distributor} is not a reward distributor of the app`) : 'No payout key configured',
    },
    {
      label: 'B3TR Token Access',
      done: !!status.budgetWei && status.budgetWei.ok && status.budgetWei.value > 0n,
      detail: status.budgetWei === null ? 'Needs the app id' : status.budgetWei.ok ? (status.budgetWei.value > 0n ? 'The app has a budget in the pool' : 'The app has no B3TR budget in the pool') : status.budgetWei.error,
    },
    {
      label: 'Gas (VTHO)',
      done: !!status.distributorVthoWei && status.distributorVthoWei.ok && status.distributorVthoWei.value > 0n,
      detail: status.distributorVthoWei === null ? 'No payout key configured' : status.distributorVthoWei.ok ? (status.distributorVthoWei.value > 0n ? 'The distributor can pay for gas' : 'The distributor has no VTHO') : status.distributorVthoWei.error,
    },
    {
      label: 'Reward Distribution',
      done: status.payoutsConfigured && !!status.lastWorkerCheck?.ok && !(status.distributionPaused?.ok && status.distributionPaused.value),
      detail: !status.payoutsConfigured
        ? 'Payouts are not configured'
        : status.distributionPaused?.ok && status.distributionPaused.value
          ? 'Distribution is paused for the app'
          : status.lastWorkerCheck
            ? status.lastWorkerCheck.ok
              ? 'The payout worker is running'
              : status.lastWorkerCheck.error ?? 'The payout worker reported a problem'
            : 'The payout worker has not run yet',
    },
  ]
}

/**
 * Issue 22: on the current pool an app that enabled its rewards pool is paid from that balance
 * only. Zero there with an allocation available means every payout reverts until an app admin
 * moves funds across: say exactly which call.
 */
export function fundingAdvice(status: Pick<ContractStatus, 'appId' | 'poolAddress' | 'rewardsPoolEnabled' | 'availableFundsWei' | 'rewardsPoolBalanceWei'>): string | null {
  const { appId, rewardsPoolEnabled, availableFundsWei: available, rewardsPoolBalanceWei: pool } = status
  if (!appId || !available?.ok || !pool?.ok || available.value === 0n || pool.value > 0n) return null
  if (rewardsPoolEnabled?.ok && !rewardsPoolEnabled.value) return null
  return (
    `The app's rewards pool holds 0 B3TR while ${formatUnits(available.value, 2)} B3TR of its allocation is available, ` +
    `and payouts are paid from the rewards pool. An app admin moves funds across by calling ` +
    `increaseRewardsPoolBalance(${appId}, ${available.value}) on X2EarnRewardsPool ${status.poolAddress} ` +
    `(the amount in wei, at most the available ${available.value}).`
  )
}

export type ReadView<T> = { ok: true; value: T } | { ok: false; error: string }

const view = <T, U>(r: Read<T> | null, map: (v: T) => U): ReadView<U> | null => (r === null ? null : r.ok ? { ok: true, value: map(r.value) } : r)

/** JSON-safe (no bigint) for loaders and the status APIs: token amounts as decimal strings. */
export function presentContractStatus(status: ContractStatus) {
  const units = (wei: bigint) => formatUnits(wei, 2)
  return {
    network: status.network,
    poolAddress: status.poolAddress,
    appsAddress: status.appsAddress,
    b3trAddress: status.b3trAddress,
    appId: status.appId,
    payoutsConfigured: status.payoutsConfigured,
    distributor: status.distributor,
    poolHasCode: status.poolHasCode,
    poolVersion: status.poolVersion,
    appExists: status.appExists,
    distributionPaused: status.distributionPaused,
    isRewardDistributor: status.isRewardDistributor,
    rewardsPoolEnabled: status.rewardsPoolEnabled,
    budgetB3tr: view(status.budgetWei, units),
    availableFundsB3tr: view(status.availableFundsWei, units),
    rewardsPoolBalanceB3tr: view(status.rewardsPoolBalanceWei, units),
    fundingAdvice: fundingAdvice(status),
    passportAddress: status.passportAddress,
    fees: view(status.fees, (f) => ({
      baseFeePerGas: f.baseFeePerGas.toString(),
      priorityFeePerGas: f.priorityFeePerGas.toString(),
      maxFeePerGas: f.maxFeePerGas.toString(),
      /** VTHO for 100,000 gas (about one payout) at the base fee + tip, and at most at the cap. */
      payoutVtho: formatUnits(100_000n * (f.baseFeePerGas + f.priorityFeePerGas), 4),
      payoutMaxVtho: formatUnits(100_000n * f.maxFeePerGas, 4),
    })),
    poolB3tr: view(status.poolB3trWei, units),
    distributorVet: view(status.distributorVetWei, units),
    distributorVtho: view(status.distributorVthoWei, units),
    lastWorkerCheck: status.lastWorkerCheck,
    checklist: integrationChecklist(status),
    /** Ready to pay: every box of the checklist is ticked. */
    ready: integrationChecklist(status).every((item) => item.done),
  }
}

export type ContractStatusView = ReturnType<typeof presentContractStatus>

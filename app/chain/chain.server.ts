import { getEnv } from '~/utils/env.server'
import { chainConfigFromEnv, payoutConfigFromEnv, type ChainConfig, type PayoutConfig } from './config.server'
import { createThorClient, type ThorClient } from './thor.server'

/** The chain as configured for this process: read from the environment, nothing cached that matters. */
export function getChainConfig(): ChainConfig {
  return chainConfigFromEnv(getEnv())
}

export function getPayoutConfig(): PayoutConfig | null {
  return payoutConfigFromEnv(getEnv())
}

/** Pages read the node with a short timeout so an unreachable node makes an honest page, not a hanging one. */
export function getThor(opts: { timeoutMs?: number } = {}): ThorClient {
  return createThorClient({ baseUrl: getChainConfig().nodeUrl, timeoutMs: opts.timeoutMs ?? 4_000 })
}

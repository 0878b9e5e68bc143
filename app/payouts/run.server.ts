import type { DB } from '#db/db.server'
import { payoutConfigFromEnv } from '~/chain/config.server'
import { getLogger } from '~/ops/logger.server'
import { createThorClient } from '~/chain/thor.server'
import type { Env } from '~/utils/env.server'
import { newWorkerId, runPayoutWorker } from './worker.server'

/**
 * Starts the payout loop when payouts are configured; returns a stop function, or null (with the
 * reason logged) when they are not. Safe to run in every instance: rows are leased one at a time.
 */
export function startPayouts(db: DB, env: Env, log: (message: string) => void = payoutLog()): (() => Promise<void>) | null {
  const config = payoutConfigFromEnv(env)
  if (!config) {
    log('Payouts are not configured (PAYOUT_PRIVATE_KEY or PAYOUT_MNEMONIC, and VEBETTER_APP_ID): claims are recorded and wait for payout.')
    return null
  }
  const controller = new AbortController()
  const thor = createThorClient({ baseUrl: config.nodeUrl, timeoutMs: 15_000 })
  const ctx = { db, thor, config, workerId: newWorkerId(), log }
  log(`Payouts: distributor ${config.distributor}, app ${config.appId}, node ${config.nodeUrl}`)
  const done = runPayoutWorker(ctx, controller.signal)
  // Stop: no new payout is taken; the one in hand finishes its step (signed and stored, or sent).
  return async () => {
    controller.abort()
    await done
  }
}

/** The payout worker's lines, in the process's JSON log (component "payouts"). */
function payoutLog(): (message: string) => void {
  const logger = getLogger().child({ component: 'payouts' })
  return (message) => logger.info(message)
}

import type { GlobalSetupContext } from 'vitest/node'
import { startFakeThorServer, type FakeThorServer } from '../mocks/fake-thor-server'
import { NEW_WALLETS } from '../utils/wallet'
import { startAppServer, type AppServer } from './app-server'

let app: AppServer | undefined
let chain: FakeThorServer | undefined

/**
 * One app server for the browser tests (payouts.e2e.ts starts its own, with a fake chain), asking
 * VeBetter Passport on a fake Thor node. Standing (issue 31): the node counts every wallet as a
 * person except NEW_WALLETS, so the tests about what an established wallet earns keep their
 * wallets paid at once, and tests/e2e/standing.e2e.ts has wallets without standing.
 */
export async function setup({ provide }: GlobalSetupContext) {
  chain = await startFakeThorServer({ defaultPassport: { person: true }, blockIntervalMs: 10_000 })
  for (const wallet of NEW_WALLETS) chain.fake.setPassport(wallet.address, { person: false })
  try {
    app = await startAppServer({
      THOR_NODE_URL: chain.url,
      PASSPORT_CHECKS: 'on',
      // Every browser here signs in from one address, dozens of wallets a minute on a quiet
      // machine: the per-address sign-in limits (tested in tests/rate-limits.test.ts) would refuse
      // the later ones. The per-wallet limits stay as configured.
      RATE_LIMIT_CHALLENGE_PER_IP_PER_MINUTE: '600',
      RATE_LIMIT_CERTIFICATE_PER_IP_PER_MINUTE: '600',
      // Likewise the photos the suite's files send, all from that one address.
      RATE_LIMIT_ANALYSIS_PER_IP_PER_HOUR: '1000',
    })
  } catch (error) {
    await chain.close()
    throw error
  }
  provide('baseUrl', app.baseUrl)
  provide('dbUrl', app.dbUrl)
  provide('thorUrl', chain.url)
}

export async function teardown() {
  await app?.stop()
  await chain?.close()
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    dbUrl: string
    /** The fake Thor node of the shared server, for a test that starts its own app servers. */
    thorUrl: string
  }
}

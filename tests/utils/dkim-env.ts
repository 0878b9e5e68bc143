import { afterAll, beforeAll } from 'vitest'
import { resetEnvCache } from '../../app/utils/env.server'
import { startDkimDns, type DkimDns } from './dkim-dns'
import { TEST_EXTRA_SENDERS } from './ereceipts'

/**
 * For a describe block or a file: a DNS server on the loopback that publishes the test keys, set as
 * DNS_SERVERS with the test's extra senders, put back afterwards. Read `.current` inside the tests.
 */
export function useDkimDns(): { current: DkimDns } {
  const holder = {} as { current: DkimDns }
  beforeAll(async () => {
    holder.current = await startDkimDns()
    process.env.DNS_SERVERS = holder.current.server
    process.env.ERECEIPT_SENDERS = TEST_EXTRA_SENDERS
    resetEnvCache()
  })
  afterAll(async () => {
    await holder.current?.close()
    delete process.env.DNS_SERVERS
    delete process.env.ERECEIPT_SENDERS
    resetEnvCache()
  })
  return holder
}

import dgram from 'node:dgram'
import { afterAll, beforeAll } from 'vitest'
import type { Browser } from 'playwright-core'
import { startDkimDns, type DkimDns } from '../utils/dkim-dns'
import { TEST_EXTRA_SENDERS } from '../utils/ereceipts'
import { startAppServer, type AppServer } from './app-server'
import { launchBrowser } from './browser'

/** A port nobody listens on now (UDP's free port; the TCP one is almost always free too). */
async function freePortish(): Promise<number> {
  const socket = dgram.createSocket('udp4')
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address()
  socket.close()
  return port
}

export type EReceiptApp = { app: AppServer; browser: Browser; dns: DkimDns; smtpPort: number }

/**
 * For a browser test file: an app server that reads DKIM keys from a DNS server on the loopback and
 * takes forwarded mail on its own SMTP port, and a browser. Read `.current` inside the tests.
 */
export function useEReceiptApp(): { current: EReceiptApp } {
  const holder = {} as { current: EReceiptApp }
  beforeAll(async () => {
    const dns = await startDkimDns()
    const smtpPort = await freePortish()
    const [app, browser] = await Promise.all([
      startAppServer({
        DNS_SERVERS: dns.server,
        ERECEIPT_SENDERS: TEST_EXTRA_SENDERS,
        INBOUND_DOMAIN: 'in.recircle.test',
        INBOUND_SMTP_PORT: String(smtpPort),
        INBOUND_SMTP_HOST: '127.0.0.1',
      }),
      launchBrowser(),
    ])
    holder.current = { app, browser, dns, smtpPort }
  })
  afterAll(async () => {
    await holder.current?.browser.close()
    await holder.current?.app.stop()
    await holder.current?.dns.close()
  })
  return holder
}

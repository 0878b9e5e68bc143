/**
 * The test DNS server the e-receipt tests publish DKIM keys on (tests/utils/dkim-dns.ts). Its port
 * is found free for UDP; once, on the CI machine, its TCP half was taken and the suite hung on a
 * listen that never settled. It now moves to another port.
 */
import net from 'node:net'
import { promises as dns } from 'node:dns'
import { afterAll, expect, it } from 'vitest'
import { freePort, startDkimDns } from './utils/dkim-dns'

const opened: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of opened) await close()
})

it('listens on another port when its TCP port is taken, and answers there', async () => {
  const taken = net.createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  opened.push(() => new Promise<void>((resolve) => taken.close(() => resolve())))
  const takenPort = (taken.address() as net.AddressInfo).port
  const tried: number[] = []
  const ports = [takenPort]
  const dnsServer = await startDkimDns(async () => {
    const port = ports.shift() ?? (await freePort())
    tried.push(port)
    return port
  })
  opened.push(() => dnsServer.close())
  expect(tried[0]).toBe(takenPort)
  expect(dnsServer.server).not.toBe(`127.0.0.1:${takenPort}`)
  dnsServer.publish('sel._domainkey.example.test', 'v=DKIM1; p=abc')
  const resolver = new dns.Resolver()
  resolver.setServers([dnsServer.server])
  await expect(resolver.resolveTxt('sel._domainkey.example.test')).resolves.toEqual([['v=DKIM1; p=abc']])
})

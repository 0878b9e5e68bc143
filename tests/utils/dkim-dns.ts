/**
 * A real DNS server (dns2, UDP and TCP on one loopback port) that publishes DKIM test keys, for the
 * e-receipt tests and the bench (issue 21). The app reaches it through DNS_SERVERS, as it would a
 * private resolver: no verifier is stubbed.
 */
import dgram from 'node:dgram'
import dns2 from 'dns2'

const { Packet } = dns2

export type DkimDns = {
  /** "127.0.0.1:port", for DNS_SERVERS. */
  server: string
  publish(name: string, txt: string): void
  /** Answer SERVFAIL for this name (a resolver in trouble). */
  fail(name: string): void
  /** Never answer for this name (a resolver that does not respond). */
  hang(name: string): void
  /** Names asked since the last reset, in order (a retry counts again). */
  queries: string[]
  reset(): void
  close(): Promise<void>
}

/** A port free for UDP on the loopback (its TCP twin may be taken: startDkimDns). */
export async function freePort(): Promise<number> {
  const socket = dgram.createSocket('udp4')
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address()
  await new Promise<void>((resolve) => socket.close(() => resolve()))
  return port
}

/** TXT strings are at most 255 bytes each (RFC 1035); DKIM keys are longer and split. */
function chunks(txt: string): string[] {
  const out: string[] = []
  for (let i = 0; i < txt.length; i += 255) out.push(txt.slice(i, i + 255))
  return out
}

/** `nextPort`: where to try to listen next (a free UDP port by default). */
export async function startDkimDns(nextPort: () => Promise<number> = freePort): Promise<DkimDns> {
  const records = new Map<string, string>()
  const failing = new Set<string>()
  const hanging = new Set<string>()
  const queries: string[] = []
  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request)
    const [question] = request.questions
    const name = question.name.toLowerCase().replace(/\.$/, '')
    queries.push(name)
    if (hanging.has(name)) return
    const txt = records.get(name)
    if (failing.has(name)) response.header.rcode = 2 /* SERVFAIL */
    else if (txt === undefined || question.type !== Packet.TYPE.TXT) response.header.rcode = 3 /* NXDOMAIN */
    else response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: chunks(txt) } as never)
    void send(response)
  }
  for (let attempt = 0; ; attempt++) {
    // The port is free for UDP; TCP's may be taken all the same. dns2 reports that as an 'error'
    // event and never settles its listen(): a new server on another port then.
    const port = await nextPort()
    const server = dns2.createServer({ udp: true, tcp: true, handle })
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } } as never).then(() => {
          server.off('error', reject)
          resolve()
        }, reject)
      })
      return {
        server: `127.0.0.1:${port}`,
        publish: (name, txt) => void records.set(name.toLowerCase(), txt),
        fail: (name) => void failing.add(name.toLowerCase()),
        hang: (name) => void hanging.add(name.toLowerCase()),
        queries,
        reset: () => {
          records.clear()
          failing.clear()
          hanging.clear()
          queries.length = 0
        },
        close: async () => {
          await server.close()
        },
      }
    } catch (error) {
      // Whichever half did bind is let go.
      for (const half of Object.values((server as unknown as { servers: Record<string, { close: () => void }> }).servers)) {
        try {
          half.close()
        } catch {
          // It never listened.
        }
      }
      if (attempt >= 5) throw error
    }
  }
}

/**
 * Issue 29, point 6: one client cannot fill the SMTP listener. Real TCP sessions speak SMTP to the
 * listener: connections per address are capped (another address is still served), recipients per
 * message are capped with RFC 5321's 452, and a session that only sends NOOP is closed.
 */
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startInboundSmtp, type InboundSmtp } from '../app/ereceipts/smtp.server'
import { getInboundAddress } from '../app/ereceipts/inbound.server'
import { receiveForwardedEmail } from '../app/receipts/forwarded.server'
import { getDb } from '../app/utils/db.server'
import { useTestEnv } from './utils/env'
import { signInNewUser } from './utils/requests'

useTestEnv({ INBOUND_DOMAIN: 'in.recircle.test' })

type Session = { socket: net.Socket; greeting: Promise<string>; send: (line: string) => Promise<string>; closed: Promise<void> }

/** An SMTP client session over a plain socket, from `localAddress` (any 127.x.y.z is this machine). */
function connect(port: number, localAddress = '127.0.0.1'): Session {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress })
  const waiting: Array<(reply: string) => void> = []
  let buffer = ''
  socket.on('data', (chunk) => {
    buffer += chunk.toString()
    // A reply ends with a line "NNN text" (a space after the code, not a dash).
    for (let end = buffer.search(/^\d{3} .*\r\n/m); end >= 0; end = buffer.search(/^\d{3} .*\r\n/m)) {
      const lineEnd = buffer.indexOf('\r\n', end) + 2
      const reply = buffer.slice(0, lineEnd)
      buffer = buffer.slice(lineEnd)
      waiting.shift()?.(reply)
    }
  })
  socket.on('error', () => {})
  const next = () => new Promise<string>((resolve) => waiting.push(resolve))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return {
    socket,
    greeting: next(),
    send: (line) => {
      const reply = next()
      socket.write(`${line}\r\n`)
      return reply
    },
    closed,
  }
}

const code = (reply: string) => reply.slice(0, 3)

let smtp: InboundSmtp
const open: Session[] = []

beforeAll(async () => {
  smtp = await startInboundSmtp(getDb(), {
    port: 0,
    host: '127.0.0.1',
    receive: receiveForwardedEmail,
    limits: { perAddress: 3, recipients: 3, sessionMaxMs: 1500 },
  })
})
afterAll(async () => {
  for (const s of open) s.socket.destroy()
  await smtp.close()
})

function session(localAddress?: string) {
  const s = connect(smtp.port, localAddress)
  open.push(s)
  return s
}

describe('the SMTP listener under one client', () => {
  it('caps the connections of one address and still serves another', async () => {
    const first = [session(), session(), session()]
    for (const s of first) expect(code(await s.greeting)).toBe('220')
    const extra = session()
    expect(await extra.greeting).toMatch(/^421 .*Too many connections from your address/)
    await extra.closed
    const other = session('127.0.0.2')
    expect(code(await other.greeting)).toBe('220')
    // A slot comes back when its connection ends.
    first[0].socket.destroy()
    await first[0].closed
    let again = ''
    for (let i = 0; i < 20 && code(again) !== '220'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      again = await session().greeting
    }
    expect(code(again)).toBe('220')
    for (const s of open) s.socket.destroy()
  })

  it('takes at most the recipient cap in one message (452 for the rest)', async () => {
    const { user } = await signInNewUser()
    const address = (await getInboundAddress(getDb(), user.id))!
    const [local, domain] = address.split('@')
    const s = session('127.0.0.3')
    expect(code(await s.greeting)).toBe('220')
    expect(code(await s.send('EHLO client.example'))).toBe('250')
    expect(code(await s.send('MAIL FROM:<me@example.org>'))).toBe('250')
    for (let i = 0; i < 3; i++) expect(code(await s.send(`RCPT TO:<${local}+${i}@${domain}>`))).toBe('250')
    expect(await s.send(`RCPT TO:<${local}+9@${domain}>`)).toMatch(/^452 .*Too many recipients/)
    s.socket.destroy()
  })

  it('closes a session that only sends NOOP once its time is up', async () => {
    const s = session('127.0.0.4')
    expect(code(await s.greeting)).toBe('220')
    let closed = false
    void s.closed.then(() => (closed = true))
    // NOOP every 200 ms for at most 5 s: each resets the idle timer, not the session's limit (1.5 s).
    for (let i = 0; i < 25 && !closed; i++) {
      s.socket.write('NOOP\r\n')
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(closed).toBe(true)
  })
})

/**
 * The built-in SMTP listener for forwarded e-receipts (issue 21), started when INBOUND_SMTP_PORT is
 * set. It accepts mail only for known forwarding addresses on INBOUND_DOMAIN and answers the
 * sending server with the outcome, so a refused receipt bounces back to the rider with the reason.
 * What a delivered message becomes is the caller's (`receive`: app/receipts/forwarded.server.ts).
 *
 * Issue 29: one client cannot fill it. A message names at most MAX_RECIPIENTS recipients, an idle
 * connection is dropped after SOCKET_TIMEOUT_MS, and no session outlives SESSION_MAX_MS however busy
 * it keeps itself (NOOP resets the idle timer, not this one).
 *
 * Issue 39: nor can a handful of clients (decision 110). Of the MAX_CLIENTS sessions, each address
 * (an IPv6 /64) holds at most MAX_CONNECTIONS_PER_ADDRESS, and the last RESERVED_FOR_NEW_ADDRESSES
 * are kept for addresses that hold none: once the pool is that full, an address that already has a
 * session is told 421 (try later) first, so a mail server that forwards one receipt still gets in.
 */
import type { Socket } from 'node:net'
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server'
import type { DB } from '#db/db.server'
import { errorMessage, getLogger } from '~/ops/logger.server'
import { ipKey } from '~/utils/rate-limit.server'
import { MAX_EMAIL_BYTES } from './message.server'
import { userForInboundAddress } from './inbound.server'

export const MAX_CLIENTS = 100
/** A mail server delivers a forward in one session; a few allow for retries and parallel queues. */
export const MAX_CONNECTIONS_PER_ADDRESS = 4
/** Sessions only an address without one may take: the flood's addresses never get the last ones. */
export const RESERVED_FOR_NEW_ADDRESSES = 10
/** A forward goes to one personal address; RFC 5321's 452 asks the sender to send the rest later. */
export const MAX_RECIPIENTS = 10
export const SOCKET_TIMEOUT_MS = 30_000
/** Time enough to send a 5 MB message slowly; a session that only talks is closed by then. */
export const SESSION_MAX_MS = 3 * 60_000

export type ReceiveResult =
  | { ok: true; kind: 'receipt'; receiptId: number; status: 'approved' | 'pending_review'; note?: string }
  /** A mail provider's forwarding confirmation, kept for the address's owner (issue 39). */
  | { ok: true; kind: 'confirmation'; provider: string }
  /** `retryAfter`: a temporary refusal (the owner's rate limit, DNS): a 4xx, so the sending server tries later. */
  | { ok: false; status: number; error: string; retryAfter?: number }

export type InboundSmtpOptions = {
  port: number
  host: string
  /** What a delivered message becomes: the receipt of the owner of a recipient address. */
  receive: (db: DB, input: { recipients: string[]; raw: Buffer }) => Promise<ReceiveResult>
  /** Tests shorten the limits; production uses the constants above. */
  limits?: Partial<{ maxClients: number; perAddress: number; reserved: number; recipients: number; socketTimeoutMs: number; sessionMaxMs: number }>
}

export type InboundSmtp = { port: number; close: () => Promise<void> }

function smtpError(message: string, responseCode: number) {
  return Object.assign(new Error(message), { responseCode })
}

export type SessionLimits = { maxClients: number; perAddress: number; reserved: number }

/**
 * Pure: whether a new session from an address holding `held` sessions may open while `open` are
 * open, or the 421 it gets. Addresses already connected yield the reserve to addresses that are not.
 */
export function admitSession(limits: SessionLimits, open: number, held: number): string | null {
  if (held >= limits.perAddress) return 'Too many connections from your address, try again later'
  if (open >= limits.maxClients) return 'Too many connected clients, try again later'
  if (held > 0 && open >= limits.maxClients - limits.reserved) return 'Busy: too many connections from your address for now, try again later'
  return null
}

export async function startInboundSmtp(db: DB, opts: InboundSmtpOptions): Promise<InboundSmtp> {
  const limits = {
    maxClients: MAX_CLIENTS,
    perAddress: MAX_CONNECTIONS_PER_ADDRESS,
    reserved: RESERVED_FOR_NEW_ADDRESSES,
    recipients: MAX_RECIPIENTS,
    socketTimeoutMs: SOCKET_TIMEOUT_MS,
    sessionMaxMs: SESSION_MAX_MS,
    ...opts.limits,
  }
  // Connections belong to this process's sockets: counting them here is exact.
  const perAddress = new Map<string, number>()
  const addressOf = new Map<string, string>()
  let open = 0
  const server = new SMTPServer({
    // Mail servers deliver without authentication; TLS is offered by a proxy in front when wanted.
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_EMAIL_BYTES,
    // smtp-server's own cap is only a backstop: sessions refused below still hold a socket briefly.
    maxClients: limits.maxClients * 2,
    socketTimeout: limits.socketTimeoutMs,
    banner: 'ReCircle e-receipts',
    logger: false,
    onConnect(session, callback) {
      const key = ipKey(session.remoteAddress)
      const held = perAddress.get(key) ?? 0
      const refusal = admitSession(limits, open, held)
      if (refusal) return callback(smtpError(refusal, 421))
      perAddress.set(key, held + 1)
      addressOf.set(session.id, key)
      open += 1
      callback()
    },
    onClose(session) {
      const key = addressOf.get(session.id)
      if (key === undefined) return
      addressOf.delete(session.id)
      open -= 1
      const left = (perAddress.get(key) ?? 1) - 1
      if (left > 0) perAddress.set(key, left)
      else perAddress.delete(key)
    },
    async onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= limits.recipients) return callback(smtpError('Too many recipients', 452))
      try {
        const userId = await userForInboundAddress(db, address.address)
        if (userId === null) return callback(smtpError('No such ReCircle forwarding address', 550))
        callback()
      } catch {
        callback(smtpError('Temporary failure, try again later', 451))
      }
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = []
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        // Past the limit the rest is read and dropped (smtp-server answers 552), never held.
        size += chunk.length
        if (size <= MAX_EMAIL_BYTES) chunks.push(chunk)
      })
      stream.on('end', async () => {
        if (stream.sizeExceeded || size > MAX_EMAIL_BYTES) return callback(smtpError('Message too large: e-receipts must be under 5 MB', 552))
        try {
          const recipients = session.envelope.rcptTo.map((r) => r.address)
          const result = await opts.receive(db, { recipients, raw: Buffer.concat(chunks) })
          // The answer never carries a confirmation's code or link: they are for the owner's eyes.
          if (result.ok && result.kind === 'confirmation') return callback(null, 'Forwarding confirmation received: the address owner confirms it on ReCircle')
          if (result.ok) {
            const outcome = result.status === 'approved' ? 'credited' : 'received for review'
            return callback(null, `Receipt ${outcome} (#${result.receiptId})${result.note ? `. ${result.note}` : ''}`)
          }
          const temporary = result.retryAfter !== undefined || result.status === 503
          callback(smtpError(result.error, temporary ? 451 : 550))
        } catch (error) {
          getLogger().error({ err: errorMessage(error) }, 'inbound e-receipt failed')
          callback(smtpError('Temporary failure, try again later', 451))
        }
      })
    },
  })
  // The session's whole life is bounded on its socket, whatever commands keep it busy.
  server.server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), limits.sessionMaxMs)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host, () => resolve())
  })
  server.on('error', (error) => getLogger().error({ err: error.message }, 'inbound SMTP error'))
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : opts.port
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/**
 * The built-in SMTP listener for forwarded e-receipts (issue 21), started when INBOUND_SMTP_PORT is
 * set. It accepts mail only for known forwarding addresses on INBOUND_DOMAIN and answers the
 * sending server with the outcome, so a refused receipt bounces back to the rider with the reason.
 */
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server'
import type { DB } from '#db/db.server'
import { errorMessage, getLogger } from '~/ops/logger.server'
import { MAX_EMAIL_BYTES } from './message.server'
import { receiveForwardedEmail } from '~/receipts/forwarded.server'
import { userForInboundAddress } from './inbound.server'

export type InboundSmtp = { port: number; close: () => Promise<void> }

function smtpError(message: string, responseCode: number) {
  return Object.assign(new Error(message), { responseCode })
}

export async function startInboundSmtp(db: DB, opts: { port: number; host: string }): Promise<InboundSmtp> {
  const server = new SMTPServer({
    // Mail servers deliver without authentication; TLS is offered by a proxy in front when wanted.
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_EMAIL_BYTES,
    maxClients: 100,
    socketTimeout: 60_000,
    banner: 'ReCircle e-receipts',
    logger: false,
    async onRcptTo(address, _session, callback) {
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
          const result = await receiveForwardedEmail(db, { recipients, raw: Buffer.concat(chunks) })
          if (result.ok) {
            const outcome = result.status === 'approved' ? 'credited' : 'received for review'
            return callback(null, `Receipt ${outcome} (#${result.receiptId})`)
          }
          callback(smtpError(result.error, result.status === 503 ? 451 : 550))
        } catch (error) {
          getLogger().error({ err: errorMessage(error) }, 'inbound e-receipt failed')
          callback(smtpError('Temporary failure, try again later', 451))
        }
      })
    },
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

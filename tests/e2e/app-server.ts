import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { ADMIN_WALLET } from '../utils/wallet'

export type AppServer = {
  baseUrl: string
  dbUrl: string
  output: () => string
  stop: () => Promise<void>
  /** Send a signal to the server process (the shutdown test's SIGTERM). */
  kill: (signal: NodeJS.Signals) => void
  /** The exit code once the process has ended (null when a signal ended it). */
  exited: Promise<number | null>
}

/** A port nothing listens on now, from the OS (a random pick collided with another test's server). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** Starts the built app (npm test builds first) on a free port with its own SQLite file. */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  if (!fs.existsSync('build/index.js')) throw new Error('Run `npm run build` before the browser tests')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-e2e-'))
  const dbUrl = env.DATABASE_URL ?? `file:${path.join(dir, 'e2e.db')}`
  // Between the probe closing and the server listening, something else may take the port: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), dir, dbUrl, env)
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= 3) {
        fs.rmSync(dir, { recursive: true, force: true })
        throw error
      }
    }
  }
}

class PortTaken extends Error {}

async function startOn(port: number, dir: string, dbUrl: string, env: Record<string, string>): Promise<AppServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: dbUrl,
      SESSION_SECRET: 'e2e-session-secret-that-is-long-enough-0123456789',
      ADMIN_WALLETS: ADMIN_WALLET.address,
      RECIRCLE_TEST_MODE: '',
      OCR_WORKERS: '1',
      // The browser suite's photos are read by tesseract; the second reader has its own tests.
      SECOND_READER: 'off',
      // Off unless the caller gives a node (THOR_NODE_URL of a fake and PASSPORT_CHECKS 'on'). Off,
      // no wallet is a Passport person, so under issue 31's standing rule every photo of a wallet
      // without a staff-approved receipt or an approved e-receipt waits for staff. The shared
      // server (global-setup.ts) asks a fake node that counts every wallet but NEW_WALLETS
      // (tests/utils/wallet.ts) as a person; tests/passport.test.ts covers signals and blacklisting.
      PASSPORT_CHECKS: 'off',
      // Photo rewards are claimable at once and never audited unless a suite asks
      // (tests/e2e/maturing.e2e.ts sets the hold and the audit rate, issue 38).
      PHOTO_REWARD_HOLD_HOURS: '0',
      PHOTO_AUDIT_RATE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  // Everything the process wrote has arrived once its pipes close, which may be after it exited.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  const baseUrl = `http://localhost:${port}`
  // This process's own line: an answer on the port before it comes from some other server.
  const listening = `listening on ${baseUrl}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) {
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2_000))])
      if (output.includes('EADDRINUSE')) throw new PortTaken(`Port ${port} was taken`)
      throw new Error(`Server exited early:\n${output}`)
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`Server did not start:\n${output}`)
    }
    try {
      if (output.includes(listening) && (await fetch(`${baseUrl}/help`)).ok && child.exitCode === null) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    baseUrl,
    dbUrl,
    output: () => output,
    kill: (signal) => void child.kill(signal),
    exited,
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((r) => setTimeout(r, 300))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { GlobalSetupContext } from 'vitest/node'
import { ADMIN_WALLET } from '../utils/wallet'

let child: ChildProcess | undefined
let dir: string | undefined

/** Starts the built app (npm test builds first) on a free port with its own SQLite file. */
export async function setup({ provide }: GlobalSetupContext) {
  if (!fs.existsSync('build/index.js')) throw new Error('Run `npm run build` before the browser tests')
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-e2e-'))
  const port = 4300 + Math.floor(Math.random() * 500)
  child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: `file:${path.join(dir, 'e2e.db')}`,
      SESSION_SECRET: 'e2e-session-secret-that-is-long-enough-0123456789',
      ADMIN_WALLETS: ADMIN_WALLET.address,
      RECIRCLE_TEST_MODE: '',
      OCR_WORKERS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  const baseUrl = `http://localhost:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`)
    try {
      const res = await fetch(`${baseUrl}/help`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  if (Date.now() >= deadline) throw new Error(`Server did not start:\n${output}`)
  provide('baseUrl', baseUrl)
  provide('dbUrl', `file:${path.join(dir, 'e2e.db')}`)
}

export async function teardown() {
  child?.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 300))
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    dbUrl: string
  }
}

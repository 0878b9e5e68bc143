import { spawn, type ChildProcess } from 'node:child_process'
import autocannon from 'autocannon'
import { Certificate, blake2b256, secp256k1, address } from 'thor-devkit'
import { freePort } from '../../tests/setup/postgres'

export { freePort }

// Helpers of the HTTP benchmarks (ssr.ts, scale.ts): start servers on this machine,
// sign a wallet in, and load a URL with autocannon. Traffic only goes to 127.0.0.1.

export type Started = { url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> }

/** Spawn a server and wait until `readyPath` answers 200 (60 s at most). */
export async function startServer(command: string, args: string[], opts: { env: NodeJS.ProcessEnv; port: number; cwd?: string; readyPath?: string }): Promise<Started> {
  const child = spawn(command, args, { env: opts.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  const url = `http://127.0.0.1:${opts.port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited early:\n${output}`)
    if (Date.now() > deadline) throw new Error(`${command} did not start:\n${output}`)
    try {
      if ((await fetch(url + (opts.readyPath ?? '/'))).ok) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  const stop = async () => {
    if (child.exitCode !== null) return
    child.kill('SIGTERM')
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => (child.kill('SIGKILL'), resolve()), 5000)
      child.once('exit', () => (clearTimeout(timer), resolve()))
    })
  }
  return { url, child, output: () => output, stop }
}

/** A fresh wallet signs the server's challenge; returns the session cookie. */
export async function signIn(baseUrl: string): Promise<string> {
  const privateKey = secp256k1.generatePrivateKey()
  const signer = address.fromPublicKey(secp256k1.derivePublicKey(privateKey))
  const challenge = (await (await fetch(`${baseUrl}/api/auth/challenge`, { method: 'POST' })).json()) as { content: string }
  const unsigned = {
    purpose: 'identification' as const,
    payload: { type: 'text' as const, content: challenge.content },
    domain: new URL(baseUrl).hostname,
    timestamp: Math.floor(Date.now() / 1000),
    signer,
  }
  const signature = '0x' + secp256k1.sign(blake2b256(Certificate.encode(unsigned)), privateKey).toString('hex')
  const res = await fetch(`${baseUrl}/api/auth/certificate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ certificate: { ...unsigned, signature } }),
  })
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  return res.headers.get('set-cookie')!.split(';')[0]
}

export type Load = { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number; non2xx: number }

/** autocannon against the URLs (one per server) at once, after a short warm-up. */
export async function load(urls: string[], opts: { connections: number; seconds: number; warmupSeconds?: number; cookie?: string }): Promise<Load> {
  const headers = opts.cookie ? { cookie: opts.cookie } : undefined
  // One server: one autocannon. Several: one each, at once, the connections split between them.
  const per = Math.max(1, Math.floor(opts.connections / urls.length))
  const runAll = (seconds: number) => Promise.all(urls.map((url) => autocannon({ url, connections: per, duration: seconds, headers })))
  if (opts.warmupSeconds) await runAll(opts.warmupSeconds)
  const results = await runAll(opts.seconds)
  return {
    requestsPerSecond: Math.round(results.reduce((n, r) => n + r.requests.average, 0)),
    p50Ms: Math.max(...results.map((r) => r.latency.p50)),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
  }
}

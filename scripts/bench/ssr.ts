/**
 * Server-rendering capacity of one instance (issue 12), in one run on this machine:
 *   npm run build && npm run bench:ssr [-- --seconds 10 --connections 50 --rounds 3]
 * A trivial Remix v2 page (one loader, one <h1>, scripts/bench/ssr-trivial) served by remix-serve,
 * ReCircle's static /terms-of-service, and a signed-in /home, each loaded with autocannon. Prints
 * one JSON object with requests/s, p50/p99 and the targets: static ≥ 0.6 × trivial, /home ≥ 0.8 ×
 * static, p99 of /home ≤ 100 ms. The three pages are loaded in turn, `rounds` times, and each figure
 * is the median over the rounds: on a shared 2-core machine one run can be a third off the next.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { freePort, load, signIn, startServer, type Load, type Started } from './http'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const seconds = arg('seconds', 10)
const connections = arg('connections', 50)
const rounds = arg('rounds', 3)

if (!fs.existsSync(path.join(repoRoot, 'build/index.js'))) {
  console.error('No build: run `npm run build` first.')
  process.exit(1)
}

/** Build the trivial app in a temporary folder that borrows ReCircle's node_modules. */
function buildTrivial(dir: string) {
  fs.cpSync(path.join(repoRoot, 'scripts/bench/ssr-trivial'), dir, { recursive: true })
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'))
  const dependencies = Object.fromEntries(['@remix-run/node', '@remix-run/react', '@remix-run/serve', 'isbot', 'react', 'react-dom'].map((p) => [p, '*']))
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', dependencies }))
  execFileSync(path.join(repoRoot, 'node_modules/.bin/remix'), ['build'], { cwd: dir, stdio: 'ignore' })
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-bench-ssr-'))
const servers: Started[] = []
try {
  const trivialDir = path.join(tmp, 'trivial')
  buildTrivial(trivialDir)
  const trivialPort = await freePort()
  const trivial = await startServer(path.join(repoRoot, 'node_modules/.bin/remix-serve'), ['build/index.js'], {
    cwd: trivialDir,
    port: trivialPort,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(trivialPort) },
  })
  servers.push(trivial)

  const port = await freePort()
  // As production starts it (the image's NODE_OPTIONS and `npm start`, decision 106).
  const app = await startServer(process.execPath, ['--max-semi-space-size=32', '--import', 'tsx', 'scripts/start.ts'], {
    cwd: repoRoot,
    port,
    readyPath: '/terms-of-service',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: `file:${path.join(tmp, 'bench.db')}`,
      SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0123456789',
      RECIRCLE_TEST_MODE: '',
      OCR_WORKERS: '1',
    },
  })
  servers.push(app)
  const cookie = await signIn(app.url)

  const opts = { connections, seconds, warmupSeconds: 3 }
  const runs: Array<{ trivial: Load; static: Load; home: Load }> = []
  for (let round = 0; round < rounds; round++) {
    runs.push({
      trivial: await load([`${trivial.url}/`], opts),
      static: await load([`${app.url}/terms-of-service`], opts),
      home: await load([`${app.url}/home`], { ...opts, cookie }),
    })
  }
  const trivialLoad = medianLoad(runs.map((r) => r.trivial))
  const staticLoad = medianLoad(runs.map((r) => r.static))
  const homeLoad = medianLoad(runs.map((r) => r.home))
  const inProcess = await renderCostInProcess(app.url, path.join(tmp, 'bench.db'), cookie)
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100
  const staticVsTrivial = ratio(staticLoad.requestsPerSecond, trivialLoad.requestsPerSecond)
  const homeVsStatic = ratio(homeLoad.requestsPerSecond, staticLoad.requestsPerSecond)
  console.log(
    JSON.stringify({
      machine: { cpus: os.cpus().length, node: process.version },
      connections,
      seconds,
      rounds: runs.map((r) => ({ trivial: r.trivial.requestsPerSecond, static: r.static.requestsPerSecond, home: r.home.requestsPerSecond, homeP99Ms: r.home.p99Ms })),
      trivial: trivialLoad,
      static: staticLoad,
      home: homeLoad,
      staticVsTrivial,
      homeVsStatic,
      inProcess,
      targets: {
        staticVsTrivialAtLeast06: staticVsTrivial >= 0.6,
        homeVsStaticAtLeast08: homeVsStatic >= 0.8,
        homeP99AtMost100Ms: homeLoad.p99Ms <= 100,
      },
    }),
  )
} finally {
  await Promise.all(servers.map((s) => s.stop()))
  fs.rmSync(tmp, { recursive: true, force: true })
}

/** Each figure's median over the rounds (errors summed). */
function medianLoad(loads: Load[]): Load {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    const mid = Math.floor(sorted.length / 2)
    return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2)
  }
  return {
    requestsPerSecond: median(loads.map((l) => l.requestsPerSecond)),
    p50Ms: median(loads.map((l) => l.p50Ms)),
    p99Ms: median(loads.map((l) => l.p99Ms)),
    errors: loads.reduce((n, l) => n + l.errors, 0),
    non2xx: loads.reduce((n, l) => n + l.non2xx, 0),
  }
}

/**
 * The same two pages rendered by the build in this process, one after another, without HTTP or
 * concurrency: microseconds of server work per page (steadier than requests/s on a shared machine).
 */
async function renderCostInProcess(baseUrl: string, dbFile: string, cookie: string) {
  process.env.DATABASE_URL = `file:${dbFile}`
  process.env.SESSION_SECRET = 'bench-session-secret-that-is-long-enough-0123456789'
  process.env.NODE_ENV = 'production'
  const { createRequestHandler } = await import('@remix-run/node')
  const build = await import(pathToFileURL(path.join(repoRoot, 'build/index.js')).href)
  const handle = createRequestHandler(build, 'production')
  const perPage = async (pathname: string, headers: Record<string, string>, mustContain = '') => {
    const pass = async (n: number) => {
      const start = process.hrtime.bigint()
      for (let i = 0; i < n; i++) {
        const res = await handle(new Request(baseUrl + pathname, { headers }), { clientIp: '127.0.0.1' })
        const html = await res.text()
        if (res.status !== 200 || !html.includes(mustContain)) throw new Error(`${pathname} answered ${res.status} without ${mustContain}`)
      }
      return Number(process.hrtime.bigint() - start) / 1000 / n
    }
    await pass(300) // warm-up
    return Math.round(Math.min(await pass(1000), await pass(1000)))
  }
  return { staticUs: await perPage('/terms-of-service', {}), homeUs: await perPage('/home', { cookie }, '"summary":{') }
}

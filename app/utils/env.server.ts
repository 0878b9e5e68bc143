import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { isPostgresUrl, sqlitePathFromUrl } from '#db/db.server'

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true')

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .transform((v) => v.toLowerCase())

const bytes32 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex value')
  .transform((v) => v.toLowerCase())

const privateKey = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'must be a 32-byte hex private key')
  .transform((v) => (v.startsWith('0x') ? v.slice(2) : v).toLowerCase())

const addressList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const items = (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)
    for (const item of items) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(item)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `'${item}' is not a wallet address` })
        return z.NEVER
      }
    }
    return items.map((s) => s.toLowerCase())
  })

/** An empty value (`NAME=` in .env, `${NAME:-}` in compose.yaml) means unset. */
const unsetIfEmpty = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema)

/** A request count per window; 0 disables that limit, an empty value means the default. */
const limit = (fallback: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(1_000_000).default(fallback))

const schema = z.object({
  APP_ENV: z.enum(['development', 'test', 'production', '']).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z.string().min(1).default('file:data/recircle.db'),
  SESSION_SECRET: unsetIfEmpty(z.string().min(32, 'must be at least 32 characters').optional()),
  APP_DOMAINS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)),
  ADMIN_WALLETS: addressList,
  CREATOR_FUND_WALLET: unsetIfEmpty(address.optional()),
  APP_FUND_WALLET: unsetIfEmpty(address.optional()),
  RECIRCLE_TEST_MODE: flag,
  ENABLE_DEBUG_TOOLS: flag,
  // Issue 11: the browser test wallet and sample receipts, which are on anywhere but production.
  ALLOW_TEST_WALLET: flag,
  // Issue 29: how many reverse proxies in front append to X-Forwarded-For. The client address is the
  // one the nearest of them appended, never what the client wrote itself. 1/true: one proxy.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const value = (v ?? '').trim().toLowerCase()
      if (value === '' || value === 'false') return 0
      if (value === 'true') return 1
      if (/^\d$/.test(value)) return Number(value)
      ctx.addIssue({ code: 'custom', message: 'must be the number of proxies in front (0 to 9), or true/false' })
      return z.NEVER
    }),
  // Operations (issue 25, decision 080). /metrics needs a bearer token or a port of its own; neither: refused.
  METRICS_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16, 'must be at least 16 characters').optional()),
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  // SIGTERM: how long in-flight requests, analyses and a payout step may take before the process exits anyway.
  SHUTDOWN_GRACE_MS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(600_000).default(25_000)),
  // SIGTERM: keep accepting (answering /readyz 503) this long first, so a load balancer notices before connections are refused.
  SHUTDOWN_DELAY_MS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(60_000).default(0)),
  // pino: JSON lines by default, pretty under `npm run dev` (app/ops/logger.server.ts reads these too).
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', '']).optional(),
  LOG_FORMAT: z.enum(['json', 'pretty', '']).optional(),
  OCR_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  // inline: this process reads receipts (the embedded default); queue: it stores them as jobs for
  // `npm run worker` processes on other machines and waits for the result (issue 12).
  RECEIPT_ANALYSIS: z.enum(['inline', 'queue', '']).optional().transform((v) => (v === 'queue' ? 'queue' : 'inline')),
  // The second reader for photos tesseract reads badly (issue 13): PaddleOCR, or off.
  SECOND_READER: z.enum(['paddleocr', 'off', '']).optional().transform((v) => (v === 'off' ? 'off' : 'paddleocr')),
  // PaddleOCR engines reading at once (decision 122); empty: one per tesseract worker (OCR_WORKERS).
  PADDLE_ENGINES: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(16).optional()),
  RECEIPT_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  // E-receipts (issue 21): the forwarding domain, the SMTP listener, the provider webhook's secret,
  // the DNS servers that DKIM keys are read from, and sender domains beyond the built-in table.
  INBOUND_DOMAIN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().regex(/^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'must be a domain name').transform((v) => v.toLowerCase()).optional(),
  ),
  INBOUND_SMTP_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  INBOUND_SMTP_HOST: z.string().min(1).default('0.0.0.0'),
  INBOUND_WEBHOOK_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16, 'must be at least 16 characters').optional()),
  DNS_SERVERS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean)),
  // "Name=domain,domain;Name2=domain": checked against the vendor table when a process starts
  // (scripts/load-env.ts), as this layer knows no vendors.
  ERECEIPT_SENDERS: z.string().optional().default(''),
  THOR_NODE_URL: z.string().url().default('https://testnet.vechain.org'),
  // Unset: the VeChain testnet's (app/chain/config.server.ts).
  THOR_GENESIS_ID: unsetIfEmpty(bytes32.optional()),
  // Payouts (issue 9): on only when a distributor key (or mnemonic) and the app id are set.
  PAYOUT_PRIVATE_KEY: unsetIfEmpty(privateKey.optional()),
  PAYOUT_MNEMONIC: z
    .string()
    .optional()
    .transform((v) => (v ?? '').trim().split(/\s+/).filter(Boolean))
    .refine((words) => words.length === 0 || [12, 15, 18, 21, 24].includes(words.length), 'must be 12 to 24 words'),
  VEBETTER_APP_ID: unsetIfEmpty(bytes32.optional()),
  X2EARN_REWARDS_POOL_ADDRESS: unsetIfEmpty(address.optional()),
  X2EARN_APPS_ADDRESS: unsetIfEmpty(address.optional()),
  B3TR_TOKEN_ADDRESS: unsetIfEmpty(address.optional()),
  // VeBetter Passport as a fraud signal before automatic approvals (issue 22); off only for tests
  // and demos without a node: a receipt goes to review when the node cannot be asked.
  VEBETTER_PASSPORT_ADDRESS: unsetIfEmpty(address.optional()),
  PASSPORT_CHECKS: z.enum(['on', 'off', '']).optional().transform((v) => (v === 'off' ? 'off' : 'on')),
  PAYOUT_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(10_000),
  PAYOUT_TX_EXPIRATION_BLOCKS: z.coerce.number().int().min(18).max(8640).default(180),
  PAYOUT_CONFIRMATIONS: z.coerce.number().int().min(0).max(360).default(1),
  PAYOUT_MAX_SIGNINGS: z.coerce.number().int().min(1).max(20).default(3),
  PAYOUT_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  // Receipts of one referrer's invitees approved automatically per UTC day; beyond it, review.
  INVITEE_AUTO_APPROVALS_PER_DAY: z.coerce.number().int().min(0).max(1000).default(5),
  // Issue 38 (decision 109): an automatic photo approval is claimable only after this many hours
  // (decimals allowed; 0 turns maturing off), and this share of them is sampled for a staff audit.
  PHOTO_REWARD_HOLD_HOURS: unsetIfEmpty(z.coerce.number().min(0, 'must be 0 or more hours').max(720, 'must be at most 720 hours (30 days)').default(72)),
  PHOTO_AUDIT_RATE: unsetIfEmpty(z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(0.1)),
  STORE_FORM_URL: unsetIfEmpty(z.string().url().optional()),
  FEEDBACK_URL: unsetIfEmpty(z.string().url().optional()),
  // Help's "Send Email" (a mailto: link); without it the button is not shown (decision 061).
  SUPPORT_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.string().email().optional()),
  // Rate limits (issue 10): requests per fixed window, counted in the database; 0 turns one off.
  RATE_LIMITS_DISABLED: flag,
  RATE_LIMIT_CHALLENGE_PER_IP_PER_MINUTE: limit(30),
  RATE_LIMIT_CERTIFICATE_PER_IP_PER_MINUTE: limit(20),
  RATE_LIMIT_CERTIFICATE_PER_WALLET_PER_MINUTE: limit(10),
  RATE_LIMIT_FEEDBACK_PER_IP_PER_HOUR: limit(10),
  RATE_LIMIT_FEEDBACK_PER_USER_PER_HOUR: limit(5),
  RATE_LIMIT_ANALYSIS_PER_USER_PER_HOUR: limit(20),
  RATE_LIMIT_ANALYSIS_PER_IP_PER_HOUR: limit(60),
  RATE_LIMIT_STORE_SUBMISSION_PER_USER_PER_DAY: limit(10),
  // Sign in with a code (issue 40, decision 108): new codes per IP, codes typed on /device per IP,
  // per signed-in wallet and per code, and "Continue" presses per IP.
  RATE_LIMIT_DEVICE_CODE_PER_IP_PER_HOUR: limit(10),
  RATE_LIMIT_DEVICE_ENTRY_PER_IP_PER_HOUR: limit(30),
  RATE_LIMIT_DEVICE_ENTRY_PER_USER_PER_HOUR: limit(12),
  RATE_LIMIT_DEVICE_ENTRY_PER_CODE: limit(5),
  RATE_LIMIT_DEVICE_CONTINUE_PER_IP_PER_MINUTE: limit(30),
  // Issue 38: My Receipts' thumbnails asked for per user (a page shows 20; browsers keep them a week).
  RATE_LIMIT_THUMBNAIL_PER_USER_PER_MINUTE: limit(60),
  // Receipt analyses allowed to wait for an OCR worker (default 10 per worker); beyond, 503 at once.
  OCR_MAX_QUEUE: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(1000).optional()),
})

export type Env = z.infer<typeof schema> & { SESSION_SECRET: string }

let cached: Env | undefined

/** Parsed once; a bad variable stops the process with a message naming it. */
export function getEnv(): Env {
  if (cached) return cached
  const parsed = schema.safeParse(process.env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`)
  }
  const payoutProblem = checkPayoutSettings(parsed.data)
  if (payoutProblem) throw new Error(`Invalid environment configuration:\n  ${payoutProblem}`)
  cached = { ...parsed.data, SESSION_SECRET: resolveSessionSecret(parsed.data) }
  return cached
}

/**
 * The connect card's test wallet and the scan page's sample receipts: offered outside production,
 * or in production only when ALLOW_TEST_WALLET=1 (a staging deployment). They need no server-side
 * exception: a test wallet signs an ordinary certificate and a sample receipt is an ordinary photo.
 */
export function isTestWalletAllowed(env: Pick<Env, 'APP_ENV' | 'ALLOW_TEST_WALLET'>): boolean {
  return env.APP_ENV !== 'production' || env.ALLOW_TEST_WALLET
}

/** For tests that change process.env between cases. */
export function resetEnvCache() {
  cached = undefined
}

/** Half a payout configuration is a mistake worth stopping for, not a silent "payouts off". */
function checkPayoutSettings(env: z.infer<typeof schema>): string | null {
  const hasKey = !!env.PAYOUT_PRIVATE_KEY || env.PAYOUT_MNEMONIC.length > 0
  if (env.PAYOUT_PRIVATE_KEY && env.PAYOUT_MNEMONIC.length > 0) return 'PAYOUT_PRIVATE_KEY and PAYOUT_MNEMONIC: set one of them, not both'
  if (hasKey && !env.VEBETTER_APP_ID) return 'VEBETTER_APP_ID: required when a payout key is set'
  if (!hasKey && env.VEBETTER_APP_ID) return 'PAYOUT_PRIVATE_KEY or PAYOUT_MNEMONIC: required when VEBETTER_APP_ID is set'
  return null
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/**
 * Where a generated session secret is kept: beside the SQLite database file (decision 002), so a
 * database outside the repository does not leave a secret in the repository's data/. PostgreSQL
 * and an in-memory database have no directory of their own: then data/ under the working
 * directory (several instances must set SESSION_SECRET anyway, decision 070).
 */
export function sessionSecretFile(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) return path.resolve('data', 'session-secret')
  const file = sqlitePathFromUrl(databaseUrl)
  if (file === ':memory:' || file === '') return path.resolve('data', 'session-secret')
  return path.join(path.dirname(path.resolve(file)), 'session-secret')
}

function resolveSessionSecret(env: z.infer<typeof schema>): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET
  if (env.APP_ENV === 'production') {
    throw new Error('Invalid environment configuration:\n  SESSION_SECRET: required when APP_ENV=production')
  }
  // Zero-configuration start: keep a generated secret next to the database so sessions survive restarts.
  const file = sessionSecretFile(env.DATABASE_URL)
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const secret = crypto.randomBytes(32).toString('hex')
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim()
    throw error
  }
  console.warn(`[recircle] SESSION_SECRET is not set: generated one in ${file}. Set SESSION_SECRET in production.`)
  return secret
}

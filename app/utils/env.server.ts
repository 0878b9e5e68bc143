import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true')

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .transform((v) => v.toLowerCase())

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

const schema = z.object({
  APP_ENV: z.enum(['development', 'test', 'production', '']).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z.string().min(1).default('file:data/recircle.db'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  APP_DOMAINS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)),
  ADMIN_WALLETS: addressList,
  CREATOR_FUND_WALLET: address.optional(),
  APP_FUND_WALLET: address.optional(),
  RECIRCLE_TEST_MODE: flag,
  ENABLE_DEBUG_TOOLS: flag,
  TRUST_PROXY: flag,
  OCR_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  RECEIPT_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  THOR_NODE_URL: z.string().url().default('https://testnet.vechain.org'),
  STORE_FORM_URL: z.string().url().optional(),
  FEEDBACK_URL: z.string().url().optional(),
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
  cached = { ...parsed.data, SESSION_SECRET: resolveSessionSecret(parsed.data) }
  return cached
}

/** For tests that change process.env between cases. */
export function resetEnvCache() {
  cached = undefined
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

function resolveSessionSecret(env: z.infer<typeof schema>): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET
  if (env.APP_ENV === 'production') {
    throw new Error('Invalid environment configuration:\n  SESSION_SECRET: required when APP_ENV=production')
  }
  // Zero-configuration start: keep a generated secret next to the database so sessions survive restarts.
  const dir = path.resolve('data')
  const file = path.join(dir, 'session-secret')
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
  fs.mkdirSync(dir, { recursive: true })
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

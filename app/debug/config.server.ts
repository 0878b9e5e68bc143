import type { Env } from '~/utils/env.server'

export type ConfigEntry = { name: string; value: string; masked: boolean }

const MASK = '••••'

/** Shown as they are: nothing here is a credential. Any other variable is masked by default. */
const PLAIN = new Set([
  'APP_ENV',
  'PORT',
  'APP_DOMAINS',
  'ADMIN_WALLETS',
  'CREATOR_FUND_WALLET',
  'APP_FUND_WALLET',
  'RECIRCLE_TEST_MODE',
  'ENABLE_DEBUG_TOOLS',
  'ALLOW_TEST_WALLET',
  'TRUST_PROXY',
  'SUPPORT_EMAIL',
  'OCR_WORKERS',
  'OCR_MAX_QUEUE',
  'RECEIPT_MAX_AGE_DAYS',
  'THOR_GENESIS_ID',
  'VEBETTER_APP_ID',
  'X2EARN_REWARDS_POOL_ADDRESS',
  'X2EARN_APPS_ADDRESS',
  'B3TR_TOKEN_ADDRESS',
  'PAYOUT_INTERVAL_MS',
  'PAYOUT_TX_EXPIRATION_BLOCKS',
  'PAYOUT_GAS_PRICE_COEF',
  'PAYOUT_CONFIRMATIONS',
  'PAYOUT_MAX_SIGNINGS',
  'PAYOUT_LEASE_MS',
  'INVITEE_AUTO_APPROVALS_PER_DAY',
  'RATE_LIMITS_DISABLED',
])
/** URLs may carry a user name, a password or a token in the query: those parts are masked. */
const URLS = new Set(['DATABASE_URL', 'THOR_NODE_URL', 'STORE_FORM_URL', 'FEEDBACK_URL'])

function isPlain(name: string) {
  return PLAIN.has(name) || /^RATE_LIMIT_[A-Z_]+_PER_[A-Z_]+$/.test(name)
}

function isUnset(value: unknown) {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

/** "not set", or "set" with the mask and a length: never a character of the secret. */
export function maskSecret(value: unknown): string {
  if (isUnset(value)) return 'not set'
  if (Array.isArray(value)) return `set (${MASK} ${value.length} words)`
  return `set (${MASK} ${String(value).length} characters)`
}

/** The URL with its credentials and query values replaced by the mask; the fragment dropped. */
export function maskUrl(raw: string): string {
  if (raw.startsWith('file:')) return raw
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    // Not a URL: a plain file path is harmless, anything that could hide credentials is not shown.
    return /[@:?]/.test(raw) ? maskSecret(raw) : raw
  }
  // `user:pass@host` parses as scheme "user:" with an opaque path: no host, nothing safe to show.
  if (!url.host) return /[@?]/.test(raw) ? maskSecret(raw) : raw
  const credentials = url.username || url.password ? `${MASK}@` : ''
  const query = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${MASK}`).join('&')
  const path = url.pathname === '/' && !raw.endsWith('/') ? '' : url.pathname
  return `${url.protocol}//${credentials}${url.host}${path}${query ? `?${query}` : ''}`
}

function plainValue(value: unknown): string {
  if (isUnset(value)) return 'not set'
  if (typeof value === 'boolean') return value ? 'on' : 'off'
  if (Array.isArray(value)) return value.join(', ')
  return String(value)
}

/**
 * The server's configuration for the debug page. `rawEnv` is process.env: it tells whether the
 * session secret was configured or generated. Built from an allow-list, so a variable added later
 * is masked until someone decides it is harmless.
 */
export function maskedConfig(env: Env, rawEnv: Record<string, string | undefined> = {}): ConfigEntry[] {
  const entries: ConfigEntry[] = [{ name: 'NODE_ENV', value: plainValue(rawEnv.NODE_ENV), masked: false }]
  for (const [name, value] of Object.entries(env)) {
    if (isPlain(name)) entries.push({ name, value: plainValue(value), masked: false })
    else if (URLS.has(name)) entries.push({ name, value: isUnset(value) ? 'not set' : maskUrl(String(value)), masked: true })
    else if (name === 'SESSION_SECRET') {
      const source = rawEnv.SESSION_SECRET ? '' : ' — generated, kept in session-secret beside the database'
      entries.push({ name, value: `${maskSecret(value)}${source}`, masked: true })
    } else entries.push({ name, value: maskSecret(value), masked: true })
  }
  return entries
}

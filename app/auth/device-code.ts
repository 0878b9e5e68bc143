import { z } from 'zod'

// Sign in with a code (issue 40, decision 108): RFC 8628's device flow for a browser without a
// wallet. The rules here are plain data in, plain data out; the rows are in device-code.server.ts.

/**
 * RFC 8628 §6.1's consonants (no vowels, so no words) and the digits that look like no letter:
 * no 0/O/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B. 22 characters, 8 of them: 22^8 ≈ 5.5 × 10^10 codes.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKMNPRSTVWXZ3479'
export const USER_CODE_LENGTH = 8
export const DEVICE_CODE_TTL_MS = 10 * 60_000

export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'used'
/** What a code is now: its stored status, or expired when its ten minutes are over undecided or unredeemed. */
export type DeviceCodeState = DeviceCodeStatus | 'expired'

/** The texts of issue 40, for the approving wallet's page. */
export const DEVICE_ENTRY_MESSAGES = {
  missing: 'Enter the code shown on the other device.',
  invalid: 'That code is not valid. Check it and try again.',
  used: 'That code was already used.',
  expired: 'That code has expired. Ask for a new one on the other device.',
} as const

/** The texts of the page that shows the code, after "Continue". */
export const DEVICE_CONTINUE_MESSAGES = {
  pending: 'Not confirmed yet. Enter the code on the device where your wallet is signed in and press Confirm there, then press Continue here.',
  expired: 'This code has expired. Get a new code to try again.',
  denied: 'The sign-in was denied on the other device. Get a new code if that was a mistake.',
  used: 'This code was already used. Get a new code to sign in again.',
  none: 'This browser has no sign-in code. Get a new code to sign in.',
} as const

/** What the confirming wallet is shown about the browser that asks. */
export type AskingBrowser = { userCode: string; browser: string; askedAt: string; address: string | null }

/** A stored-form user code (8 characters, no dash); `randomInt(n)` gives an unbiased integer in [0, n). */
export function makeUserCode(randomInt: (max: number) => number): string {
  let code = ''
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]
  return code
}

/** XXXX-XXXX, as shown. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`
}

/** What someone typed, in stored form: any case, spaces and dashes anywhere. Null when it cannot be a code. */
export function normaliseUserCode(input: string): string | null {
  if (input.length > 32) return null
  const code = input.replace(/[\s-]+/g, '').toUpperCase()
  return new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`).test(code) ? code : null
}

export function deviceCodeState(code: { status: DeviceCodeStatus; expiresAt: string }, now: Date): DeviceCodeState {
  if (code.status === 'used' || code.status === 'denied') return code.status
  return new Date(code.expiresAt).getTime() <= now.getTime() ? 'expired' : code.status
}

/** Why a code typed on /device cannot be confirmed; null when it can (still pending). */
export function entryRefusal(state: DeviceCodeState | null): string | null {
  if (state === null) return DEVICE_ENTRY_MESSAGES.invalid
  if (state === 'expired') return DEVICE_ENTRY_MESSAGES.expired
  return state === 'pending' ? null : DEVICE_ENTRY_MESSAGES.used
}

const BROWSERS: [RegExp, string][] = [
  [/VeWorld/i, 'VeWorld'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|OPiOS\//, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/CriOS\/|Chrome\/|Chromium\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
]

const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPod/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
]

/** A User-Agent in plain words for the person asked to confirm: "Chrome on Android". */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = userAgent ?? ''
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1]
  if (browser && system) return `${browser} on ${system}`
  if (browser) return browser
  if (system) return `A browser on ${system}`
  return 'An unknown browser'
}

/**
 * The asking browser's address as the rate limits key it (IPv4, or the IPv6 /64), for the confirm
 * page; null for none or this machine's own, which says nothing about where the browser is.
 */
export function describeNetworkAddress(key: string | null): string | null {
  if (!key || key === '0:0:0:0::/64' || key.startsWith('127.')) return null
  return key
}

/** When a browser asked, in the words of the confirm page: "3 minutes ago (14:02 UTC)". */
export function describeAskedAt(createdAt: string, now: Date): string {
  const at = new Date(createdAt)
  const minutes = Math.max(0, Math.floor((now.getTime() - at.getTime()) / 60_000))
  const ago = minutes === 0 ? 'just now' : minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`
  return `${ago} (${at.toISOString().slice(11, 16)} UTC)`
}

/** The code field of /device: one schema for the browser's and the server's checks. */
export const deviceEntrySchema = z.object({
  intent: z.enum(['lookup', 'approve', 'deny']).default('lookup'),
  code: z
    .string({ required_error: DEVICE_ENTRY_MESSAGES.missing })
    .max(32, DEVICE_ENTRY_MESSAGES.invalid)
    .transform((value, ctx) => {
      const code = normaliseUserCode(value)
      if (code) return code
      ctx.addIssue({ code: 'custom', message: DEVICE_ENTRY_MESSAGES.invalid })
      return z.NEVER
    }),
})

/** The code page's buttons: a new code, or Continue once it is confirmed. */
export const deviceContinueSchema = z.object({
  intent: z.enum(['new', 'continue']),
  redirectTo: z.string().max(2000).optional(),
})

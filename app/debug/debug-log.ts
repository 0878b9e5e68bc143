import { z } from 'zod'
import { Refusal } from '~/utils/refusal'

/** What POST /api/debug-logs accepts (spec 2 §7), bounded so a log can't fill the database. */
export const DEBUG_LOG_LIMITS = {
  maxLines: 200,
  maxLineChars: 2000,
  /** The whole JSON body, in bytes (the server's form/JSON body limit is the same 64 kB). */
  maxBodyBytes: 64 * 1024,
  maxUserAgentChars: 500,
  maxTestTypeChars: 64,
} as const

/** Sends per user per hour. */
export const DEBUG_LOG_SENDS_PER_HOUR = 5

export const debugLogSchema = z.object({
  logs: z.array(z.string(), { required_error: 'logs must be a list of text lines', invalid_type_error: 'logs must be a list of text lines' }),
  userAgent: z.string().max(DEBUG_LOG_LIMITS.maxUserAgentChars).optional(),
  timestamp: z.string().datetime({ offset: true, message: 'timestamp must be an ISO date-time' }).optional(),
  testType: z.string().trim().min(1).max(DEBUG_LOG_LIMITS.maxTestTypeChars).optional(),
})

export type DebugLogInput = z.infer<typeof debugLogSchema>

export type DebugLogParse = { ok: true; value: DebugLogInput } | Refusal

/** The raw body text in, a bounded log or the refusal (400: malformed, 413: too large) out. */
export function parseDebugLogBody(text: string): DebugLogParse {
  const { maxBodyBytes, maxLines, maxLineChars } = DEBUG_LOG_LIMITS
  if (new TextEncoder().encode(text).length > maxBodyBytes) {
    return new Refusal('too_large', 413, `The log is too large: at most ${maxBodyBytes / 1024} kB can be sent at once.`, { echo: ['message'] })
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return new Refusal('invalid', 400, 'Body must be JSON: { logs: string[], userAgent, timestamp, testType? }', { echo: ['message'] })
  }
  const parsed = debugLogSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue?.path.join('.') || 'body'
    return new Refusal('invalid', 400, `Invalid ${field}: ${issue?.message ?? 'malformed'}`, { echo: ['message'] })
  }
  const { logs } = parsed.data
  if (logs.length === 0) return new Refusal('invalid', 400, 'The log is empty: capture something first.', { echo: ['message'] })
  if (logs.length > maxLines) {
    return new Refusal('too_large', 413, `The log has ${logs.length} lines: at most ${maxLines} can be sent.`, { echo: ['message'] })
  }
  const long = logs.findIndex((line) => line.length > maxLineChars)
  if (long !== -1) {
    return new Refusal('too_large', 413, `Line ${long + 1} is longer than ${maxLineChars} characters.`, { echo: ['message'] })
  }
  return { ok: true, value: parsed.data }
}

/**
 * The client's side of the bounds: the newest lines that fit, long lines cut, so "Send to support"
 * never meets a 413 in normal use. `overheadBytes` leaves room for the other fields.
 */
export function fitDebugLog(lines: readonly string[], overheadBytes = 2048): string[] {
  const { maxLines, maxLineChars, maxBodyBytes } = DEBUG_LOG_LIMITS
  const cut = lines.slice(-maxLines).map((line) => (line.length > maxLineChars ? `${line.slice(0, maxLineChars - 1)}…` : line))
  const encoder = new TextEncoder()
  let budget = maxBodyBytes - overheadBytes
  const kept: string[] = []
  for (let i = cut.length - 1; i >= 0; i--) {
    // JSON.stringify: quotes, escapes and the comma.
    const size = encoder.encode(JSON.stringify(cut[i])).length + 1
    if (size > budget) break
    budget -= size
    kept.unshift(cut[i])
  }
  return kept
}

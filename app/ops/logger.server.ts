import { createRequire } from 'node:module'
import pino, { type DestinationStream, type Logger } from 'pino'

export type { Logger } from 'pino'
export type LogFormat = 'json' | 'pretty'

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LEVELS)[number]

/**
 * Defence in depth: no code logs these, and if an object carrying one ever reaches a log call the
 * value is replaced. A wallet key, a session cookie, a certificate signature or a receipt photo must
 * never be in a log line (issue 25).
 */
const REDACT = [
  'headers.cookie',
  'headers.authorization',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'privateKey',
  '*.privateKey',
  'mnemonic',
  '*.mnemonic',
  'signature',
  '*.signature',
  'certificate',
  '*.certificate',
  'image',
  '*.image',
  'rawTx',
  '*.rawTx',
]

/** One JSON object per line (the default), or coloured lines for a terminal (`npm run dev`). */
export function createLogger(opts: { level?: LogLevel; format?: LogFormat; destination?: DestinationStream } = {}): Logger {
  const options = {
    level: opts.level ?? 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT, censor: '[redacted]' },
  }
  if (opts.format === 'pretty' && !opts.destination && prettyAvailable()) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } })
  }
  return opts.destination ? pino(options, opts.destination) : pino(options)
}

/** pino-pretty is a development dependency: absent in the container image, where logs are JSON anyway. */
function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty')
    return true
  } catch {
    return false
  }
}

/** LOG_LEVEL and LOG_FORMAT, read directly: the logger must work before (and while) the environment is checked. */
export function loggerSettings(env: Record<string, string | undefined> = process.env): { level: LogLevel; format: LogFormat } {
  const level = (LEVELS as readonly string[]).includes(env.LOG_LEVEL ?? '') ? (env.LOG_LEVEL as LogLevel) : 'info'
  const format: LogFormat = env.LOG_FORMAT === 'pretty' || env.LOG_FORMAT === 'json' ? env.LOG_FORMAT : env.NODE_ENV === 'development' ? 'pretty' : 'json'
  return { level, format }
}

// One logger per process, shared by the scripts and the Remix build (two module graphs), like the OCR pool.
const GLOBAL_KEY = Symbol.for('recircle.logger')
type WithLogger = typeof globalThis & { [GLOBAL_KEY]?: Logger }

export function getLogger(): Logger {
  const g = globalThis as WithLogger
  g[GLOBAL_KEY] ??= createLogger(loggerSettings())
  return g[GLOBAL_KEY]
}

/** The message of anything thrown, for a log line (never the whole object: it may carry a request). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

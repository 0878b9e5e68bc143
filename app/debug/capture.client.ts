import { fitDebugLog } from './debug-log'

/**
 * The debug console's capture (spec 2 §3, §4): console messages and wallet steps of this tab, kept
 * in session storage while capture is on; capture on/off persists for the browser session.
 */
export type DebugLevel = 'log' | 'info' | 'warn' | 'error' | 'debug' | 'wallet'
export type DebugEntry = { timestamp: string; level: DebugLevel; message: string; data?: string }

export const STORAGE_KEYS = {
  logs: 'debug_logs',
  capturing: 'debug_capturing',
  walletConnectionCount: 'wallet_connection_count',
  walletLogs: 'wallet_debug_logs',
} as const

const MAX_ENTRIES = 500
const MAX_WALLET_LOGS = 200
const MAX_TEXT = 2000
const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const

/** Storage can be missing or throw (private mode, disabled cookies): the console must not break. */
function storage(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage
  } catch {
    return null
  }
}

function readJsonList<T>(store: Storage | null, key: string): T[] {
  try {
    const value: unknown = JSON.parse(store?.getItem(key) ?? '[]')
    return Array.isArray(value) ? (value as T[]) : []
  } catch {
    return []
  }
}

function writeJsonList(store: Storage | null, key: string, list: unknown[]) {
  try {
    store?.setItem(key, JSON.stringify(list))
  } catch {
    // Full or unavailable: the entry is lost, the page goes on.
  }
}

function clip(text: string) {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (value instanceof Error) return `${value.name}: ${value.message}`
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

export function readEntries(): DebugEntry[] {
  return readJsonList<DebugEntry>(storage('session'), STORAGE_KEYS.logs)
}

export function appendEntry(level: DebugLevel, message: string, data?: unknown) {
  const entry: DebugEntry = { timestamp: new Date().toISOString(), level, message: clip(message) }
  if (data !== undefined) entry.data = clip(describeValue(data))
  writeJsonList(storage('session'), STORAGE_KEYS.logs, [...readEntries(), entry].slice(-MAX_ENTRIES))
}

export function clearEntries() {
  storage('session')?.removeItem(STORAGE_KEYS.logs)
}

export function isCapturing(): boolean {
  return storage('session')?.getItem(STORAGE_KEYS.capturing) === 'true'
}

let hooked = false

/** Wraps console once per page; each call is recorded only while capture is on. */
function hookConsole() {
  if (hooked || typeof window === 'undefined') return
  hooked = true
  for (const level of CONSOLE_LEVELS) {
    const original = console[level].bind(console)
    console[level] = (...args: unknown[]) => {
      original(...args)
      if (isCapturing()) appendEntry(level, args.map(describeValue).join(' '))
    }
  }
  window.addEventListener('error', (event) => {
    if (isCapturing()) appendEntry('error', `Uncaught error: ${event.message}`, event.filename ? `${event.filename}:${event.lineno}` : undefined)
  })
  window.addEventListener('unhandledrejection', (event) => {
    if (isCapturing()) appendEntry('error', `Unhandled promise rejection: ${describeValue(event.reason)}`)
  })
}

export function startCapture() {
  storage('session')?.setItem(STORAGE_KEYS.capturing, 'true')
  hookConsole()
  appendEntry('info', 'Capture started')
}

export function stopCapture() {
  appendEntry('info', 'Capture stopped')
  storage('session')?.removeItem(STORAGE_KEYS.capturing)
}

/** On every page load (entry.client): capture that was on in this session goes on. */
export function resumeCapture() {
  if (isCapturing()) hookConsole()
}

/** Ends the debug session: capture off, captured entries and the connection count gone. */
export function resetDebugSession() {
  const session = storage('session')
  for (const key of [STORAGE_KEYS.logs, STORAGE_KEYS.capturing, STORAGE_KEYS.walletConnectionCount]) session?.removeItem(key)
}

/** A wallet step: kept in local storage (wallet_debug_logs) and, while capturing, in the capture. */
export function logWalletStep(message: string, data?: unknown) {
  const line = `${new Date().toISOString()} ${clip(message)}${data === undefined ? '' : ` ${clip(describeValue(data))}`}`
  writeJsonList(storage('local'), STORAGE_KEYS.walletLogs, [...readWalletLogs(), line].slice(-MAX_WALLET_LOGS))
  if (isCapturing()) appendEntry('wallet', message, data)
}

export function readWalletLogs(): string[] {
  return readJsonList<unknown>(storage('local'), STORAGE_KEYS.walletLogs).map(String)
}

/** Copies the stored wallet steps into the capture ("Load Wallet Logs"); returns how many. */
export function loadWalletLogs(): number {
  const lines = readWalletLogs()
  for (const line of lines) appendEntry('wallet', line)
  return lines.length
}

export function countWalletConnection(): number {
  const session = storage('session')
  const count = Number(session?.getItem(STORAGE_KEYS.walletConnectionCount) ?? '0') + 1
  session?.setItem(STORAGE_KEYS.walletConnectionCount, String(count))
  return count
}

export function formatEntry(entry: DebugEntry): string {
  return `${entry.timestamp} [${entry.level.toUpperCase()}] ${entry.message}${entry.data ? ` ${entry.data}` : ''}`
}

export type StorageReport = { name: string; available: boolean; keys: number; bytes: number; detail: string }

export function checkStorage(): StorageReport[] {
  return (['local', 'session'] as const).map((kind) => {
    const name = kind === 'local' ? 'localStorage' : 'sessionStorage'
    const store = storage(kind)
    if (!store) return { name, available: false, keys: 0, bytes: 0, detail: 'not available' }
    try {
      let bytes = 0
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i) ?? ''
        bytes += (key.length + (store.getItem(key)?.length ?? 0)) * 2
      }
      return { name, available: true, keys: store.length, bytes, detail: `${store.length} keys, about ${Math.ceil(bytes / 1024)} kB` }
    } catch (error) {
      return { name, available: false, keys: 0, bytes: 0, detail: describeValue(error) }
    }
  })
}

/** Writes, reads back and removes a test value in both storages. */
export function testStorage(): Array<{ name: string; ok: boolean; detail: string }> {
  return (['local', 'session'] as const).map((kind) => {
    const name = kind === 'local' ? 'localStorage' : 'sessionStorage'
    const store = storage(kind)
    if (!store) return { name, ok: false, detail: 'not available' }
    const key = '__recircle_storage_test'
    const value = String(Date.now())
    try {
      store.setItem(key, value)
      const read = store.getItem(key)
      store.removeItem(key)
      return read === value ? { name, ok: true, detail: 'write, read and remove work' } : { name, ok: false, detail: 'read a different value' }
    } catch (error) {
      return { name, ok: false, detail: describeValue(error) }
    }
  })
}

/** "Reset local state": this browser's storage for this site, both kinds. */
export function resetLocalState() {
  const local = storage('local')
  const session = storage('session')
  if (!local || !session) throw new Error('Browser storage is not available')
  local.clear()
  session.clear()
}

export type SendResult = { ok: boolean; message: string }

/** POST /api/debug-logs (spec 2 §7) with the newest lines that fit the server's bounds. */
export async function sendToSupport(lines: string[], testType?: string): Promise<SendResult> {
  const logs = fitDebugLog(lines)
  if (logs.length === 0) return { ok: false, message: 'Nothing to send: capture some logs first.' }
  try {
    const res = await fetch('/api/debug-logs', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ logs, userAgent: navigator.userAgent, timestamp: new Date().toISOString(), testType }),
    })
    const body = (await res.json().catch(() => null)) as { message?: string; error?: string } | null
    if (res.status === 401) return { ok: false, message: 'Connect your wallet first: logs are sent from a signed-in account.' }
    if (!res.ok) return { ok: false, message: body?.message ?? body?.error ?? `The server answered ${res.status}` }
    return { ok: true, message: body?.message ?? `Sent ${logs.length} lines to support.` }
  } catch {
    return { ok: false, message: 'Could not reach the server. Check your connection and try again.' }
  }
}

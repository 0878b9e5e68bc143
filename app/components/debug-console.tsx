import { useCallback, useEffect, useState } from 'react'
import {
  checkStorage,
  clearEntries,
  formatEntry,
  isCapturing,
  loadWalletLogs,
  readEntries,
  resetDebugSession,
  sendToSupport,
  startCapture,
  stopCapture,
  testStorage,
  type DebugEntry,
} from '~/debug/capture.client'
import { plural } from '~/utils/text'
import { showToast } from './toaster'

const REFRESH_MS = 1000

/**
 * The debug console (spec 2 §2): capture of this tab's console messages and wallet steps, kept in
 * session storage. `support` is the reduced form a signed-in user gets to send a log to support.
 */
export function DebugConsole({ variant = 'full', testType }: { variant?: 'full' | 'support'; testType: string }) {
  const [hydrated, setHydrated] = useState(false)
  const [entries, setEntries] = useState<DebugEntry[]>([])
  const [capturing, setCapturing] = useState(false)
  const [status, setStatus] = useState<string[]>([])
  const [sending, setSending] = useState(false)

  const refresh = useCallback(() => {
    setEntries(readEntries())
    setCapturing(isCapturing())
  }, [])

  useEffect(() => {
    setHydrated(true)
    refresh()
    const timer = setInterval(refresh, REFRESH_MS)
    return () => clearInterval(timer)
  }, [refresh])

  function act(fn: () => string[] | void) {
    const lines = fn()
    if (lines) setStatus(lines)
    refresh()
  }

  async function copy() {
    const text = readEntries().map(formatEntry).join('\n')
    try {
      await navigator.clipboard.writeText(text)
      showToast({ title: 'Copied to clipboard!', description: `${readEntries().length} log entries`, variant: 'success', durationMs: 3000 })
    } catch {
      showToast({ title: 'Copy failed', description: 'The browser did not allow copying. Select the log below instead.', variant: 'destructive' })
    }
  }

  async function send() {
    setSending(true)
    const result = await sendToSupport(readEntries().map(formatEntry), testType)
    setSending(false)
    setStatus([result.message])
    showToast({ title: result.ok ? 'Log sent to support' : 'Sending failed', description: result.message, variant: result.ok ? 'success' : 'destructive' })
  }

  if (!hydrated) {
    return (
      <p className="alert warn">
        The debug console reads this browser&apos;s console and storage, so it needs JavaScript. Open this page in a
        browser with JavaScript on (the VeWorld in-app browser has it).
      </p>
    )
  }

  return (
    <div className="stack">
      <div className="debug-buttons" role="group" aria-label="Capture controls">
        <button
          type="button"
          className="btn"
          aria-pressed={capturing}
          onClick={() => act(() => (capturing ? stopCapture() : startCapture()))}
        >
          {capturing ? 'Stop Capture' : 'Start Capture'}
        </button>
        <button type="button" className="btn secondary" onClick={() => act(() => clearEntries())}>
          Clear Logs
        </button>
        {variant === 'full' ? (
          <>
            <button type="button" className="btn secondary" onClick={() => act(() => (resetDebugSession(), ['Debug session reset: capture off, logs cleared.']))}>
              Reset Session
            </button>
            <button type="button" className="btn secondary" onClick={() => act(() => [`Loaded ${loadWalletLogs()} wallet log lines.`])}>
              Load Wallet Logs
            </button>
            <button type="button" className="btn secondary" onClick={() => act(() => checkStorage().map((r) => `${r.name}: ${r.detail}`))}>
              Check Storage
            </button>
            <button
              type="button"
              className="btn secondary"
              onClick={() => act(() => testStorage().map((r) => `${r.name}: ${r.ok ? 'OK' : 'FAILED'} (${r.detail})`))}
            >
              Test Storage
            </button>
            <button
              type="button"
              className="btn secondary"
              onClick={() =>
                act(() => {
                  console.log('Test log message from the debug console')
                  console.warn('Test warning from the debug console')
                  console.error('Test error from the debug console')
                  return [capturing ? 'Wrote a test log, warning and error.' : 'Wrote test messages: start capture to record them.']
                })
              }
            >
              Test Log Capture
            </button>
          </>
        ) : null}
        <button type="button" className="btn secondary" onClick={() => void copy()}>
          Copy to Clipboard
        </button>
        <button type="button" className="btn" onClick={() => void send()} disabled={sending} aria-busy={sending}>
          {sending ? 'Sending…' : 'Send to support'}
        </button>
      </div>
      <p className="small muted" style={{ margin: 0 }} role="status">
        Capture is <strong>{capturing ? 'on' : 'off'}</strong> for this browser session · {plural(entries.length, 'entry', 'entries')}
      </p>
      {status.length ? (
        <ul className="alert info small" aria-label="Result" style={{ margin: 0, paddingLeft: '1.5rem' }}>
          {status.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      {entries.length === 0 ? (
        <p className="muted">No logs captured yet. Start capture, use the app, then come back here.</p>
      ) : (
        <ol className="debug-log" aria-label="Captured logs" reversed>
          {[...entries].reverse().map((e, i) => (
            <li key={`${e.timestamp}-${i}`} className={`debug-entry ${e.level}`}>
              <span className="debug-level">{e.level}</span>
              <time dateTime={e.timestamp} className="small muted">
                {e.timestamp.slice(11, 23)}
              </time>
              <span className="debug-message">
                {e.message}
                {e.data ? <span className="muted"> {e.data}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

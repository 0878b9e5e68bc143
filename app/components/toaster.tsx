import { useEffect, useState, useSyncExternalStore } from 'react'

export type ToastInput = {
  title: string
  description?: string
  /** A second line beneath the description: the reason (spec 1 §8's toasts, issue 24). */
  detail?: string
  variant?: 'default' | 'success' | 'destructive'
  durationMs?: number
}

type ShownToast = ToastInput & { id: number }

// Browser-only UI state: one toast at a time (spec 1 §2), the newest replaces the current one.
let current: ShownToast | null = null
let nextId = 1
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

export function showToast(toast: ToastInput) {
  current = { ...toast, id: nextId++ }
  emit()
}

export function dismissToast() {
  current = null
  emit()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

// One toast at a time (spec 1 §2), also across the toast kinds: while a full-screen overlay is up
// (the streak celebration) every toast waits, so none sits dimmed under it; while this toast is
// pending, the achievement toast waits for it to end.
let holds = 0
let regularPending = false

/** Keep toasts back while an overlay is shown; call the returned function when it closes. */
export function holdToasts(): () => void {
  holds++
  emit()
  let released = false
  return () => {
    if (released) return
    released = true
    holds--
    emit()
  }
}

function setRegularPending(pending: boolean) {
  if (regularPending === pending) return
  regularPending = pending
  emit()
}

/** Whether toasts are held back by an overlay. */
export function useToastsHeld(): boolean {
  return useSyncExternalStore(subscribe, () => holds > 0, () => false)
}

/** Whether the other kinds of toast must wait: an overlay is up, or a regular toast is pending. */
export function useToastSlotBusy(): boolean {
  return useSyncExternalStore(subscribe, () => holds > 0 || regularPending, () => false)
}

export const TOAST_DURATION_MS = 5000

/** Renders the server's flashed toast on first paint (works without JavaScript), then client toasts. */
export function Toaster({ initial }: { initial: ToastInput | null }) {
  const clientToast = useSyncExternalStore(subscribe, () => current, () => null)
  const [serverToast, setServerToast] = useState<ToastInput | null>(initial)
  useEffect(() => setServerToast(initial), [initial])
  const toast = clientToast ?? serverToast
  const held = useToastsHeld()

  useEffect(() => setRegularPending(toast !== null), [toast])

  // The time starts when the toast can be seen, so a held toast still gets its full time.
  useEffect(() => {
    if (!toast || held) return
    const timer = setTimeout(() => {
      if (clientToast) dismissToast()
      else setServerToast(null)
    }, toast.durationMs ?? TOAST_DURATION_MS)
    return () => clearTimeout(timer)
  }, [toast, clientToast, held])

  return (
    <div className="toast-region" aria-live="polite" aria-atomic="true">
      {toast && !held ? (
        <div className={`toast ${toast.variant ?? 'default'}`} role={toast.variant === 'destructive' ? 'alert' : 'status'}>
          <div>
            <div className="toast-title">{toast.title}</div>
            {toast.description ? <div className="small">{toast.description}</div> : null}
            {toast.detail ? <div className="small toast-detail">{toast.detail}</div> : null}
          </div>
          <button
            type="button"
            className="toast-close"
            aria-label="Dismiss notification"
            onClick={() => (clientToast ? dismissToast() : setServerToast(null))}
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  )
}

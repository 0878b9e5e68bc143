import { useLocation, useMatches } from '@remix-run/react'
import { useCallback, useEffect, useState } from 'react'
import { ACHIEVEMENTS, type AchievementKey } from '~/engagement/achievements'
import {
  ACHIEVEMENT_EVENT,
  ACHIEVEMENT_TOAST_MS,
  achievementForReceiptCount,
  achievementShareUrl,
  genericShareText,
  shouldShowAchievementToast,
  TOAST_SESSION_PREFIX,
} from '~/engagement/share'
import styles from '~/styles/engagement.css'
import { EngagementIcon } from './engagement-icons'
import { ShareDialog } from './share-dialog'
import { useToastSlotBusy } from './toaster'

/** Ask the global toast to show an achievement (once per session per type), from anywhere. */
export function triggerAchievement(type: AchievementKey) {
  window.dispatchEvent(new CustomEvent(ACHIEVEMENT_EVENT, { detail: { type } }))
}

/**
 * A route announces its receipt count for the toast by returning `achievementSignal:
 * { receiptCount }` from its loader; the home screen's `summary.verifiedReceipts` counts too.
 */
type SignalData = { achievementSignal?: { receiptCount?: unknown }; summary?: { verifiedReceipts?: unknown } | null }

function receiptCountFrom(matches: ReturnType<typeof useMatches>): number | null {
  for (const match of [...matches].reverse()) {
    const data = match.data as SignalData | undefined
    const count = data?.achievementSignal?.receiptCount ?? data?.summary?.verifiedReceipts
    if (typeof count === 'number') return count
  }
  return null
}

/**
 * The types already seen in this browser. Issue 40: once seen, never again, in any tab (it came back
 * on the next page opened in another tab); the browser session's marks of earlier versions count too.
 */
function shownThisSession(): Set<string> {
  const shown = new Set<string>()
  for (const storage of storages()) {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i)
      if (key?.startsWith(TOAST_SESSION_PREFIX)) shown.add(key.slice(TOAST_SESSION_PREFIX.length))
    }
  }
  return shown
}

function storages(): Storage[] {
  try {
    return [localStorage, sessionStorage]
  } catch {
    // Storage blocked: the toast may then show again after a reload, which is harmless.
    return []
  }
}

function markShown(type: AchievementKey) {
  try {
    localStorage.setItem(TOAST_SESSION_PREFIX + type, '1')
  } catch {
    // see storages
  }
}

/**
 * 'Achievement Unlocked' (spec 1 §4): on a `recircle:achievement` window event ({ detail: { type } })
 * or when the page's receipt count reaches 1, 5 or 10. Each type once per browser; closes after 6 s,
 * on close, or on a page change; Share opens the detail dialog. Mount once, in root's header (issue
 * 40: it takes its own room there instead of covering the page's first card).
 */
export function AchievementToast() {
  const location = useLocation()
  const receiptCount = receiptCountFrom(useMatches())
  const [active, setActive] = useState<AchievementKey | null>(null)
  const [sharing, setSharing] = useState<AchievementKey | null>(null)

  const show = useCallback((type: unknown) => {
    if (!shouldShowAchievementToast(type, shownThisSession())) return
    markShown(type)
    setActive(type)
  }, [])

  // A page change closes the toast and the dialog (declared first so a new page's count can open it).
  useEffect(() => {
    setActive(null)
    setSharing(null)
  }, [location.pathname])

  useEffect(() => {
    const onEvent = (event: Event) => show((event as CustomEvent<{ type?: unknown }>).detail?.type)
    window.addEventListener(ACHIEVEMENT_EVENT, onEvent)
    return () => window.removeEventListener(ACHIEVEMENT_EVENT, onEvent)
  }, [show])

  useEffect(() => {
    const reached = achievementForReceiptCount(receiptCount)
    if (reached) show(reached)
  }, [receiptCount, show])

  // One toast at a time: it waits for a regular toast or an overlay, and its 6 s start when it shows.
  const busy = useToastSlotBusy()
  const visible = active !== null && !busy
  useEffect(() => {
    if (!visible) return
    const timer = setTimeout(() => setActive(null), ACHIEVEMENT_TOAST_MS)
    return () => clearTimeout(timer)
  }, [visible])

  const closeDialog = useCallback(() => setSharing(null), [])

  return (
    <>
      {/* Mounted in root, outside the routes that link this stylesheet. */}
      <link rel="stylesheet" href={styles} />
      <div className="achievement-toast" aria-live="polite">
        {active && visible ? (
          <div role="status" data-testid="achievement-toast">
            <EngagementIcon name="trophy" width={28} height={28} />
            <div style={{ flex: 1, minWidth: 0 }}>
              <div style={{ fontWeight: 800 }}>Achievement Unlocked</div>
              <div className="small">
                {ACHIEVEMENTS[active].title}: {ACHIEVEMENTS[active].unlockMessage}
              </div>
            </div>
            <button
              type="button"
              className="btn light"
              onClick={() => {
                setSharing(active)
                setActive(null)
              }}
            >
              Share
            </button>
            <button type="button" className="icon-btn" aria-label="Dismiss achievement" onClick={() => setActive(null)}>
              <EngagementIcon name="x" />
            </button>
          </div>
        ) : null}
      </div>
      {sharing ? (
        <ShareDialog
          title={ACHIEVEMENTS[sharing].title}
          text={genericShareText(sharing)}
          url={achievementShareUrl(window.location.origin, sharing)}
          onClose={closeDialog}
        >
          <p className="muted" style={{ margin: 0 }}>
            {ACHIEVEMENTS[sharing].description}
          </p>
        </ShareDialog>
      ) : null}
    </>
  )
}

import { shareLinks } from '~/engagement/share'
import { EngagementIcon } from './engagement-icons'
import { COPIED_MESSAGE } from './share-dialog'
import { showToast } from './toaster'

/**
 * "Share Impact" (spec 1 §2): the native share sheet where there is one, otherwise copy to the
 * clipboard. Without JavaScript it is a plain link to share the same text on X.
 */
export function ShareImpactLink({ text, url }: { text: string; url: string }) {
  return (
    <a
      className="btn"
      href={shareLinks({ text, url }).x}
      target="_blank"
      rel="noreferrer"
      onClick={async (event) => {
        event.preventDefault()
        if (typeof navigator.share === 'function') {
          try {
            await navigator.share({ title: 'My ReCircle impact', text, url })
            return
          } catch (error) {
            if ((error as Error).name === 'AbortError') return
          }
        }
        try {
          await navigator.clipboard.writeText(`${text} ${url}`)
          showToast({ title: COPIED_MESSAGE, variant: 'success' })
        } catch {
          showToast({ title: 'Could not copy', description: 'Your browser blocked the clipboard.', variant: 'destructive' })
        }
      }}
    >
      <EngagementIcon name="share" /> Share Impact
    </a>
  )
}

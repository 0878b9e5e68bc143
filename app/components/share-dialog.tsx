import { Link } from '@remix-run/react'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { shareLinks } from '~/engagement/share'
import { EngagementIcon } from './engagement-icons'

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

export const COPIED_MESSAGE = 'Copied to clipboard!'

/**
 * Achievement detail and share dialog (spec 1 §2): X and Facebook share links, Instagram
 * (copies the text, then opens Instagram for the user to paste), copy to clipboard. Rendered by
 * the server when its URL asks for it (`closeHref`), so the X and Facebook links work without
 * JavaScript; the copy buttons appear once JavaScript runs.
 */
export function ShareDialog({
  title,
  heading = 'Share Achievement',
  text,
  url,
  children,
  closeHref,
  onClose,
}: {
  title: string
  heading?: string
  text: string
  url: string
  children?: ReactNode
  closeHref?: string
  onClose?: () => void
}) {
  const titleId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const [hydrated, setHydrated] = useState(false)
  const [status, setStatus] = useState('')
  const links = shareLinks({ text, url })
  const fullText = `${text} ${url}`

  useEffect(() => {
    setHydrated(true)
    dialogRef.current?.focus()
  }, [])

  useEffect(() => {
    if (!onClose) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  async function copy() {
    setStatus((await copyText(fullText)) ? COPIED_MESSAGE : 'Could not copy. Select the text above and copy it.')
  }

  async function instagram() {
    const copied = await copyText(fullText)
    setStatus(copied ? `${COPIED_MESSAGE} Paste it into your Instagram post.` : 'Could not copy the text.')
    window.open(links.instagram, '_blank', 'noopener,noreferrer')
  }

  return (
    <div className="dialog-backdrop" onClick={onClose ? (e) => e.target === e.currentTarget && onClose() : undefined}>
      <div className="dialog stack" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={dialogRef}>
        <div className="dialog-head">
          <h2 id={titleId}>{heading}</h2>
          {onClose ? (
            <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
              <EngagementIcon name="x" />
            </button>
          ) : closeHref ? (
            <Link to={closeHref} className="icon-btn" aria-label="Close" preventScrollReset>
              <EngagementIcon name="x" />
            </Link>
          ) : null}
        </div>
        <h3 style={{ margin: 0 }}>{title}</h3>
        {children}
        <p className="share-text" data-testid="share-text">
          {text}
        </p>
        <div className="share-grid">
          <a className="btn secondary" href={links.x} target="_blank" rel="noreferrer">
            <EngagementIcon name="xLogo" /> Share on X
          </a>
          <a className="btn secondary" href={links.facebook} target="_blank" rel="noreferrer">
            <EngagementIcon name="facebook" /> Facebook
          </a>
          {hydrated ? (
            <>
              <button type="button" className="btn secondary" onClick={instagram}>
                <EngagementIcon name="instagram" /> Instagram
              </button>
              <button type="button" className="btn" onClick={copy}>
                <EngagementIcon name="copy" /> Copy
              </button>
            </>
          ) : (
            <a className="btn secondary" href={links.instagram} target="_blank" rel="noreferrer">
              <EngagementIcon name="instagram" /> Instagram
            </a>
          )}
        </div>
        <p className="copied" role="status" aria-live="polite">
          {status}
        </p>
      </div>
    </div>
  )
}

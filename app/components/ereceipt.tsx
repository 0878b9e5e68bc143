import { useEffect, useState } from 'react'
import { Icon } from '~/components/icons'

/** An uploaded file that is an e-mail (issue 21): by its name or type, the server checks the bytes. */
export function isEmailFile(file: File): boolean {
  return /\.eml$/i.test(file.name) || file.type === 'message/rfc822'
}

export function verifiedSenderLabel(domain: string) {
  return `Verified e-receipt (${domain})`
}

/** "Verified e-receipt (uber.com)": the receipt rests on its sender's signature, not on a photo. */
export function VerifiedSender({ domain }: { domain: string }) {
  return (
    <span className="pill verified" title="The sender's DKIM signature verified">
      <Icon name="check" aria-hidden="true" /> {verifiedSenderLabel(domain)}
    </span>
  )
}

/** The personal forwarding address with a one-line how-to; nothing when forwarding is not set up. */
export function ForwardingCard({ address }: { address: string | null }) {
  const [hydrated, setHydrated] = useState(false)
  const [copied, setCopied] = useState(false)
  useEffect(() => setHydrated(true), [])
  if (!address) return null
  return (
    <div className="forwarding" aria-labelledby="forwarding-title">
      <h3 id="forwarding-title" className="small" style={{ margin: 0 }}>
        <Icon name="mail" aria-hidden="true" /> Or forward your e-receipts
      </h3>
      <p className="small muted" style={{ margin: '0.25rem 0' }}>
        Set up automatic forwarding once, or use &ldquo;Forward as attachment&rdquo;, to your personal address: both are paid at once.
        A phone&rsquo;s plain Forward is checked like a photo.
      </p>
      <div className="row" style={{ gap: '0.5rem', flexWrap: 'wrap' }}>
        <code className="forwarding-address" data-testid="inbound-address">
          {address}
        </code>
        {hydrated ? (
          <button
            type="button"
            className="btn secondary small"
            onClick={() => {
              void navigator.clipboard?.writeText(address).then(() => setCopied(true))
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        ) : null}
      </div>
    </div>
  )
}

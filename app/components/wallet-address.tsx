import { useEffect, useState } from 'react'
import { showToast } from './toaster'

/**
 * The wallet's full address (issue 40): selectable text that works without JavaScript (one tap
 * selects it all), and with JavaScript a Copy button. README's "Try it" sends staff here for the
 * address ADMIN_WALLETS needs.
 */
export function WalletAddress({ address }: { address: string }) {
  const [hydrated, setHydrated] = useState(false)
  const [copied, setCopied] = useState(false)
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])

  return (
    <section className="card stack wallet-address" aria-labelledby="wallet-address-title" style={{ gap: '0.4rem' }}>
      <h2 id="wallet-address-title" className="card-title" style={{ margin: 0 }}>
        Wallet address
      </h2>
      <code className="full-address" data-testid="full-address">
        {address}
      </code>
      {hydrated ? (
        <button
          type="button"
          className="btn secondary"
          data-testid="copy-address"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(address)
              setCopied(true)
            } catch {
              showToast({ title: "Couldn't copy", description: 'Select the address and copy it yourself.', variant: 'destructive' })
            }
          }}
        >
          {copied ? 'Copied' : 'Copy address'}
        </button>
      ) : (
        <p className="small muted" style={{ margin: 0 }}>
          Tap the address to select it, then copy it.
        </p>
      )}
    </section>
  )
}

import { useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { fetchChallenge, signChallenge, WALLET_MESSAGES, WalletError } from '~/auth/wallet.client'
import { shortAddress } from '~/chain/networks'
import { formatB3tr } from '~/rewards/money'
import { Icon } from './icons'
import { showToast } from './toaster'

export type WalletCardUser = { walletAddress: string; balanceMilli: number }

type ActionData = { error?: string }

/** Connect or disconnect; the certificate travels in a hidden field of an ordinary form. */
export function WalletCard({
  user,
  variant = 'detailed',
  redirectTo,
}: {
  user: WalletCardUser | null
  variant?: 'detailed' | 'compact'
  redirectTo?: string
}) {
  const fetcher = useFetcher<ActionData>()
  const [signing, setSigning] = useState(false)
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const busy = signing || fetcher.state !== 'idle'

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.error) {
      showToast({ title: 'Connection Failed', description: fetcher.data.error, variant: 'destructive' })
    }
  }, [fetcher.state, fetcher.data])

  async function connect() {
    setSigning(true)
    try {
      const content = await fetchChallenge()
      const certificate = await signChallenge(content)
      fetcher.submit(
        { intent: 'connect', certificate: JSON.stringify(certificate), redirectTo: redirectTo ?? '' },
        { method: 'post', action: '/auth/wallet' },
      )
    } catch (error) {
      const message = error instanceof WalletError ? error.message : WALLET_MESSAGES.failed
      showToast({ title: 'Connection Failed', description: message, variant: 'destructive' })
    } finally {
      setSigning(false)
    }
  }

  if (user) {
    return (
      <section className={`card wallet-card ${variant}`} aria-labelledby="wallet-card-title">
        <div className="row between wrap">
          <div className="row">
            <span className="status-dot" aria-hidden="true" />
            <h2 id="wallet-card-title" className="card-title" style={{ margin: 0 }}>
              Wallet Connected
            </h2>
          </div>
          <span className="address" title={user.walletAddress} data-testid="wallet-address">
            {shortAddress(user.walletAddress)}
          </span>
        </div>
        {variant === 'detailed' ? (
          <p className="muted" style={{ marginTop: '0.5rem' }} data-testid="wallet-balance">
            Balance: {formatB3tr(user.balanceMilli)} B3TR
          </p>
        ) : null}
        <fetcher.Form method="post" action="/auth/wallet">
          <input type="hidden" name="intent" value="disconnect" />
          <button type="submit" className="btn danger block" disabled={busy}>
            <Icon name="logout" />
            {fetcher.state !== 'idle' ? 'Disconnecting...' : 'Disconnect Wallet'}
          </button>
        </fetcher.Form>
      </section>
    )
  }

  return (
    <section className={`card wallet-card ${variant}`} aria-labelledby="wallet-card-title">
      <h2 id="wallet-card-title" className="card-title">
        <Icon name="wallet" /> Connect VeWorld Wallet
      </h2>
      {variant === 'detailed' ? (
        <p className="muted small">
          Sign a free, gas-less certificate with your VeChain wallet to prove it is yours. No transaction is sent.
        </p>
      ) : null}
      <fetcher.Form
        method="post"
        action="/auth/wallet"
        onSubmit={(event) => {
          event.preventDefault()
          void connect()
        }}
      >
        <input type="hidden" name="intent" value="connect" />
        <input type="hidden" name="redirectTo" value={redirectTo ?? ''} />
        <button type="submit" className="btn block" disabled={busy} aria-busy={busy}>
          {busy ? <span className="spinner" aria-hidden="true" /> : <Icon name="wallet" />}
          {busy ? 'Connecting...' : 'Connect VeWorld'}
        </button>
      </fetcher.Form>
      {!hydrated ? (
        <noscript>
          <p className="small muted" style={{ marginTop: '0.5rem' }}>
            Connecting needs JavaScript: open ReCircle in the VeWorld in-app browser (or with the VeWorld extension) to
            sign in. Everything else works without it.
          </p>
        </noscript>
      ) : null}
    </section>
  )
}

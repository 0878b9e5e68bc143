import { useFetcher } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { detectWallet, fetchChallenge, readStoredTestWallet, signChallenge, WALLET_MESSAGES, WalletError } from '~/auth/wallet.client'
import { isPhoneBrowser, veWorldLink } from '~/auth/veworld-link'
import { shortAddress } from '~/chain/networks'
import { formatB3tr } from '~/rewards/money'
import { useRootData } from '~/utils/user'
import { Icon } from './icons'
import { dismissToast, showToast } from './toaster'

export type WalletCardUser = { walletAddress: string; balanceMilli: number; maturing?: string | null }

type ActionData = { error?: string }

/** Connect or disconnect; the certificate travels in a hidden field of an ordinary form. */
export function WalletCard({
  user,
  variant = 'detailed',
  redirectTo,
  connectLabel = 'Connect VeWorld',
}: {
  user: WalletCardUser | null
  variant?: 'detailed' | 'compact'
  redirectTo?: string
  /** The wallet gate's button reads "Connect Wallet" (spec 1 §2); the card's own, "Connect VeWorld". */
  connectLabel?: string
}) {
  const fetcher = useFetcher<ActionData>()
  const [signing, setSigning] = useState<'wallet' | 'test' | null>(null)
  const [hydrated, setHydrated] = useState(false)
  // Issue 11: outside production the card also offers a test wallet (the root loader decides).
  const testWalletAllowed = useRootData()?.testWalletAllowed ?? false
  const [testWalletAddress, setTestWalletAddress] = useState<string | null>(null)
  // Issue 22: a phone browser without an injected wallet gets VeWorld's universal link to this page.
  const [openInVeWorld, setOpenInVeWorld] = useState<string | null>(null)
  // Issue 40: a "Connection Failed" from an earlier try goes once a sign-in succeeds.
  useEffect(() => {
    if (user) dismissToast()
  }, [user])
  useEffect(() => {
    setHydrated(true)
    setTestWalletAddress(readStoredTestWallet()?.address ?? null)
    if (!isPhoneBrowser(navigator.userAgent)) return
    // VeWorld injects window.vechain as the page loads: look again shortly before offering the link.
    const timer = setTimeout(() => setOpenInVeWorld(detectWallet() ? null : veWorldLink(window.location.href)), 600)
    setOpenInVeWorld(detectWallet() ? null : veWorldLink(window.location.href))
    return () => clearTimeout(timer)
  }, [user])
  const submittedWith = useRef<'wallet' | 'test'>('wallet')
  const busy = signing !== null || fetcher.state !== 'idle'
  // Which button shows "Connecting...": the one signing, then the one whose certificate is posted.
  const connecting = signing ?? (fetcher.state !== 'idle' ? submittedWith.current : null)

  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.error) {
      showToast({ title: 'Connection Failed', description: fetcher.data.error, variant: 'destructive' })
    }
  }, [fetcher.state, fetcher.data])

  async function connect(wallet: 'wallet' | 'test') {
    // A new try clears the last one's failure (issue 40: it stayed after the test wallet signed in).
    dismissToast()
    setSigning(wallet)
    try {
      const content = await fetchChallenge()
      // The test wallet's code (thor-devkit) is downloaded only by someone who taps it.
      const certificate =
        wallet === 'test' ? (await import('~/auth/test-wallet.client')).signWithTestWallet(content) : await signChallenge(content)
      submittedWith.current = wallet
      fetcher.submit(
        { intent: 'connect', certificate: JSON.stringify(certificate), redirectTo: redirectTo ?? '' },
        { method: 'post', action: '/auth/wallet' },
      )
    } catch (error) {
      const message = error instanceof WalletError ? error.message : WALLET_MESSAGES.failed
      showToast({ title: 'Connection Failed', description: message, variant: 'destructive' })
    } finally {
      setSigning(null)
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
          <span className="row" style={{ gap: '0.4rem' }}>
            {testWalletAddress === user.walletAddress.toLowerCase() ? (
              <span className="pill streak" data-testid="test-wallet-label" title="A key kept in this browser, for trying ReCircle only">
                Test wallet
              </span>
            ) : null}
            <span className="address" title={user.walletAddress} data-testid="wallet-address">
              {shortAddress(user.walletAddress)}
            </span>
          </span>
        </div>
        {variant === 'detailed' ? (
          <p className="muted" style={{ marginTop: '0.5rem' }} data-testid="wallet-balance">
            Balance: {formatB3tr(user.balanceMilli)} B3TR
          </p>
        ) : null}
        {variant === 'detailed' && user.maturing ? (
          <p className="small muted" style={{ margin: 0 }} data-testid="wallet-maturing">
            {user.maturing}
          </p>
        ) : null}
        {/* Issue 32: disconnecting is rare and not dangerous, so it is a quiet link-style button at the
            card's foot, not a red full-width one. An ordinary form: it works without JavaScript. */}
        <fetcher.Form method="post" action="/auth/wallet" className="wallet-disconnect">
          <input type="hidden" name="intent" value="disconnect" />
          <button type="submit" className="btn ghost quiet" disabled={busy} data-testid="wallet-disconnect">
            <Icon name="logout" width={16} height={16} />
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
          void connect('wallet')
        }}
      >
        <input type="hidden" name="intent" value="connect" />
        <input type="hidden" name="redirectTo" value={redirectTo ?? ''} />
        <button type="submit" className="btn block" disabled={busy} aria-busy={connecting === 'wallet'}>
          {connecting === 'wallet' ? <span className="spinner" aria-hidden="true" /> : <Icon name="wallet" />}
          {connecting === 'wallet' ? 'Connecting...' : connectLabel}
        </button>
      </fetcher.Form>
      {openInVeWorld ? (
        <div className="stack" style={{ gap: '0.35rem', marginTop: '0.6rem' }} data-testid="open-in-veworld">
          <a className="btn secondary block" href={openInVeWorld}>
            <Icon name="wallet" /> Open in VeWorld
          </a>
          <p className="small muted" style={{ margin: 0 }}>
            No wallet in this browser: open ReCircle in the VeWorld app to sign in.
          </p>
        </div>
      ) : null}
      {testWalletAllowed && hydrated ? (
        <div className="stack" style={{ gap: '0.35rem', marginTop: '0.6rem' }}>
          <button type="button" className="btn secondary block" disabled={busy} aria-busy={connecting === 'test'} onClick={() => void connect('test')}>
            {connecting === 'test' ? <span className="spinner" aria-hidden="true" /> : null}
            {connecting === 'test' ? 'Connecting...' : 'Use a test wallet'}
          </button>
          <p className="small muted" style={{ margin: 0 }}>
            Test wallet: for trying ReCircle only, never use it for real funds. Its key is made and kept in this browser.
          </p>
        </div>
      ) : null}
      {!hydrated ? (
        <noscript>
          <p className="small muted" style={{ marginTop: '0.5rem' }}>
            Connecting a wallet here needs JavaScript: open ReCircle in the VeWorld in-app browser (or with the VeWorld
            extension), or <a href="/connect-wallet/code">sign in with a code</a> confirmed by your wallet on another device.
            Everything else works without it.
          </p>
        </noscript>
      ) : null}
    </section>
  )
}

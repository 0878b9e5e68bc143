import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { z } from 'zod'
import { requireUser } from '~/auth/auth.server'
import { shortAddress } from '~/chain/networks'
import { EngagementIcon } from '~/components/engagement-icons'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Identicon } from '~/components/identicon'
import { TransactionRow } from '~/components/transaction-row'
import { WalletAddress } from '~/components/wallet-address'
import { getBalanceMilli } from '~/rewards/ledger.server'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/engagement.css'
import { countUserTransactions, listUserTransactions } from '~/users/history.server'
import { updateUserSettings } from '~/users/users.server'
import { getDb } from '~/utils/db.server'
import { toastCookie } from '~/utils/toast.server'
import { readFormData } from '~/utils/form.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Profile · ReCircle' }]

/** Spec 1 §9: 15 shown, +5 per Load More, refreshed every 3 s. */
const FIRST_PAGE = 15
const LOAD_MORE = 5
const MAX_SHOWN = 500
const REFRESH_MS = 3000

function parseShown(value: string | null) {
  const n = Number(value)
  return Number.isSafeInteger(n) ? Math.min(Math.max(n, FIRST_PAGE), MAX_SHOWN) : FIRST_PAGE
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const db = getDb()
  const shown = parseShown(new URL(request.url).searchParams.get('show'))
  const [balanceMilli, history, total] = await Promise.all([
    getBalanceMilli(db, user.id),
    listUserTransactions(db, user.id, { limit: shown }),
    countUserTransactions(db, user.id),
  ])
  return json({
    user: {
      walletAddress: user.walletAddress,
      displayName: user.displayName ?? 'Eco Rider',
      notificationsEnabled: user.notificationsEnabled,
    },
    balanceMilli,
    history,
    total,
    shown,
  })
}

// Biometric Authentication is gone: a web page cannot make VeWorld ask for biometrics (decision 101).
const settingsSchema = z.object({
  setting: z.enum(['notifications']),
  enabled: z.enum(['true', 'false']),
  show: z.string().optional(),
})

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const parsed = settingsSchema.safeParse(Object.fromEntries(await readFormData(request)))
  if (!parsed.success) return json({ error: 'Unknown setting' }, { status: 400 })
  const enabled = parsed.data.enabled === 'true'
  await updateUserSettings(getDb(), user.id, { notificationsEnabled: enabled })
  const label = 'Notifications'
  const shown = parseShown(parsed.data.show ?? null)
  return redirect(shown > FIRST_PAGE ? `/profile?show=${shown}` : '/profile', {
    headers: { 'Set-Cookie': await toastCookie(request, { title: `${label} ${enabled ? 'on' : 'off'}`, variant: 'success' }) },
  })
}

/** Re-reads the page's data every 3 s while it is visible and nothing else is loading. */
function useRefreshEvery(ms: number) {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const busy = revalidator.state !== 'idle' || navigation.state !== 'idle'
  useEffect(() => {
    if (busy) return
    const timer = setTimeout(() => {
      if (document.visibilityState === 'visible') revalidator.revalidate()
    }, ms)
    return () => clearTimeout(timer)
  }, [busy, ms, revalidator])
}

function SettingToggle({ name, label, description, enabled, shown }: { name: string; label: string; description: string; enabled: boolean; shown: number }) {
  const descriptionId = `${name}-description`
  return (
    <Form method="post" className="setting">
      <div>
        <div style={{ fontWeight: 600 }}>{label}</div>
        <div className="small muted" id={descriptionId}>
          {description}
        </div>
      </div>
      <input type="hidden" name="setting" value={name} />
      <input type="hidden" name="enabled" value={String(!enabled)} />
      <input type="hidden" name="show" value={String(shown)} />
      <div className="row">
        <span className="switch-text" aria-hidden="true">
          {enabled ? 'On' : 'Off'}
        </span>
        <button type="submit" className="switch" role="switch" aria-checked={enabled} aria-label={label} aria-describedby={descriptionId} />
      </div>
    </Form>
  )
}

/** Profile's Explore list: every screen within two taps of a tab (issue 24). */
const EXPLORE_LINKS = [
  { to: '/receipts', icon: 'receipt', label: 'My Receipts' },
  { to: '/rewards', icon: 'chart', label: 'Reward History' },
  { to: '/impact-explorer', icon: 'leaf', label: 'Impact Explorer' },
  { to: '/stores', icon: 'store', label: 'Sustainable Stores' },
  { to: '/add-store', icon: 'plus', label: 'Add a Store' },
  { to: '/invite-friend', icon: 'users', label: 'Invite Friends' },
]

export default function Profile() {
  const { user, balanceMilli, history, total, shown } = useLoaderData<typeof loader>()
  useRefreshEvery(REFRESH_MS)
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <EngagementIcon name="arrowLeft" /> Back to Home
      </Link>
      <section className="card profile-head">
        <Identicon address={user.walletAddress} />
        <div style={{ minWidth: 0 }}>
          <h1>{user.displayName}</h1>
          <div className="small muted" title={user.walletAddress} data-testid="profile-address">
            {shortAddress(user.walletAddress)}
          </div>
          <span className="pill" style={{ marginTop: 6 }}>
            <EngagementIcon name="check" width={14} height={14} /> Active Member
          </span>
        </div>
      </section>

      <WalletAddress address={user.walletAddress} />

      <section className="card hero" aria-label="Balance">
        <div className="small">B3TR balance</div>
        <div style={{ fontSize: '2rem', fontWeight: 800 }} data-testid="profile-balance">
          {formatB3tr(balanceMilli)} B3TR
        </div>
        <div className="row" style={{ marginTop: '0.75rem' }}>
          <Link to="/redeem" className="btn light" style={{ flex: 1 }}>
            Send
          </Link>
          <Link to="/redeem" className="btn light" style={{ flex: 1 }}>
            Redeem
          </Link>
        </div>
      </section>

      <section className="card" aria-labelledby="history-title">
        <div className="row between wrap">
          <h2 id="history-title" style={{ margin: 0 }}>
            Transaction History
          </h2>
          <a href="/api/me/transactions.csv" className="btn secondary" download>
            <EngagementIcon name="download" /> Export as CSV
          </a>
        </div>
        {history.length === 0 ? (
          <p className="muted" style={{ margin: '0.75rem 0 0' }}>
            No transactions found
          </p>
        ) : (
          <ul className="tx-list" aria-live="polite">
            {history.map((tx) => (
              <TransactionRow key={tx.id} tx={tx} />
            ))}
          </ul>
        )}
        <div className="row between" style={{ marginTop: '0.75rem' }}>
          <span className="small muted" data-testid="history-count">
            Showing {history.length} of {total}
          </span>
          {/* Without JavaScript this is how the list refreshes; with it, every 3 s happens anyway. */}
          <Link to={shown > FIRST_PAGE ? `/profile?show=${shown}` : '/profile'} className="small" preventScrollReset>
            Refresh
          </Link>
        </div>
        {total > shown ? (
          <Link to={`/profile?show=${shown + LOAD_MORE}`} preventScrollReset className="btn secondary block" style={{ marginTop: '0.75rem' }}>
            Load More
          </Link>
        ) : null}
      </section>

      <nav className="card" aria-labelledby="explore-title">
        <h2 id="explore-title">Explore</h2>
        <ul className="link-list">
          {EXPLORE_LINKS.map(({ to, icon, label }) => (
            <li key={to}>
              <Link to={to}>
                <EngagementIcon name={icon} /> {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section className="card" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <SettingToggle
          name="notifications"
          label="Notifications"
          description="On Home, show receipt reviews, store reviews and claim payouts decided since your last visit"
          enabled={user.notificationsEnabled}
          shown={shown}
        />
      </section>
      <p className="small muted center">To disconnect, use the wallet button on the Home screen.</p>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { requireUser } from '~/auth/auth.server'
import { shortAddress } from '~/chain/networks'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { Identicon } from '~/components/identicon'
import { TransactionRow } from '~/components/transaction-row'
import { getBalanceMilli } from '~/rewards/ledger.server'
import { formatB3tr } from '~/rewards/money'
import { countUserTransactions, listUserTransactions } from '~/users/history.server'
import { updateUserSettings } from '~/users/users.server'
import { getDb } from '~/utils/db.server'

export const meta: MetaFunction = () => [{ title: 'Profile · ReCircle' }]

const FIRST_PAGE = 15
const LOAD_MORE = 5

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const db = getDb()
  const shown = Math.min(Math.max(Number(new URL(request.url).searchParams.get('show')) || FIRST_PAGE, FIRST_PAGE), 500)
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
      biometricEnabled: user.biometricEnabled,
    },
    balanceMilli,
    history,
    total,
    shown,
  })
}

const settingsSchema = z.object({
  setting: z.enum(['notifications', 'biometric']),
  enabled: z.enum(['true', 'false']),
})

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const parsed = settingsSchema.safeParse(Object.fromEntries(await request.formData()))
  if (!parsed.success) return json({ error: 'Unknown setting' }, { status: 400 })
  const enabled = parsed.data.enabled === 'true'
  await updateUserSettings(
    getDb(),
    user.id,
    parsed.data.setting === 'notifications' ? { notificationsEnabled: enabled } : { biometricEnabled: enabled },
  )
  return redirect('/profile')
}

function SettingToggle({ name, label, description, enabled }: { name: string; label: string; description: string; enabled: boolean }) {
  return (
    <Form method="post" className="row between" style={{ padding: '0.5rem 0' }}>
      <div>
        <div style={{ fontWeight: 600 }}>{label}</div>
        <div className="small muted">{description}</div>
      </div>
      <input type="hidden" name="setting" value={name} />
      <input type="hidden" name="enabled" value={String(!enabled)} />
      <button type="submit" className={`btn ${enabled ? '' : 'secondary'}`} role="switch" aria-checked={enabled} aria-label={label}>
        {enabled ? 'On' : 'Off'}
      </button>
    </Form>
  )
}

export default function Profile() {
  const { user, balanceMilli, history, total, shown } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <section className="card row" style={{ gap: '1rem' }}>
        <Identicon address={user.walletAddress} />
        <div>
          <h1 style={{ marginBottom: 4 }}>{user.displayName}</h1>
          <div className="small muted" title={user.walletAddress}>
            {shortAddress(user.walletAddress)}
          </div>
          <span className="pill" style={{ marginTop: 6 }}>
            Active Member
          </span>
        </div>
      </section>

      <section className="card hero">
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
        <div className="row between">
          <h2 id="history-title" style={{ margin: 0 }}>
            Transaction History
          </h2>
          <a href="/api/me/transactions.csv" className="btn secondary" download>
            <Icon name="download" /> Export
          </a>
        </div>
        {history.length === 0 ? (
          <p className="muted" style={{ marginTop: '0.75rem' }}>
            No transactions found
          </p>
        ) : (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {history.map((tx) => (
              <TransactionRow key={tx.id} tx={tx} />
            ))}
          </ul>
        )}
        {total > shown ? (
          <Link
            to={`?${new URLSearchParams({ ...Object.fromEntries(params), show: String(shown + LOAD_MORE) })}`}
            preventScrollReset
            className="btn secondary block"
            style={{ marginTop: '0.75rem' }}
          >
            Load More
          </Link>
        ) : null}
      </section>

      <section className="card" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <SettingToggle name="notifications" label="Notifications" description="Reward and review updates" enabled={user.notificationsEnabled} />
        <SettingToggle
          name="biometric"
          label="Biometric Authentication"
          description="Ask VeWorld for biometrics before signing"
          enabled={user.biometricEnabled}
        />
      </section>
      <p className="small muted center">To disconnect, use the wallet button on the Home screen.</p>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

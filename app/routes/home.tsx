import { json, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { getOptionalUser, requireUser } from '~/auth/auth.server'
import { listNotices, markNoticesSeen, type Notice } from '~/users/notices.server'
import { readFormData } from '~/utils/form.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon, type IconName } from '~/components/icons'
import { ForwardingConfirmations } from '~/components/forwarding-confirmation'
import { MoneyInFlight } from '~/components/money-in-flight'
import { WalletCard } from '~/components/wallet-card'
import { inboundDomain } from '~/ereceipts/inbound.server'
import { dismissFromForm, listConfirmations, type ConfirmationView } from '~/receipts/forwarding-confirmations.server'
import { WithSupportLink } from '~/components/support-link'
import { getLatestAchievement } from '~/engagement/engagement.server'
import { formatB3tr, wholeB3trText } from '~/rewards/money'
import { REFERRAL_REWARD_B3TR } from '~/referrals/referrals'
import { getHomeSummary } from '~/users/summary.server'
import { getMoneyOverview } from '~/users/money.server'
import { moneyLines, type MoneyLine } from '~/rewards/money-lines'
import { getDb } from '~/utils/db.server'
import { useOptionalUser } from '~/utils/user'

export const meta: MetaFunction = () => [{ title: 'Home · ReCircle' }]

const PRIVATE = { 'Cache-Control': 'private, no-store' }
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

const DAILY_GOAL = 3

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  if (!user) return json({ summary: null, latest: null, notices: [] as Notice[], confirmations: [] as ConfirmationView[], money: [] as MoneyLine[] })
  const db = getDb()
  const [summary, latest, notices, confirmations, money] = await Promise.all([
    getHomeSummary(db, user.id),
    getLatestAchievement(db, user.id),
    // The Notifications setting (issue 24): outcomes decided since the last visit's "Dismiss".
    user.notificationsEnabled ? listNotices(db, user.id, user.noticesSeenAt ?? user.createdAt) : Promise.resolve<Notice[]>([]),
    // A mail provider's forwarding confirmation for this user's address (issue 39), theirs alone.
    inboundDomain() ? listConfirmations(db, user.id) : Promise.resolve<ConfirmationView[]>([]),
    // Issue 40: what is in review and on its way, beside the balance.
    getMoneyOverview(db, user.id).then(moneyLines),
  ])
  // A confirmation's link is the owner's alone: no cache keeps the page (issue 39).
  return json({ summary, latest, notices, confirmations, money }, confirmations.length ? { headers: PRIVATE } : undefined)
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await readFormData(request)
  if (form.get('intent') === 'dismiss-confirmation') {
    await dismissFromForm(getDb(), user.id, form)
    return redirect('/home')
  }
  if (form.get('intent') !== 'dismiss-notices') return json({ error: 'Unknown action' }, { status: 400 })
  await markNoticesSeen(getDb(), user.id)
  return redirect('/home')
}

const ACTIONS: { to: string; title: string; text: string; icon: IconName }[] = [
  { to: '/scan', title: 'Upload Rideshare Receipt', text: 'Uber, Lyft, Waymo and more', icon: 'car' },
  { to: '/scan', title: 'Upload Transit Receipt', text: 'Bus, subway, rail and passes', icon: 'bus' },
  { to: '/scan', title: 'Electric Vehicle Rental', text: 'Tesla, Zipcar, Hertz EVs', icon: 'bolt' },
  { to: '/receipts', title: 'My Receipts', text: 'Every receipt you sent and where it stands', icon: 'receipt' },
  { to: '/invite-friend', title: 'Invite a Friend', text: `Earn ${wholeB3trText(REFERRAL_REWARD_B3TR)} per referral`, icon: 'users' },
  // Issue 24: the stores list (and Add Store from it) had no way in.
  { to: '/stores', title: 'Sustainable Stores', text: 'Find stores near you or add one', icon: 'store' },
]

export default function Home() {
  const { summary, latest, notices, confirmations, money } = useLoaderData<typeof loader>()
  const user = useOptionalUser()
  const connected = !!user && !!summary
  const actions = Math.min(summary?.dailyActions ?? 0, DAILY_GOAL)
  // Spec 1 §2: without a wallet the cards only scroll to the top.
  const scrollUnlessConnected = (event: React.MouseEvent) => {
    if (!connected) {
      event.preventDefault()
      window.scrollTo({ top: 0, behavior: 'smooth' })
    }
  }

  return (
    <div className="stack">
      <h1 className="sr-only">ReCircle Home</h1>
      {connected ? <ForwardingConfirmations confirmations={confirmations} action="/home" /> : null}
      {connected && notices.length > 0 ? <Notices notices={notices} /> : null}
      <WalletCard user={user} />
      {connected ? <MoneyInFlight lines={money} /> : null}
      {connected && summary && summary.inReview > 0 ? (
        <Link to="/receipts" className="action-card in-review" data-testid="in-review-card">
          <span className="action-icon">
            <Icon name="clock" />
          </span>
          <span>
            <strong>
              {summary.inReview} {summary.inReview === 1 ? 'receipt' : 'receipts'} in review
            </strong>
            <br />
            <span className="small muted">Usually decided within a day. See My Receipts</span>
          </span>
        </Link>
      ) : null}

      <section className="card" aria-labelledby="goal-title">
        <div className="row between">
          {/* Issue 40: the spec's "Today's Goal 0/3" is the daily limit of 3 actions; say so. */}
          <h2 id="goal-title" className="card-title" style={{ margin: 0 }}>
            Today's actions
          </h2>
          <span className="muted" data-testid="daily-goal">
            {connected ? actions : 0} of {DAILY_GOAL} used
          </span>
        </div>
        <p className="small muted" style={{ margin: '0.25rem 0 0' }}>
          Up to {DAILY_GOAL} a day: receipts sent and stores added. It starts again at midnight UTC.
        </p>
        <div
          className="goal-bar"
          role="progressbar"
          aria-label="Daily actions used"
          aria-valuemin={0}
          aria-valuemax={DAILY_GOAL}
          aria-valuenow={connected ? actions : 0}
          style={{ marginTop: '0.5rem' }}
        >
          <span style={{ width: `${((connected ? actions : 0) / DAILY_GOAL) * 100}%` }} />
        </div>
      </section>

      <section aria-labelledby="actions-title" className="stack" style={{ gap: '0.6rem' }}>
        <h2 id="actions-title">Drive Change, Earn B3TR</h2>
        {ACTIONS.map((a) => (
          <Link key={a.title} to={a.to} className="action-card" onClick={scrollUnlessConnected}>
            <span className="action-icon">
              <Icon name={a.icon} />
            </span>
            <span>
              <strong>{a.title}</strong>
              <br />
              <span className="small muted">{a.text}</span>
            </span>
          </Link>
        ))}
      </section>

      <section className="card" aria-labelledby="stats-title">
        <div className="row between">
          <h2 id="stats-title" className="card-title" style={{ margin: 0 }}>
            Your Stats
          </h2>
          <Link to="/achievements" className="small">
            See All
          </Link>
        </div>
        {/* The stats open Impact Explorer, and its View Analytics the reward history (issue 24). */}
        <Link to="/impact-explorer" className="stat-link" data-testid="stats-link" onClick={scrollUnlessConnected}>
          <div className="grid-2">
            <div className="stat">
              <div className="stat-value" data-testid="total-rewards">
                {/* Issue 40: the one B3TR format (the spec's floored whole number was a fourth way). */}
                {formatB3tr(summary?.totalEarnedMilli ?? 0)}
              </div>
              <div className="stat-label">B3TR earned (all time)</div>
            </div>
            <div className="stat">
              <div className="stat-value" data-testid="verified-receipts">
                {summary?.verifiedReceipts ?? 0}
              </div>
              <div className="stat-label">Verified Receipts</div>
            </div>
          </div>
          <span className="stat-more">
            <Icon name="chart" width={16} height={16} /> Open Impact Explorer
          </span>
        </Link>
      </section>

      <section className="card" aria-labelledby="recent-achievements">
        <h2 id="recent-achievements" className="card-title">
          <Icon name="trophy" /> Recent Achievements
        </h2>
        {!connected ? (
          <p className="muted">Connect to Start Earning</p>
        ) : latest ? (
          <Link to={`/achievements#achievement-${latest.key}`} className="row between" data-testid="latest-achievement">
            <span>{latest.title}</span>
            {latest.rewardMilli ? <span className="pill">+{formatB3tr(latest.rewardMilli)} B3TR</span> : <span className="small muted">Unlocked</span>}
          </Link>
        ) : (
          <p className="muted">No Achievements Yet</p>
        )}
      </section>
    </div>
  )
}

/** What happened since the last visit; Dismiss marks it seen (a plain form, works without JavaScript). */
function Notices({ notices }: { notices: Notice[] }) {
  return (
    <section className="card notices" aria-labelledby="notices-title">
      <h2 id="notices-title" className="card-title">
        <Icon name="message" /> Since your last visit
      </h2>
      <ul>
        {notices.map((n) => (
          <li key={n.key} className={n.tone}>
            <Link to={n.href}>
              <strong>{n.title}</strong>
            </Link>
            <span className="small">
              <WithSupportLink text={n.text} />
            </span>
          </li>
        ))}
      </ul>
      <Form method="post">
        <button type="submit" name="intent" value="dismiss-notices" className="btn secondary block">
          Dismiss
        </button>
      </Form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

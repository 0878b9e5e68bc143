import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { explorerTxUrl, isRealTxHash } from '~/chain/networks'
import { EngagementIcon } from '~/components/engagement-icons'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ShareImpactLink } from '~/components/share-impact'
import { formatHistoryDate } from '~/components/transaction-row'
import type { BadgeCategory } from '~/engagement/badges'
import { getEngagementOverview } from '~/engagement/engagement.server'
import type { BadgeWithEvidence } from '~/engagement/history'
import { formatCo2Kg, WATER_LITERS_PER_RECEIPT } from '~/engagement/impact'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/engagement.css'
import { getDb } from '~/utils/db.server'
import { plural } from '~/utils/text'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Impact Explorer · ReCircle' }]

const TABS: Array<{ id: string; label: string; category: BadgeCategory | null }> = [
  { id: 'all', label: 'All', category: null },
  { id: 'green', label: 'Green', category: 'sustainability' },
  { id: 'community', label: 'Community', category: 'community' },
  { id: 'milestones', label: 'Milestones', category: 'milestones' },
  { id: 'streak', label: 'Streak', category: 'streak' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const url = new URL(request.url)
  const tab = TABS.find((t) => t.id === url.searchParams.get('tab'))?.id ?? 'all'
  const db = getDb()
  const overview = await getEngagementOverview(db, user.id)
  return json({
    tab,
    origin: url.origin,
    badges: overview.badges,
    badgesEarned: overview.badgesEarned,
    achievementsUnlocked: overview.unlockedCount,
    achievementCount: overview.achievements.length,
    nextBadges: overview.nextBadges,
    summary: overview.summary,
    achievementSignal: { receiptCount: overview.facts.receiptCount },
  })
}

function BadgeCard({ badge }: { badge: BadgeWithEvidence }) {
  return (
    <li className={`card ach-card ${badge.earned ? 'unlocked' : 'locked'}`} data-testid={`badge-${badge.id}`}>
      <div className="ach-head">
        <span className="ach-icon">
          <EngagementIcon name={badge.icon} />
        </span>
        <div style={{ minWidth: 0 }}>
          <h3 className="ach-title">{badge.name}</h3>
          <div className="small muted">{badge.description}</div>
        </div>
        <span className={`ach-status ${badge.earned ? 'unlocked' : ''}`}>
          <EngagementIcon name={badge.earned ? 'check' : 'lock'} title={badge.earned ? 'Earned' : 'Not earned yet'} />
        </span>
      </div>
      <div className="meta-row">
        <span className={`rarity ${badge.rarity}`}>{badge.rarity}</span>
        {badge.earned ? (
          <span>{badge.earnedDate ? `Earned ${formatHistoryDate(badge.earnedDate)}` : 'Earned'}</span>
        ) : (
          <span>{badge.progress}% there</span>
        )}
      </div>
      {badge.earned && isRealTxHash(badge.txHash) ? (
        <a className="btn secondary" href={explorerTxUrl(badge.txHash)} target="_blank" rel="noreferrer">
          <EngagementIcon name="external" /> View on VeChain
        </a>
      ) : null}
    </li>
  )
}

function formatLiters(liters: number) {
  return `${liters.toLocaleString('en-US')} L`
}

/** Rounded down to one decimal, so a bar never claims more than was earned. */
function formatUnit(value: number) {
  return Number.isInteger(value) ? String(value) : (Math.floor(value * 10) / 10).toFixed(1)
}

export default function ImpactExplorer() {
  const data = useLoaderData<typeof loader>()
  const category = TABS.find((t) => t.id === data.tab)?.category ?? null
  const shown = data.badges.filter((b) => category === null || b.category === category)
  const earned = formatB3tr(data.summary.earnedMilli)
  const shareText = `I've saved an estimated ${formatCo2Kg(data.summary.co2Kg)} of CO2 and ${formatLiters(data.summary.waterLiters)} of water with ${plural(data.summary.receiptsVerified, 'sustainable trip')} and earned ${earned} B3TR on ReCircle! #ReCircle #B3TR`
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <EngagementIcon name="arrowLeft" /> Back to Home
      </Link>
      <h1>Impact Explorer</h1>

      <section aria-label="Your impact" className="stat-grid">
        <div className="stat">
          <div className="stat-value" data-testid="summary-badges">
            {data.badgesEarned} of {data.badges.length}
          </div>
          <div className="stat-label">Badges Earned</div>
        </div>
        <div className="stat">
          <div className="stat-value" data-testid="summary-co2">
            {formatCo2Kg(data.summary.co2Kg)}
          </div>
          <div className="stat-label">CO2 Saved (estimated)</div>
        </div>
        <div className="stat">
          <div className="stat-value" data-testid="summary-receipts">
            {data.summary.receiptsScanned}
          </div>
          <div className="stat-label">Receipts Scanned</div>
          <div className="stat-sub small muted" data-testid="summary-verified">
            {data.summary.receiptsVerified} verified
          </div>
        </div>
        <div className="stat">
          <div className="stat-value" data-testid="summary-earned">
            {earned}
          </div>
          <div className="stat-label">B3TR Earned</div>
        </div>
        <div className="stat" style={{ gridColumn: '1 / -1' }}>
          <div className="stat-value" data-testid="summary-water">
            {formatLiters(data.summary.waterLiters)}
          </div>
          <div className="stat-label">Water Saved (estimated, {WATER_LITERS_PER_RECEIPT} L per trip)</div>
        </div>
      </section>

      <div className="btn-pair">
        <ShareImpactLink text={shareText} url={`${data.origin}/`} />
        <Link to="/rewards" className="btn secondary">
          <EngagementIcon name="chart" /> View Analytics
        </Link>
      </div>

      <section aria-labelledby="badges-title" className="stack" style={{ gap: '0.75rem' }}>
        <h2 id="badges-title" style={{ margin: 0 }}>
          Badge Collection
        </h2>
        {/* Badges and achievements are two collections (decision 061): say which is which. */}
        <p className="small muted" style={{ margin: 0 }}>
          Badges are separate from{' '}
          <Link to="/achievements" data-testid="achievements-link">
            achievements ({data.achievementsUnlocked} of {data.achievementCount} unlocked)
          </Link>
          .
        </p>
        <nav className="tabs" aria-label="Badge categories">
          {TABS.map((t) => (
            <Link
              key={t.id}
              to={t.id === 'all' ? '/impact-explorer' : `/impact-explorer?tab=${t.id}`}
              aria-current={data.tab === t.id ? 'page' : undefined}
              preventScrollReset
            >
              {t.label}
            </Link>
          ))}
        </nav>
        <ul className="card-grid" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {shown.map((b) => (
            <BadgeCard key={b.id} badge={b} />
          ))}
        </ul>
      </section>

      <section className="card" aria-labelledby="next-title">
        <h2 id="next-title" className="card-title">
          Progress to Next Badges
        </h2>
        {data.nextBadges.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            You've earned Green Champion, Carbon Reducer and Token Master. Impressive!
          </p>
        ) : (
          <div className="stack" style={{ gap: '0.75rem' }}>
            {data.nextBadges.map((n) => (
              <div key={n.badgeId} data-testid={`next-${n.badgeId}`}>
                <div className="progress-label">
                  <span style={{ fontWeight: 700, color: 'var(--ink)' }}>{n.name}</span>
                  <span>
                    {formatUnit(n.current)}/{n.target} {n.unit}
                  </span>
                </div>
                <div className="goal-bar" role="progressbar" aria-label={`${n.name} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={n.progress}>
                  <span style={{ width: `${n.progress}%` }} />
                </div>
              </div>
            ))}
          </div>
        )}
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

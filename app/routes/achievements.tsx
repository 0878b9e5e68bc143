import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { EngagementIcon } from '~/components/engagement-icons'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ShareDialog } from '~/components/share-dialog'
import type { AchievementCategory, EvaluatedAchievement } from '~/engagement/achievements'
import { getEngagementOverview } from '~/engagement/engagement.server'
import { CO2_GRAMS_PER_TREE, formatCo2Kg, formatTenth } from '~/engagement/impact'
import { achievementShareUrl, isAchievementKey } from '~/engagement/share'
import { getBalanceMilli } from '~/rewards/ledger.server'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/engagement.css'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Achievements · ReCircle' }]

const TABS: Array<{ id: 'all' | AchievementCategory; label: string }> = [
  { id: 'all', label: 'All' },
  { id: 'shopping', label: 'Shopping' },
  { id: 'community', label: 'Community' },
  { id: 'milestones', label: 'Milestones' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const url = new URL(request.url)
  const tab = TABS.find((t) => t.id === url.searchParams.get('tab'))?.id ?? 'all'
  const share = url.searchParams.get('share')
  const db = getDb()
  const [overview, balanceMilli] = await Promise.all([getEngagementOverview(db, user.id), getBalanceMilli(db, user.id)])
  const shared = overview.achievements.find((a) => a.unlocked && isAchievementKey(share) && a.key === share)
  return json({
    tab,
    achievements: overview.achievements,
    unlockedCount: overview.unlockedCount,
    badgesEarned: overview.badgesEarned,
    badgeCount: overview.badges.length,
    ecoImpact: overview.ecoImpact,
    streak: overview.facts.currentStreak,
    balanceMilli,
    share: shared ? { key: shared.key, url: achievementShareUrl(url.origin, shared.key) } : null,
    achievementSignal: { receiptCount: overview.facts.receiptCount },
  })
}

function tabHref(tab: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams(extra)
  if (tab !== 'all') params.set('tab', tab)
  const query = params.toString()
  return query ? `/achievements?${query}` : '/achievements'
}

function AchievementCard({ a, tab }: { a: EvaluatedAchievement; tab: string }) {
  return (
    <li className={`card ach-card ${a.unlocked ? 'unlocked' : 'locked'}`} id={`achievement-${a.key}`} data-testid={`achievement-${a.key}`}>
      <div className="ach-head">
        <span className="ach-icon">
          <EngagementIcon name={a.icon} />
        </span>
        <div style={{ minWidth: 0 }}>
          <h3 className="ach-title">{a.title}</h3>
          <div className="small muted">{a.description}</div>
        </div>
        <span className={`ach-status ${a.unlocked ? 'unlocked' : ''}`}>
          <EngagementIcon name={a.unlocked ? 'check' : 'lock'} title={a.unlocked ? 'Unlocked' : 'Locked'} />
        </span>
      </div>
      {a.unlocked ? (
        <div className="row between">
          <span className="pill">{a.rewardMilli > 0 ? `Unlocked · +${formatB3tr(a.rewardMilli)} B3TR` : 'Unlocked'}</span>
          <Link to={tabHref(tab, { share: a.key })} className="btn secondary" preventScrollReset aria-label={`Share ${a.title}`}>
            <EngagementIcon name="share" /> Share
          </Link>
        </div>
      ) : (
        <div>
          <div className="progress-label">
            <span>Progress</span>
            <span>{a.progress}%</span>
          </div>
          <div className="goal-bar" role="progressbar" aria-label={`${a.title} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={a.progress}>
            <span style={{ width: `${a.progress}%` }} />
          </div>
        </div>
      )}
    </li>
  )
}

export default function Achievements() {
  const data = useLoaderData<typeof loader>()
  const shown = data.achievements.filter((a) => data.tab === 'all' || a.category === data.tab)
  const shared = data.share ? data.achievements.find((a) => a.key === data.share?.key) : undefined
  return (
    <div className="stack">
      <section className="card hero" aria-labelledby="ach-title">
        <h1 id="ach-title" style={{ color: '#fff' }}>
          Achievements
        </h1>
        {/* Achievements and badges are two collections (decision 061): each count names what it counts. */}
        <p style={{ margin: 0 }} data-testid="unlocked-count">
          {data.unlockedCount} of {data.achievements.length} achievements unlocked
        </p>
        <p className="small" style={{ margin: 0 }}>
          <Link to="/impact-explorer" data-testid="badges-link">
            {data.badgesEarned} of {data.badgeCount} badges earned
          </Link>{' '}
          (a separate collection, on Impact Explorer)
        </p>
        <div className="hero-figures">
          <div>
            <strong>{data.streak}</strong>
            <span className="small">day streak</span>
          </div>
          <div>
            <strong>{formatB3tr(data.balanceMilli)}</strong>
            <span className="small">B3TR balance</span>
          </div>
        </div>
      </section>

      <section className="card" aria-labelledby="eco-title">
        <h2 id="eco-title" className="card-title">
          <EngagementIcon name="leaf" /> Eco Impact
        </h2>
        <div className="stat-grid">
          <div className="stat">
            <div className="stat-value" data-testid="eco-co2">
              {formatCo2Kg(data.ecoImpact.co2Kg)}
            </div>
            <div className="stat-label">CO2 prevented (estimated)</div>
          </div>
          <div className="stat">
            <div className="stat-value" data-testid="eco-trees">
              {formatTenth(data.ecoImpact.treeEquivalents)}
            </div>
            <div className="stat-label">Tree equivalents (estimated)</div>
          </div>
        </div>
        <p className="small muted" style={{ margin: '0.5rem 0 0' }}>
          A tree equivalent is the CO2 one tree takes up in a year ({CO2_GRAMS_PER_TREE / 1000} kg).
        </p>
      </section>

      <nav className="tabs" aria-label="Achievement categories">
        {TABS.map((t) => (
          <Link key={t.id} to={tabHref(t.id)} aria-current={data.tab === t.id ? 'page' : undefined} preventScrollReset>
            {t.label}
          </Link>
        ))}
      </nav>

      <ul className="card-grid" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {shown.map((a) => (
          <AchievementCard key={a.key} a={a} tab={data.tab} />
        ))}
      </ul>

      {shared && data.share ? (
        <ShareDialog title={shared.title} text={shared.shareText} url={data.share.url} closeHref={tabHref(data.tab)}>
          <p className="muted" style={{ margin: 0 }}>
            {shared.impactMessage}
          </p>
          <dl className="stats-list">
            {shared.stats.map((s) => (
              <div key={s.label}>
                <dt>{s.label}</dt>
                <dd>{s.value}</dd>
              </div>
            ))}
          </dl>
        </ShareDialog>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

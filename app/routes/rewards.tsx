import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { explorerTxUrl, isRealTxHash } from '~/chain/networks'
import { EarningsChart } from '~/components/earnings-chart'
import { EngagementIcon } from '~/components/engagement-icons'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { formatHistoryDate } from '~/components/transaction-row'
import { getRewardsPage } from '~/engagement/engagement.server'
import { rewardCategoryLabel, type RewardHistoryRow } from '~/engagement/history'
import {
  CO2_GRAMS_PER_CAR_MILE,
  CO2_GRAMS_PER_RECEIPT,
  CO2_GRAMS_PER_TREE,
  formatCo2Grams,
  formatCo2Kg,
  formatTenth,
  parseRewardPeriod,
  REWARD_PERIOD_DAYS,
  type RewardPeriod,
} from '~/engagement/impact'
import { formatB3tr, formatSigned, MILLI_PER_B3TR } from '~/rewards/money'
import styles from '~/styles/engagement.css'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Reward History · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const period = parseRewardPeriod(new URL(request.url).searchParams.get('period'))
  return json(await getRewardsPage(getDb(), user.id, period))
}

const PERIODS = Object.keys(REWARD_PERIOD_DAYS) as RewardPeriod[]

function StatusIcon({ status }: { status: string }) {
  if (status === 'completed' || status === 'confirmed') {
    return (
      <span className="status-icon completed">
        <EngagementIcon name="check" title="Completed" />
      </span>
    )
  }
  if (status === 'processing') {
    return (
      <span className="status-icon processing">
        <EngagementIcon name="clock" title="Processing" />
      </span>
    )
  }
  if (status === 'pending') {
    return (
      <span className="status-icon pending">
        <EngagementIcon name="alert" title="Pending" />
      </span>
    )
  }
  return <span className="status-icon" />
}

function RewardRow({ row }: { row: RewardHistoryRow }) {
  return (
    <li className="reward-row" data-testid="reward-row">
      <StatusIcon status={row.status} />
      <div className="tx-main">
        {/* Name and amount on one line; the facts below wrap item by item. */}
        <div className="tx-line">
          <Link to={`/transactions/${row.id}`} className="tx-title">
            {row.storeName}
          </Link>
          <span className="tx-amount positive">{formatSigned(Math.round(row.amount * MILLI_PER_B3TR))} B3TR</span>
        </div>
        <div className="tx-meta">
          <span className="chip">{rewardCategoryLabel(row.category)}</span>
          <span>{formatHistoryDate(row.date)}</span>
          {row.co2Saved > 0 ? <span>{formatCo2Grams(row.co2Saved)} CO2 saved</span> : null}
          {row.confidenceScore !== null ? <span>Confidence: {row.confidenceScore}%</span> : null}
          {/* Only an on-chain entry has something to show on the explorer; the status icon says the rest. */}
          {isRealTxHash(row.txHash) ? (
            <a href={explorerTxUrl(row.txHash)} target="_blank" rel="noreferrer">
              View on Explorer
            </a>
          ) : null}
        </div>
      </div>
    </li>
  )
}

export default function Rewards() {
  const data = useLoaderData<typeof loader>()
  const days = REWARD_PERIOD_DAYS[data.period]
  const { stats, impact } = data
  return (
    <div className="stack">
      <header className="stack" style={{ gap: '0.4rem' }}>
        <div className="row between wrap">
          <h1 style={{ margin: 0 }}>Reward History</h1>
          <span className="pill" data-testid="total-earned-badge">
            {formatB3tr(data.allTimeEarnedMilli)} B3TR earned
          </span>
        </div>
        <p className="muted" style={{ margin: 0 }}>
          Track your B3TR earnings and environmental impact
        </p>
      </header>

      <nav className="period-links" aria-label="Period">
        {PERIODS.map((p) => (
          <Link
            key={p}
            to={p === '30d' ? '/rewards' : `/rewards?period=${p}`}
            aria-current={p === data.period ? 'page' : undefined}
            preventScrollReset
          >
            {REWARD_PERIOD_DAYS[p]} days
          </Link>
        ))}
      </nav>

      <section className="stat-grid" aria-label={`Totals for the last ${days} days`}>
        <div className="stat">
          <div className="stat-label">Total Earned</div>
          <div className="stat-value" data-testid="stat-total-earned">
            {formatB3tr(stats.totalEarnedMilli)} B3TR
          </div>
          <div className="stat-sub">
            From {stats.totalTransactions} {stats.totalTransactions === 1 ? 'transaction' : 'transactions'}
          </div>
        </div>
        <div className="stat">
          <div className="stat-label">CO2 Saved</div>
          <div className="stat-value" data-testid="stat-co2">
            {formatCo2Grams(stats.totalCO2Saved)}
          </div>
          <div className="stat-sub">Estimated</div>
        </div>
        <div className="stat">
          <div className="stat-label">Current Streak</div>
          <div className="stat-value" data-testid="stat-streak">
            {stats.currentStreak} {stats.currentStreak === 1 ? 'day' : 'days'}
          </div>
          <div className="stat-sub">Keep it going!</div>
        </div>
        <div className="stat">
          <div className="stat-label">Weekly Progress</div>
          <div className="stat-value" data-testid="stat-weekly">
            {stats.weeklyProgress}%
          </div>
          <div className="goal-bar" role="progressbar" aria-label="Weekly progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={stats.weeklyProgress}>
            <span style={{ width: `${stats.weeklyProgress}%` }} />
          </div>
          <div className="stat-sub">Goal: {formatB3tr(stats.weeklyGoalMilli)} B3TR</div>
        </div>
      </section>

      <section className="card" aria-labelledby="chart-title">
        <h2 id="chart-title" className="card-title">
          <EngagementIcon name="chart" /> B3TR earned per day
        </h2>
        <EarningsChart points={data.perDay} periodLabel={`${days} days`} />
      </section>

      <section className="card" aria-labelledby="rows-title">
        <h2 id="rows-title" className="card-title">
          Rewards
        </h2>
        {data.rows.length === 0 ? (
          <div className="empty">
            <h3>No transactions found for this period</h3>
            <p className="muted">Start scanning receipts to earn B3TR rewards!</p>
          </div>
        ) : (
          <ul className="tx-list">
            {data.rows.map((row) => (
              <RewardRow key={row.id} row={row} />
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="impact-title">
        <h2 id="impact-title" className="card-title">
          <EngagementIcon name="leaf" /> Environmental Impact
        </h2>
        <div className="impact-figures">
          <div>
            <strong data-testid="impact-co2">{formatCo2Kg(impact.co2Kg)}</strong>
            <span>CO2 prevented</span>
          </div>
          <div>
            <strong data-testid="impact-trees">{formatTenth(impact.treeEquivalents)}</strong>
            <span>tree equivalents</span>
          </div>
          <div>
            <strong data-testid="impact-miles">{formatTenth(impact.carMilesSaved)}</strong>
            <span>car miles saved</span>
          </div>
        </div>
        <p className="small muted" style={{ margin: '0.5rem 0 0' }}>
          Estimates for the last {days} days: {formatCo2Grams(CO2_GRAMS_PER_RECEIPT)} CO2 per verified trip; a tree equivalent is the CO2 one tree takes up in a year ({CO2_GRAMS_PER_TREE / 1000} kg); {formatCo2Grams(CO2_GRAMS_PER_CAR_MILE)} CO2 per car mile (US EPA, typical passenger car).
        </p>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'
import { getUserStats, statsToApi } from '~/engagement/engagement.server'
import { REWARD_PERIOD_DAYS, type RewardPeriod } from '~/engagement/impact'
import { getDb } from '~/utils/db.server'

/**
 * User stats (spec 2 §3): totalEarned, totalTransactions, totalCO2Saved (g), currentStreak,
 * weeklyGoal, weeklyProgress. Totals cover all time, or `?period=7d|30d|90d`. Own user only.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  const period = new URL(request.url).searchParams.get('period')
  const headers = { 'Cache-Control': 'no-store' }
  if (period !== null && !Object.hasOwn(REWARD_PERIOD_DAYS, period)) {
    return json({ error: 'period must be 7d, 30d or 90d' }, { status: 400, headers })
  }
  const stats = await getUserStats(getDb(), user.id, new Date(), (period as RewardPeriod | null) ?? 'all')
  return json(statsToApi(stats), { headers })
}

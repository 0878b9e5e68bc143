import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'
import { getRewardHistory } from '~/engagement/engagement.server'
import { displayAmountMilli } from '~/engagement/history'
import { REWARD_PERIOD_DAYS, type RewardPeriod } from '~/engagement/impact'
import { MILLI_PER_B3TR } from '~/rewards/money'
import { listUserTransactions } from '~/users/history.server'
import { getDb } from '~/utils/db.server'

const MAX_ROWS = 500

/**
 * The user's history (spec 1 §7: type, amount, createdAt, description, txHash), newest first; with
 * `?period=7d|30d|90d` the rewards page's reward-history rows instead (spec 2 §3). Own user only.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  const period = new URL(request.url).searchParams.get('period')
  const headers = { 'Cache-Control': 'no-store' }
  if (period !== null) {
    if (!Object.hasOwn(REWARD_PERIOD_DAYS, period)) {
      return json({ error: 'period must be 7d, 30d or 90d' }, { status: 400, headers })
    }
    return json(await getRewardHistory(getDb(), user.id, period as RewardPeriod), { headers })
  }
  const rows = await listUserTransactions(getDb(), user.id, { limit: MAX_ROWS })
  return json(
    rows.map((r) => ({
      id: r.id,
      type: r.type,
      amount: displayAmountMilli(r) / MILLI_PER_B3TR,
      description: r.description,
      status: r.status,
      txHash: r.txHash,
      createdAt: r.createdAt,
    })),
    { headers },
  )
}

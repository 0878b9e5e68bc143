import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'
import { getEngagementOverview } from '~/engagement/engagement.server'
import { getDb } from '~/utils/db.server'

/** The six achievements and ten badges, computed from the ledger and receipts. Own user only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  const overview = await getEngagementOverview(getDb(), user.id)
  return json(
    {
      unlockedCount: overview.unlockedCount,
      achievements: overview.achievements.map((a) => ({
        type: a.key,
        title: a.title,
        description: a.description,
        icon: a.icon,
        category: a.category,
        unlocked: a.unlocked,
        progress: a.progress,
        current: a.current,
        target: a.target,
        reward: a.rewardMilli / 1000,
        stats: a.stats,
        impactMessage: a.impactMessage,
      })),
      badgesEarned: overview.badgesEarned,
      badges: overview.badges.map((b) => ({
        id: b.id,
        name: b.name,
        description: b.description,
        icon: b.icon,
        category: b.category,
        rarity: b.rarity,
        earned: b.earned,
        earnedDate: b.earnedDate,
        txHash: b.txHash,
        progress: b.progress,
      })),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

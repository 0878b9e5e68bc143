import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'
import { getReferralStats } from '~/referrals/referrals.server'
import { getDb } from '~/utils/db.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  const stats = await getReferralStats(getDb(), user.id)
  return json({ count: stats.count, rewarded: stats.rewarded }, { headers: { 'Cache-Control': 'no-store' } })
}

import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireAdmin } from '~/auth/auth.server'
import { approveSubmission } from '~/store-submissions/submissions.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'
import { parseRowId } from '~/utils/ids'

export async function loader() {
  return methodNotAllowed()
}

/** Approve & Reward: pays once however often or by however many admins it is called. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  const admin = await requireAdmin(request, { api: true })
  const id = parseRowId(params.id)
  if (id === null) return json({ message: 'Submission not found' }, { status: 404 })
  const result = await approveSubmission(getDb(), { submissionId: id, adminUserId: admin.id })
  if (!result.ok) return json({ message: result.error }, { status: result.status })
  return json({
    success: true,
    submissionId: id,
    reward: (result.rewardMilli + result.firstStoreBonusMilli) / 1000,
    storeAdditionReward: result.rewardMilli / 1000,
    firstStoreBonus: result.firstStoreBonusMilli / 1000,
    storeId: result.storeId,
  })
}

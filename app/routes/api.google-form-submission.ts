import { json, type ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { requireUser } from '~/auth/auth.server'
import { DAILY_LIMIT_MESSAGE } from '~/rewards/daily-limit'
import { STORE_ADDITION_REWARD_MILLI } from '~/rewards/receipt-reward'
import { createSubmission } from '~/store-submissions/submissions.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed, readOwnJsonBody } from '~/utils/http.server'
import { rateLimits, requireWithinRateLimits } from '~/utils/rate-limit.server'

const bodySchema = z.object({ userId: z.coerce.number().int(), formType: z.literal('store_submission') })

export async function loader() {
  return methodNotAllowed()
}

/** "I've Completed The Form": a pending submission, counted in the daily limit (decision 003). */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  const user = await requireUser(request, { api: true })
  await requireWithinRateLimits(getDb(), [rateLimits.storeSubmissionByUser(user.id)])
  await readOwnJsonBody(request, user.id, bodySchema, "{ userId, formType: 'store_submission' }")
  const result = await createSubmission(getDb(), { userId: user.id, source: 'external_form' })
  if (!result.ok) return json({ message: `Daily action limit reached. ${DAILY_LIMIT_MESSAGE}` }, { status: 429 })
  return json({ success: true, submissionId: result.submission.id, status: 'pending', potentialReward: STORE_ADDITION_REWARD_MILLI / 1000 })
}

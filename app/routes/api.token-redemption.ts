import { json, type ActionFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { requireUser } from '~/auth/auth.server'
import { NO_TOKENS_MESSAGE, claimAllTokens } from '~/claims/claims.server'
import { MILLI_PER_B3TR, b3trToMilli } from '~/rewards/money'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed, readOwnJsonBody } from '~/utils/http.server'

const bodySchema = z.object({
  userId: z.coerce.number().int(),
  amount: z.number().finite(),
  type: z.literal('claim_all_tokens'),
})

/** b3trToMilli throws past Number.MAX_SAFE_INTEGER milli-B3TR (a RangeError, a 500); no balance comes near. */
const CLAIM_LIMIT_B3TR = Math.floor(Number.MAX_SAFE_INTEGER / MILLI_PER_B3TR)

export async function loader() {
  return methodNotAllowed()
}

/** Claim All (decision 040): `amount` must be the whole current balance in B3TR. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  const user = await requireUser(request, { api: true })
  const body = await readOwnJsonBody(request, user.id, bodySchema, "{ userId, amount, type: 'claim_all_tokens' }")
  if (body.amount <= 0) return json({ message: NO_TOKENS_MESSAGE }, { status: 400 })
  if (body.amount >= CLAIM_LIMIT_B3TR) return json({ message: 'amount is out of range' }, { status: 400 })
  const result = await claimAllTokens(getDb(), { userId: user.id, amountMilli: b3trToMilli(body.amount) })
  if (!result.ok) return json({ message: result.error }, { status: result.code === 'no_tokens' ? 400 : 409 })
  return json({
    success: true,
    claim: { id: result.claimId, amount: result.amountMilli / 1000, status: 'pending', txHash: null },
    balance: 0,
  })
}

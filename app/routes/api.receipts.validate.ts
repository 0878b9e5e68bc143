import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { refusalOrThrow } from '~/receipts/refusal.server'
import { assertSelf, readReceiptRequest, validateForUser } from '~/receipts/api.server'
import { ReceiptImageError } from '~/ocr/photo.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'
import { analysisLimits, requireWithinRateLimits } from '~/utils/rate-limit.server'

export async function loader() {
  return methodNotAllowed()
}

/** Spec 1 §7: the image as a data URL (or multipart) → the server's full analysis result. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { api: true })
  await requireWithinRateLimits(getDb(), analysisLimits(user.id, context))
  try {
    const { image, fields } = await readReceiptRequest(request)
    assertSelf(fields, user)
    if (!image && !(fields.testMode === true || fields.testMode === 'true')) throw new ReceiptImageError('missing')
    return json(await validateForUser(user, image, fields))
  } catch (error) {
    return refusalOrThrow(error)
  }
}

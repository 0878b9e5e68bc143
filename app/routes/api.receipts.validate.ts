import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { refusalOrThrow } from '~/utils/refusal.server'
import { assertSelf, readReceiptRequest, validateForUser } from '~/receipts/api.server'
import { admit, askerFor } from '~/receipts/intake.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

/** Spec 1 §7: the image as a data URL (or multipart) → the server's full analysis result. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { api: true })
  const asker = askerFor(user.id, context)
  try {
    // Admitted before the body is read: the rate limits, then the daily limit (the one intake).
    await admit(getDb(), asker, { reading: true })
    const { image, fields } = await readReceiptRequest(request)
    assertSelf(fields, user)
    return json(await validateForUser(asker, image, fields))
  } catch (error) {
    return refusalOrThrow(error)
  }
}

import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { refusalOrThrow } from '~/utils/refusal.server'
import { assertSelf, parseReceiptFields, readReceiptRequest, receiptResponse, submitForUser } from '~/receipts/api.server'
import { admit, askerFor } from '~/receipts/intake.server'
import { receiptOrigin } from '~/receipts/origin.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

/** Spec 1 §7 payload; the server uses its own analysis, `aiAnalysis` and reward hints are ignored. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { api: true })
  const asker = askerFor(user.id, context)
  try {
    // At the daily limit nothing is read: the submission would be refused anyway. A photo in the
    // body is admitted as a read (rate limits, then the daily limit) once it is known to be there.
    await admit(getDb(), asker, { reading: false })
    const { image, fields } = await readReceiptRequest(request)
    assertSelf(fields, user)
    const analysisId = fields.analysisId === undefined ? null : Number(fields.analysisId)
    const form = parseReceiptFields(fields)
    if ('fieldErrors' in form) {
      return json({ error: Object.values(form.fieldErrors).flat()[0] ?? 'Invalid receipt', fieldErrors: form.fieldErrors }, { status: 400 })
    }
    const result = await submitForUser(asker, { image, analysisId: Number.isInteger(analysisId) ? analysisId : null, values: form.values, origin: await receiptOrigin(request, context) })
    if (!result.ok) return json({ error: result.error }, { status: result.status })
    return json(receiptResponse(result), { status: 201 })
  } catch (error) {
    return refusalOrThrow(error)
  }
}

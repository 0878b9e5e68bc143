import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { refusalOrThrow, refusalResponse } from '~/receipts/refusal.server'
import { assertSelf, parseReceiptFields, readReceiptRequest, receiptResponse, submitForUser } from '~/receipts/api.server'
import { dailyLimitRefusal } from '~/receipts/early.server'
import { receiptOrigin } from '~/receipts/origin.server'
import { submissionRefusals } from '~/receipts/receipts.server'
import { getDb } from '~/utils/db.server'
import { methodNotAllowed } from '~/utils/http.server'
import { analysisLimits, requireWithinRateLimits } from '~/utils/rate-limit.server'

export async function loader() {
  return methodNotAllowed()
}

/** Spec 1 §7 payload; the server uses its own analysis, `aiAnalysis` and reward hints are ignored. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { api: true })
  // At the daily limit nothing is read, let alone analysed: the submission would be refused anyway.
  if (await dailyLimitRefusal(getDb(), user.id)) return refusalResponse(submissionRefusals.dailyLimit())
  try {
    const { image, fields } = await readReceiptRequest(request)
    assertSelf(fields, user)
    // A photo sent with the form is analysed here: it counts against the analysis limits as on
    // POST /api/receipts/validate (issue 29), before any reading.
    if (image) await requireWithinRateLimits(getDb(), analysisLimits(user.id, context))
    const analysisId = fields.analysisId === undefined ? null : Number(fields.analysisId)
    const form = parseReceiptFields(fields)
    if ('fieldErrors' in form) {
      return json({ error: Object.values(form.fieldErrors).flat()[0] ?? 'Invalid receipt', fieldErrors: form.fieldErrors }, { status: 400 })
    }
    const result = await submitForUser(user, { image, analysisId: Number.isInteger(analysisId) ? analysisId : null, values: form.values, origin: await receiptOrigin(request, context) })
    if (!result.ok) return json({ error: result.error }, { status: result.status })
    return json(receiptResponse(result), { status: 201 })
  } catch (error) {
    return refusalOrThrow(error)
  }
}

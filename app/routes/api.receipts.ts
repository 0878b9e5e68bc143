import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { assertSelf, imageErrorResponse, readReceiptRequest, receiptResponse, submitForUser } from '~/receipts/api.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

/** Spec 1 §7 payload; the server uses its own analysis, `aiAnalysis` and reward hints are ignored. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { api: true })
  try {
    const { image, fields } = await readReceiptRequest(request)
    assertSelf(fields, user)
    const analysisId = fields.analysisId === undefined ? null : Number(fields.analysisId)
    const result = await submitForUser(user, { image, analysisId: Number.isInteger(analysisId) ? analysisId : null, fields })
    if ('fieldErrors' in result) {
      return json({ error: Object.values(result.fieldErrors).flat()[0] ?? 'Invalid receipt', fieldErrors: result.fieldErrors }, { status: 400 })
    }
    if (!result.ok) return json({ error: result.error }, { status: result.status })
    return json(receiptResponse(result), { status: 201 })
  } catch (error) {
    return imageErrorResponse(error)
  }
}

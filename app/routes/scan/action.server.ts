import { json, redirect, type AppLoadContext } from '@remix-run/node'
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import type { User } from '~/users/users.server'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { toastCookie } from '~/utils/toast.server'
import { DEMO_TYPES, demoAnalysis, type DemoType } from '~/analysis/demo'
import { isMultipart, readMultipartImage } from '~/receipts/http.server'
import { ReceiptImageError } from '~/ocr/photo.server'
import { Refusal } from '~/utils/refusal'
import { refusalResponse } from '~/utils/refusal.server'
import { receiptFormSchema } from '~/receipts/receipt-form'
import { storeDemoAnalysis } from '~/analysis/analyses.server'
import { submitForUser } from '~/receipts/api.server'
import { readFormData } from '~/utils/form.server'
import { admit, askerFor, readAndCheck } from '~/receipts/intake.server'
import { parseRowId } from '~/utils/ids'
import { utcDay } from '~/utils/calendar'
import { refusalAdvice, type RefusalAdvice } from '~/receipts/refusal-advice'
import { installCookieHeader, receiptOrigin } from '~/receipts/origin.server'

export const UNEXPECTED_ANALYSIS_ERROR = 'Something went wrong while reading this receipt. Nothing was recorded.'

export type ScanActionData =
  | { step: 'camera'; error: string; advice: RefusalAdvice }
  | { step: 'form'; error?: string; reply?: SubmissionResult<string[]> }

/** The capture step's error: the reason, and what the user can do about it (retry only where it helps). */
function cameraError(message: string, status: number, code?: string | null, headers?: HeadersInit) {
  return json<ScanActionData>({ step: 'camera', error: message, advice: refusalAdvice(code, status) }, { status, headers })
}

/** The scan page's form posts: analyse a photo, try a demo (test mode), or submit the form. */
export async function handleScanAction(request: Request, user: User, context: AppLoadContext) {
  if (isMultipart(request)) {
    // A multipart post is a photo (or a saved e-mail) to read, through the one intake: admitted
    // (rate limits, then the daily limit) before the upload is read.
    const asker = askerFor(user.id, context)
    try {
      await admit(getDb(), asker, { reading: true })
      const image = (await readMultipartImage(request)).image
      if (!image) throw new ReceiptImageError('missing')
      // What would refuse it is shown on the form step, which checks it again.
      const stored = await readAndCheck(getDb(), asker, image)
      // A browser without JavaScript gets its install id here (components/install-id.tsx keeps it otherwise).
      const cookie = await installCookieHeader(request)
      return redirect(`/scan?analysis=${stored.id}`, cookie ? { headers: { 'Set-Cookie': cookie } } : undefined)
    } catch (error) {
      if (error instanceof Refusal) {
        return refusalResponse<ScanActionData>(error, (r) => ({ step: 'camera', error: r.message, advice: refusalAdvice(r.code, r.status) }))
      }
      if (error instanceof Response) throw error
      // Anything else goes back to the capture step with Try Again, not to the error page (issue 24).
      console.error('Receipt analysis failed', error)
      return cameraError(UNEXPECTED_ANALYSIS_ERROR, 500)
    }
  }

  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'demo') {
    const type = String(form.get('demoType')) as DemoType
    if (!getEnv().RECIRCLE_TEST_MODE || !DEMO_TYPES.includes(type)) {
      return cameraError('Demo receipts are only available in test mode.', 400, 'demo')
    }
    const id = await storeDemoAnalysis(getDb(), user.id, demoAnalysis(type, utcDay(new Date())))
    return redirect(`/scan?analysis=${id}`)
  }

  if (intent !== 'submit') return cameraError('Unknown action', 400, 'unknown_action')
  const submission = parseWithZod(form, { schema: receiptFormSchema })
  if (submission.status !== 'success') return json<ScanActionData>({ step: 'form', reply: submission.reply() }, { status: 400 })
  const analysisId = parseRowId(String(form.get('analysisId') ?? ''))
  if (analysisId === null) return cameraError('No image captured', 400, 'missing')
  const result = await submitForUser(askerFor(user.id, context), { image: null, analysisId, values: submission.value, origin: await receiptOrigin(request, context) })
  if (!result.ok) {
    const status = result.status
    return json<ScanActionData>({ step: 'form', error: result.error, reply: submission.reply({ formErrors: [result.error] }) }, { status })
  }
  const review = result.status === 'pending_review'
  const params = new URLSearchParams({ new: '1' })
  if (result.streak.increased) params.set('streak', String(result.streak.current))
  if (result.firstReceiptBonusMilli > 0) params.set('first', '1')
  return redirect(`/scan/receipts/${result.receiptId}?${params}`, {
    headers: {
      'Set-Cookie': await toastCookie(
        request,
        review
          ? { title: 'Receipt Submitted for Review', description: 'Rewards will be issued after verification', variant: 'default', durationMs: 8000 }
          : { title: 'Receipt Submitted!', description: `You earned ${(result.reward?.total ?? 0) + result.firstReceiptBonusMilli / 1000} B3TR.`, variant: 'success' },
      ),
    },
  })
}

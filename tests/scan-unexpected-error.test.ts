// Issue 24: an unexpected failure while analysing a photo returns to the capture step with the
// reason and Try Again (spec 1 §8), not the route's error page.
import { describe, expect, it, vi } from 'vitest'
import { RETRYABLE_TITLE } from '../app/receipts/refusal-advice'
import { noiseImage } from './utils/images'
import { bodyOf, signInNewUser, BASE_URL } from './utils/requests'

vi.mock('../app/receipts/analyses.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('../app/receipts/analyses.server')>()
  return { ...original, analyzeAndStore: async () => Promise.reject(new Error('disk full')) }
})

describe('scan action', () => {
  it('answers the capture step with a reason when the analysis throws', async () => {
    const { action, UNEXPECTED_ANALYSIS_ERROR } = { ...(await import('../app/routes/scan/route')), ...(await import('../app/routes/scan/action.server')) }
    const { cookie } = await signInNewUser()
    const form = new FormData()
    form.set('image', new Blob([new Uint8Array(await noiseImage())], { type: 'image/png' }), 'receipt.png')
    const request = new Request(`${BASE_URL}/scan`, { method: 'POST', headers: { Cookie: cookie }, body: form })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await action({ request, params: {}, context: {} })
    expect(res.status).toBe(500)
    expect(await bodyOf(res)).toEqual({ step: 'camera', error: UNEXPECTED_ANALYSIS_ERROR, advice: { action: 'retry', title: RETRYABLE_TITLE, instead: null } })
    expect(errors).toHaveBeenCalled()
    errors.mockRestore()
  })
})

// Issue 24: an unexpected failure while analysing a photo returns to the capture step with the
// reason and Try Again (spec 1 §8), not the route's error page.
import { sql } from 'kysely'
import { describe, expect, it, vi } from 'vitest'
import { RETRYABLE_TITLE } from '../app/receipts/refusal-advice'
import { UNEXPECTED_ANALYSIS_ERROR } from '../app/routes/scan/action.server'
import { action } from '../app/routes/scan/route'
import { getDb } from '../app/utils/db.server'
import { noiseImage } from './utils/images'
import { bodyOf, signInNewUser, BASE_URL } from './utils/requests'

describe('scan action', () => {
  it('answers the capture step with a reason when the analysis throws', async () => {
    const { cookie } = await signInNewUser()
    const form = new FormData()
    form.set('image', new Blob([new Uint8Array(await noiseImage())], { type: 'image/png' }), 'receipt.png')
    const request = new Request(`${BASE_URL}/scan`, { method: 'POST', headers: { Cookie: cookie }, body: form })
    // A real fault inside the analysis: its table is gone (as a full disk or a lost database would fail it).
    // This file's database is its own copy (tests/setup/setup-test-env.ts).
    await sql`alter table receipt_analyses rename to receipt_analyses_away`.execute(getDb())
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const res = await action({ request, params: {}, context: {} })
      expect(res.status).toBe(500)
      expect(await bodyOf(res)).toEqual({ step: 'camera', error: UNEXPECTED_ANALYSIS_ERROR, advice: { action: 'retry', title: RETRYABLE_TITLE, instead: null } })
      expect(errors).toHaveBeenCalled()
    } finally {
      errors.mockRestore()
      await sql`alter table receipt_analyses_away rename to receipt_analyses`.execute(getDb())
    }
  })
})

import { describe, expect, it } from 'vitest'
import { takeActionSlot } from '../app/rewards/daily-limit.server'
import { action as submitAction } from '../app/routes/api.receipts'
import { getDb } from '../app/utils/db.server'
import { noiseImage, todayUtc } from './utils/images'
import { useTestEnv } from './utils/env'
import { BASE_URL, bodyOf, jsonRequest, signInNewUser } from './utils/requests'

// Issue 29, point 4: POST /api/receipts with a photo analyses it, so it is refused at the daily
// limit and past the analysis rate limits before anything is read or stored, like the other routes
// that analyse.

const ctx = { context: {}, params: {} }
useTestEnv({ RATE_LIMIT_ANALYSIS_PER_USER_PER_HOUR: '2', RATE_LIMIT_ANALYSIS_PER_IP_PER_HOUR: '100', RATE_LIMITS_DISABLED: '' })

const fields = { category: 'ride_share', amount: '12.50', purchaseDate: todayUtc() }

function multipart(cookie: string, image: Buffer) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  form.set('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'receipt.png')
  return new Request(`${BASE_URL}/api/receipts`, { method: 'POST', body: form, headers: { Cookie: cookie } })
}

function dataUrl(cookie: string, image: Buffer) {
  return jsonRequest('/api/receipts', { ...fields, image: `data:image/png;base64,${image.toString('base64')}` }, { headers: { Cookie: cookie } })
}

const post = (request: Request) => submitAction({ ...ctx, request }).catch((r: Response) => r)

async function storedOf(userId: number) {
  const analyses = await getDb().selectFrom('receipt_analyses').select('id').where('user_id', '=', userId).execute()
  const receipts = await getDb().selectFrom('receipts').select('id').where('user_id', '=', userId).execute()
  return analyses.length + receipts.length
}

describe('POST /api/receipts with a photo', () => {
  it('at the daily limit: six large photos get 429 and nothing is analysed or stored', async () => {
    const { user, cookie } = await signInNewUser()
    for (let i = 0; i < 3; i++) await takeActionSlot(getDb(), { userId: user.id, kind: 'store_submission' })
    const image = await noiseImage(1600, 2400)
    for (let i = 0; i < 6; i++) {
      const res = await post(i % 2 ? dataUrl(cookie, image) : multipart(cookie, image))
      expect(res.status).toBe(429)
      expect(await bodyOf(res)).toEqual({ error: 'Daily action limit reached' })
    }
    expect(await storedOf(user.id)).toBe(0)
  })

  it('past the analysis rate limit: 429 with Retry-After, nothing analysed or stored', async () => {
    const { user, cookie } = await signInNewUser()
    // The two analyses of the hour: photos the readers cannot read, so nothing is accepted and the
    // daily limit stays untouched.
    for (let i = 0; i < 2; i++) expect((await post(multipart(cookie, await noiseImage()))).status).not.toBe(429)
    const before = await storedOf(user.id)
    for (let i = 0; i < 4; i++) {
      const res = await post(i % 2 ? dataUrl(cookie, await noiseImage()) : multipart(cookie, await noiseImage()))
      expect(res.status).toBe(429)
      expect(res.headers.get('Retry-After')).toMatch(/^\d+$/)
      expect((await bodyOf(res)).error).toMatch(/Too many requests/)
    }
    expect(await storedOf(user.id)).toBe(before)
  })

  it('a submission of an analysed photo (no image) does not count as an analysis', async () => {
    const { cookie } = await signInNewUser()
    for (let i = 0; i < 4; i++) {
      const res = await post(jsonRequest('/api/receipts', { ...fields, analysisId: 999_999_999 }, { headers: { Cookie: cookie } }))
      expect(res.status).toBe(404)
    }
  })
})

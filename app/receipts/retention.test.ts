import { describe, expect, it } from 'vitest'
import { signInNewUser } from '../../tests/utils/requests'
import { getDb } from '../utils/db.server'
import { purgeExpiredReceiptData } from './retention.server'

describe('purgeExpiredReceiptData', () => {
  it('drops receipt images after 90 days and stale analyses after a day, keeping the receipts', async () => {
    const { user } = await signInNewUser()
    const db = getDb()
    const old = new Date(Date.now() - 91 * 86_400_000).toISOString()
    const recent = new Date().toISOString()
    const base = {
      user_id: user.id, image_phash: null, image_mime: 'image/png', store_name: 'Uber', category: 'ride_share', amount_cents: 100,
      purchase_date: '2026-01-01', user_store_id: null, user_category: null, user_amount_cents: null, user_purchase_date: null,
      analysis_json: '{}', status: 'approved' as const, review_reasons_json: null, reject_reason: null, reward_milli: 0,
      reward_details_json: null, reviewed_by_user_id: null, reviewed_at: null,
    }
    const a = await db.insertInto('receipts').values({ ...base, image_hash: `old-${user.id}`, image: Buffer.from('x'), created_at: old }).returning('id').executeTakeFirstOrThrow()
    const b = await db.insertInto('receipts').values({ ...base, image_hash: `new-${user.id}`, image: Buffer.from('y'), created_at: recent }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('receipt_analyses').values({ user_id: user.id, image_hash: `stale-${user.id}`, analysis_json: '{}', image: null, image_mime: null, image_phash: null, created_at: old }).execute()

    await purgeExpiredReceiptData(db)
    const rows = await db.selectFrom('receipts').select(['id', 'image']).where('id', 'in', [a.id, b.id]).orderBy('id').execute()
    expect(rows.map((r) => r.image === null)).toEqual([true, false])
    expect(await db.selectFrom('receipt_analyses').select('id').where('image_hash', '=', `stale-${user.id}`).execute()).toEqual([])
  })
})

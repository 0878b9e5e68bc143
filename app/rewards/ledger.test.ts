import { describe, expect, it } from 'vitest'
import { signInNewUser } from '../../tests/utils/requests'
import { getDb } from '../utils/db.server'
import { creditReward, getBalanceMilli, recordEntry } from './ledger.server'

describe('ledger', () => {
  it('derives the balance from the user entries, excluding fund shares and failed entries', async () => {
    const { user } = await signInNewUser()
    const db = getDb()
    const base = { user_id: user.id, tx_hash: null, receipt_id: null, store_submission_id: null, referral_id: null }
    await recordEntry(db, { ...base, type: 'receipt_verification', amount_milli: 18_000, description: 'r', status: 'completed', idempotency_key: `t-${user.id}-1` })
    await recordEntry(db, { ...base, type: 'sustainability_app', amount_milli: 5_400, description: 'fund', status: 'completed', idempotency_key: `t-${user.id}-2` })
    await recordEntry(db, { ...base, type: 'token_claim', amount_milli: -3_000, description: 'claim', status: 'pending', idempotency_key: `t-${user.id}-3` })
    await recordEntry(db, { ...base, type: 'store_addition', amount_milli: 10_000, description: 'x', status: 'failed', idempotency_key: `t-${user.id}-4` })
    expect(await getBalanceMilli(db, user.id)).toBe(15_000)
  })

  it('writes an idempotency key once, also under concurrency', async () => {
    const { user } = await signInNewUser()
    const db = getDb()
    const entry = {
      user_id: user.id, tx_hash: null, receipt_id: null, store_submission_id: null, referral_id: null,
      type: 'achievement_reward' as const, amount_milli: 10_000, description: 'Achievement Reward: first_receipt',
      status: 'completed' as const, idempotency_key: `achievement:${user.id}:first_receipt`,
    }
    const results = await Promise.all(Array.from({ length: 10 }, () => recordEntry(db, entry)))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await getBalanceMilli(db, user.id)).toBe(10_000)
  })

  it('refuses non-integer amounts', async () => {
    const { user } = await signInNewUser()
    await expect(
      recordEntry(getDb(), {
        user_id: user.id, type: 'admin_action', amount_milli: 1.5, description: 'x', status: 'completed',
        idempotency_key: `frac-${user.id}`, tx_hash: null, receipt_id: null, store_submission_id: null, referral_id: null,
      }),
    ).rejects.toThrow(/integers/)
  })

  it('credits a reward and the app fund share once', async () => {
    const { user } = await signInNewUser()
    const db = getDb()
    const entry = {
      user_id: user.id, tx_hash: null, receipt_id: null, store_submission_id: null, referral_id: null,
      type: 'store_addition' as const, amount_milli: 10_000, description: 'Store addition approved: Corner Bikes',
      idempotency_key: `store_submission:test-${user.id}`,
    }
    const results = await Promise.all(Array.from({ length: 5 }, () => creditReward(db, entry, 'store submission #7')))
    expect(results.filter(Boolean)).toHaveLength(1)
    const rows = await db.selectFrom('transactions').select(['type', 'amount_milli', 'description', 'status', 'idempotency_key']).where('user_id', '=', user.id).orderBy('id').execute()
    expect(rows).toEqual([
      { type: 'store_addition', amount_milli: 10_000, description: 'Store addition approved: Corner Bikes', status: 'completed', idempotency_key: `store_submission:test-${user.id}` },
      { type: 'sustainability_app', amount_milli: 3_000, description: 'Sustainability fund: 30% of store submission #7', status: 'completed', idempotency_key: `store_submission:test-${user.id}:sustainability_app` },
    ])
    expect(await getBalanceMilli(db, user.id)).toBe(10_000)
  })
})

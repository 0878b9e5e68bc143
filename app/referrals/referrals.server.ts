import { createCookie } from '@remix-run/node'
import type { Kysely } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database } from '#db/schema'
import { creditReward } from '~/rewards/ledger.server'
import { REFERRAL_REWARD_MILLI } from '~/rewards/receipt-reward'
import { normalizeReferralCode } from './referrals'

/**
 * The invitation code from /join, kept until the first sign-in (30 days). Not signed: a code is
 * public, and it only ever attaches to a brand-new account (docs/decisions/040).
 */
export const referralCookie = createCookie('__ref', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  maxAge: 60 * 60 * 24 * 30,
})

export async function referralCookieHeader(request: Request, code: string): Promise<string> {
  return referralCookie.serialize(code, { secure: new URL(request.url).protocol === 'https:' })
}

export async function readReferralCode(request: Request): Promise<string | null> {
  const value: unknown = await referralCookie.parse(request.headers.get('Cookie'))
  return typeof value === 'string' ? normalizeReferralCode(value) : null
}

export async function getReferrerByCode(db: DB, code: string) {
  const normalized = normalizeReferralCode(code)
  if (!normalized) return null
  const row = await db.selectFrom('users').select(['id', 'referral_code']).where('referral_code', '=', normalized).executeTakeFirst()
  return row ? { id: row.id, code: row.referral_code } : null
}

export type AttachResult =
  | { ok: true; referralId: number; referrerUserId: number }
  | { ok: false; reason: 'unknown_code' | 'self_referral' | 'already_referred' }

/** Attach a referral code to a user once; no self-referral (unique referred_user_id: once ever). */
export async function attachReferral(db: DB, input: { userId: number; code: string; now?: Date }): Promise<AttachResult> {
  const now = input.now ?? new Date()
  const referrer = await getReferrerByCode(db, input.code)
  if (!referrer) return { ok: false, reason: 'unknown_code' }
  if (referrer.id === input.userId) return { ok: false, reason: 'self_referral' }
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('referrals')
      .values({ referrer_user_id: referrer.id, referred_user_id: input.userId, code: referrer.code, created_at: now.toISOString() })
      .onConflict((oc) => oc.column('referred_user_id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!inserted) return { ok: false, reason: 'already_referred' } as const
    await trx
      .updateTable('users')
      .set({ referred_by_user_id: referrer.id, updated_at: now.toISOString() })
      .where('id', '=', input.userId)
      .where('referred_by_user_id', 'is', null)
      .execute()
    return { ok: true, referralId: inserted.id, referrerUserId: referrer.id } as const
  })
}

/**
 * Called by sign-in for a user it has just created: attaches the code kept by /join. A bad or
 * missing code never blocks signing in.
 */
export async function attachReferralFromRequest(db: DB, request: Request, user: { id: number }, now = new Date()) {
  try {
    const code = await readReferralCode(request)
    if (!code) return null
    return await attachReferral(db, { userId: user.id, code, now })
  } catch (error) {
    console.error('[referrals] could not attach the referral code', error)
    return null
  }
}

/**
 * Pays the referrer 15 B3TR when the referred user's first receipt is accepted, once per referral
 * (key `referral:<referralId>`). Call it inside the transaction that accepts the receipt; a user
 * without a referral, or a referral already paid, writes nothing. When that receipt is a maturing
 * photo (`hold`), the referrer's reward matures with it and is reversed with it (issue 38).
 */
export async function rewardReferrerForFirstAcceptedReceipt(
  trx: Kysely<Database>,
  referredUserId: number,
  now: Date,
  hold: { receiptId: number; claimableAt: Date } | null = null,
): Promise<{ rewarded: false } | { rewarded: true; referrerUserId: number; amountMilli: number }> {
  const referral = await trx
    .selectFrom('referrals')
    .select(['id', 'referrer_user_id', 'rewarded_at'])
    .where('referred_user_id', '=', referredUserId)
    .executeTakeFirst()
  if (!referral || referral.rewarded_at !== null) return { rewarded: false }
  const at = now.toISOString()
  const base = {
    user_id: referral.referrer_user_id,
    referral_id: referral.id,
    receipt_id: null,
    store_submission_id: null,
    tx_hash: null,
    created_at: at,
    ...(hold ? { claimable_at: hold.claimableAt.toISOString(), hold_receipt_id: hold.receiptId } : {}),
  }
  const credited = await creditReward(
    trx as DB,
    {
      ...base,
      type: 'referral_reward',
      amount_milli: REFERRAL_REWARD_MILLI,
      description: 'Referral reward: your friend scanned their first receipt',
      idempotency_key: `referral:${referral.id}`,
    },
    `referral #${referral.id}`,
  )
  if (!credited) return { rewarded: false }
  await trx.updateTable('referrals').set({ rewarded_at: at }).where('id', '=', referral.id).where('rewarded_at', 'is', null).execute()
  return { rewarded: true, referrerUserId: referral.referrer_user_id, amountMilli: REFERRAL_REWARD_MILLI }
}

export async function getReferralStats(db: DB, userId: number) {
  const row = await db
    .selectFrom('referrals')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.count<number>('rewarded_at').as('rewarded')])
    .where('referrer_user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), rewarded: Number(row.rewarded) }
}

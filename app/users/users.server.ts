import { randomCode } from '~/utils/random.server'
import type { DB } from '#db/db.server'
import type { UserRow } from '#db/schema'
import { getInReview } from '~/receipts/reward-preview.server'
import { getBalances } from '~/rewards/ledger.server'
import { effectiveStreak } from '~/rewards/streaks'
import { utcDay } from '~/utils/calendar'

export type User = {
  id: number
  walletAddress: string
  displayName: string | null
  referralCode: string
  currentStreak: number
  bestStreak: number
  lastStreakDay: string | null
  notificationsEnabled: boolean
  biometricEnabled: boolean
  /** When review and payout notices were last dismissed; null: never (issue 24). */
  noticesSeenAt: string | null
  createdAt: string
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    walletAddress: row.wallet_address,
    displayName: row.display_name,
    referralCode: row.referral_code,
    currentStreak: row.current_streak,
    bestStreak: row.best_streak,
    lastStreakDay: row.last_streak_day,
    notificationsEnabled: row.notifications_enabled === 1,
    biometricEnabled: row.biometric_enabled === 1,
    noticesSeenAt: row.notices_seen_at ?? null,
    createdAt: row.created_at,
  }
}

export async function getUserById(db: DB, id: number): Promise<User | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  return row ? toUser(row) : null
}

export async function getUserByWallet(db: DB, walletAddress: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('wallet_address', '=', walletAddress.toLowerCase())
    .executeTakeFirst()
  return row ? toUser(row) : null
}

function newReferralCode() {
  // 8 characters from an alphabet without look-alikes (0/O, 1/I).
  return randomCode(8, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')
}

/** Find the wallet's user or create it; safe when two first sign-ins race (unique wallet address). */
export async function findOrCreateUser(
  db: DB,
  walletAddress: string,
  now = new Date(),
): Promise<{ user: User; created: boolean }> {
  const address = walletAddress.toLowerCase()
  const existing = await getUserByWallet(db, address)
  if (existing) return { user: existing, created: false }
  const ts = now.toISOString()
  const inserted = await db
    .insertInto('users')
    .values({ wallet_address: address, referral_code: newReferralCode(), created_at: ts, updated_at: ts })
    .onConflict((oc) => oc.column('wallet_address').doNothing())
    .returningAll()
    .executeTakeFirst()
  if (inserted) return { user: toUser(inserted), created: true }
  const raced = await getUserByWallet(db, address)
  if (!raced) throw new Error('User could not be created')
  return { user: raced, created: false }
}

export async function updateUserSettings(
  db: DB,
  userId: number,
  settings: { notificationsEnabled?: boolean; biometricEnabled?: boolean },
  now = new Date(),
) {
  await db
    .updateTable('users')
    .set({
      ...(settings.notificationsEnabled === undefined ? {} : { notifications_enabled: settings.notificationsEnabled ? 1 : 0 }),
      ...(settings.biometricEnabled === undefined ? {} : { biometric_enabled: settings.biometricEnabled ? 1 : 0 }),
      updated_at: now.toISOString(),
    })
    .where('id', '=', userId)
    .execute()
}

/** The streak to show: a streak whose last day is before yesterday is over (decision 007 §15). */
export function displayStreak(user: Pick<User, 'currentStreak' | 'lastStreakDay'>, now = new Date()) {
  return effectiveStreak({ lastActiveDay: user.lastStreakDay, currentStreak: user.currentStreak, today: utcDay(now) })
}

/**
 * The API shape of spec 1 §3 (tokenBalance in B3TR, exact to 0.001). tokenBalance is what can be
 * claimed now; pendingBalance is credited and still maturing (issue 38).
 */
export async function toPublicUser(db: DB, user: User) {
  const [balances, inReview] = await Promise.all([getBalances(db, user.id), getInReview(db, user.id)])
  return {
    id: user.id,
    walletAddress: user.walletAddress,
    /** Claimable now. */
    tokenBalance: balances.claimableMilli / 1000,
    /** Credited and still maturing (issue 38). */
    pendingBalance: balances.pendingMilli / 1000,
    /** What receipts waiting for staff will credit if approved (issue 40). */
    inReviewBalance: inReview.milli / 1000,
    currentStreak: displayStreak(user),
    streak: displayStreak(user),
  }
}

// Data access for the engagement screens: reads the ledger, the approved receipts and the streak,
// and feeds them to the pure rules (achievements.ts, badges.ts, impact.ts, history.ts).
import { preparedQuery, type DB } from '#db/db.server'
import { creditReward } from '~/rewards/ledger.server'
import { listUserTransactions } from '~/users/history.server'
import { MILLI_PER_B3TR } from '~/rewards/money'
import { sumMilli } from '~/rewards/ledger-types'
import { effectiveStreak } from '~/rewards/streaks'
import { utcDay } from '~/utils/calendar'
import {
  ACHIEVEMENT_KEYS,
  achievementRewardKey,
  achievementRewardsDue,
  countReceiptsInMonth,
  earnedMilliFromReceiptsAndStores,
  evaluateAchievements,
  latestUnlockedAchievement,
  unlockedAchievements,
  parseAchievementKey,
  type AchievementInput,
  type AchievementKey,
} from './achievements'
import { evaluateBadges, nextBadgeProgress, type BadgeInput } from './badges'
import { attachBadgeEvidence, isRewardHistoryEntry, toRewardHistoryRow, type LedgerRowLike } from './history'
import {
  achievementsImpact,
  computeUserStats,
  earningsPerDay,
  homeImpact,
  periodBounds,
  REWARD_PERIOD_DAYS,
  rewardsEnvironmentalImpact,
  type RewardPeriod,
} from './impact'

export interface LedgerRow extends LedgerRowLike {
  receiptId: number | null
}

interface ApprovedReceipt {
  id: number
  storeName: string | null
  category: string | null
  purchaseDate: string | null
  acceptedAt: string
  /** When it was sent: the day it counts for in the streak, approved at once or by staff (issue 40). */
  submittedAt: string
}

/** The user's own entries (fund shares are the app's), oldest first. */
function listLedger(db: DB, userId: number): Promise<LedgerRow[]> {
  return listUserTransactions(db, userId, { order: 'oldest' })
}

// Prepared once (the most visited page reads it): a user's approved receipts, without their analyses.
const approvedReceiptRows = preparedQuery((db: DB, userId: number) =>
  db
    .selectFrom('receipts')
    .select(['id', 'store_name', 'category', 'purchase_date', 'user_purchase_date', 'created_at', 'reviewed_at'])
    .where('user_id', '=', userId)
    .where('status', '=', 'approved')
    .orderBy('id', 'asc'),
)

async function listApprovedReceipts(db: DB, userId: number): Promise<ApprovedReceipt[]> {
  const rows = await approvedReceiptRows(db, userId)
  return rows.map((r) => ({
    id: r.id,
    storeName: r.store_name,
    category: r.category,
    purchaseDate: r.purchase_date ?? r.user_purchase_date,
    acceptedAt: r.reviewed_at ?? r.created_at,
    submittedAt: r.created_at,
  }))
}

const streakRow = preparedQuery((db: DB, userId: number) =>
  db.selectFrom('users').select(['current_streak', 'best_streak', 'last_streak_day']).where('id', '=', userId),
)

async function getStreakState(db: DB, userId: number) {
  const [row] = await streakRow(db, userId)
  if (!row) throw new Error(`No user ${userId}`)
  return { currentStreak: row.current_streak, bestStreak: row.best_streak, lastStreakDay: row.last_streak_day }
}

export interface EngagementFacts extends AchievementInput {
  /** All counted user-earning entries: receipts, stores, achievements, referrals. */
  earnedMilli: number
  /** The streak as shown (0 after a missed day). */
  currentStreak: number
  bestStreak: number
  storedStreak: number
  lastStreakDay: string | null
}

/** What the achievements are decided from: the ledger and the accepted receipts. */
async function loadAchievementData(db: DB, userId: number, now: Date) {
  const [ledger, receipts] = await Promise.all([listLedger(db, userId), listApprovedReceipts(db, userId)])
  const counted = ledger.filter(isRewardHistoryEntry)
  const facts: AchievementInput & { earnedMilli: number } = {
    receiptCount: receipts.length,
    storeAdditionCount: counted.filter((e) => e.type === 'store_addition').length,
    receiptsThisMonth: countReceiptsInMonth(
      receipts.flatMap((r) => (r.purchaseDate ? [r.purchaseDate] : [])),
      now,
    ),
    earnedMilliFromReceiptsAndStores: earnedMilliFromReceiptsAndStores(ledger),
    earnedMilli: sumMilli(ledger),
  }
  return { facts, ledger, receipts }
}

async function loadEngagementData(db: DB, userId: number, now: Date) {
  const [{ facts: counts, ledger, receipts }, streak] = await Promise.all([loadAchievementData(db, userId, now), getStreakState(db, userId)])
  const facts: EngagementFacts = {
    ...counts,
    currentStreak: effectiveStreak({ lastActiveDay: streak.lastStreakDay, currentStreak: streak.currentStreak, today: utcDay(now) }),
    bestStreak: streak.bestStreak,
    storedStreak: streak.currentStreak,
    lastStreakDay: streak.lastStreakDay,
  }
  return { facts, ledger, receipts }
}

function badgeInput(facts: EngagementFacts): BadgeInput {
  return {
    receiptCount: facts.receiptCount,
    storeAdditionCount: facts.storeAdditionCount,
    earnedMilli: facts.earnedMilli,
    currentStreak: facts.currentStreak,
    bestStreak: Math.max(facts.bestStreak, facts.storedStreak),
  }
}

/** Achievements, badges with the entry that earned them, and the Impact Explorer summary. */
export async function getEngagementOverview(db: DB, userId: number, now = new Date()) {
  const [{ facts, ledger, receipts }, sent] = await Promise.all([loadEngagementData(db, userId, now), countReceiptsSent(db, userId)])
  const achievements = evaluateAchievements(facts)
  const rewardEntryByReceipt = new Map(
    ledger.filter((e) => e.type === 'receipt_verification' && e.receiptId !== null).map((e) => [e.receiptId, e]),
  )
  const evidenceOf = (r: ApprovedReceipt) => {
    const entry = rewardEntryByReceipt.get(r.id)
    return { earnedAt: entry?.createdAt ?? r.acceptedAt, txHash: entry?.txHash ?? null }
  }
  const receiptEvidence = receipts.map(evidenceOf).sort((a, b) => (a.earnedAt < b.earnedAt ? -1 : a.earnedAt > b.earnedAt ? 1 : 0))
  const badges = attachBadgeEvidence(evaluateBadges(badgeInput(facts)), {
    receipts: receiptEvidence,
    entries: ledger,
    // Every accepted receipt counts for the day it was sent (issue 40), as the stored streak does.
    streakReceipts: receipts.map((r) => ({ ...evidenceOf(r), earnedAt: r.submittedAt })),
    streak: { current: facts.storedStreak, lastDay: facts.lastStreakDay },
  })
  return {
    facts,
    achievements,
    unlockedCount: achievements.filter((a) => a.unlocked).length,
    ecoImpact: achievementsImpact(facts.receiptCount),
    badges,
    badgesEarned: badges.filter((b) => b.earned).length,
    nextBadges: nextBadgeProgress(badgeInput(facts)),
    summary: {
      // "Scanned" counts every receipt sent, whatever its status (issue 40); the impact counts the verified ones.
      receiptsScanned: sent,
      receiptsVerified: facts.receiptCount,
      ...homeImpact(facts.receiptCount),
      earnedMilli: facts.earnedMilli,
    },
  }
}

/** Every receipt the user sent: approved, waiting or rejected. */
async function countReceiptsSent(db: DB, userId: number): Promise<number> {
  const row = await db
    .selectFrom('receipts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Each achievement and whether it is unlocked, without the cards' texts. */
function unlockList(facts: AchievementInput) {
  const unlocked = unlockedAchievements(facts)
  return ACHIEVEMENT_KEYS.map((key) => ({ key, unlocked: unlocked.has(key) }))
}

/** Home's "Recent Achievements": the latest unlocked achievement and the reward paid for it. */
export async function getLatestAchievement(db: DB, userId: number, now = new Date()) {
  const { facts, ledger, receipts } = await loadAchievementData(db, userId, now)
  return latestUnlockedAchievement(unlockList(facts), { receipts, entries: ledger }, now)
}

/**
 * Records every achievement reward that is due and not yet paid, once: the idempotency key
 * `achievement:<userId>:<key>` is the one the receipts code uses for first_receipt, so whichever
 * writes first wins and the other writes nothing. Each reward written also gets its 30 % app-fund
 * share (decision 007 §7). Run it inside the caller's transaction; returns the keys credited now.
 */
export async function creditAchievementRewards(trx: DB, userId: number, now = new Date()): Promise<AchievementKey[]> {
  const { facts, ledger } = await loadAchievementData(trx, userId, now)
  const paid = ledger
    .filter((e) => e.type === 'achievement_reward')
    .flatMap((e) => {
      const key = parseAchievementKey(e.description)
      return key ? [key] : []
    })
  const credited: AchievementKey[] = []
  for (const due of achievementRewardsDue(unlockList(facts), paid)) {
    const base = { user_id: userId, tx_hash: null, receipt_id: null, store_submission_id: null, referral_id: null, created_at: now.toISOString() }
    const written = await creditReward(
      trx,
      {
        ...base,
        type: 'achievement_reward',
        amount_milli: due.amountMilli,
        description: due.description,
        idempotency_key: achievementRewardKey(userId, due.key),
      },
      due.description,
    )
    if (written) credited.push(due.key)
  }
  return credited
}

/** User stats of spec 2 §3, amounts in milli-B3TR. */
export async function getUserStats(db: DB, userId: number, now = new Date(), period: RewardPeriod | 'all' = 'all') {
  const { facts, ledger } = await loadEngagementData(db, userId, now)
  return computeUserStats({
    entries: ledger,
    now,
    period,
    lastActiveDay: facts.lastStreakDay,
    currentStreak: facts.storedStreak,
  })
}

/** The stats as the API answers them (B3TR numbers, grams, percent). */
export function statsToApi(stats: Awaited<ReturnType<typeof getUserStats>>) {
  return {
    totalEarned: stats.totalEarnedMilli / MILLI_PER_B3TR,
    totalTransactions: stats.totalTransactions,
    totalCO2Saved: stats.totalCO2Saved,
    currentStreak: stats.currentStreak,
    weeklyGoal: stats.weeklyGoalMilli / MILLI_PER_B3TR,
    weeklyProgress: stats.weeklyProgress,
  }
}

/** Reward-history rows (spec 2 §3) of the period, newest first. */
export async function getRewardHistory(db: DB, userId: number, period: RewardPeriod, now = new Date()) {
  const [ledger, receipts] = await Promise.all([listLedger(db, userId), listReceiptFacts(db, userId)])
  return rewardRows(ledger, receipts, period, now)
}

async function listReceiptFacts(db: DB, userId: number) {
  const rows = await db
    .selectFrom('receipts')
    .select(['id', 'store_name', 'category', 'analysis_json'])
    .where('user_id', '=', userId)
    .execute()
  return new Map(rows.map((r) => [r.id, { storeName: r.store_name, category: r.category, analysisJson: r.analysis_json }]))
}

function rewardRows(ledger: LedgerRow[], receipts: Awaited<ReturnType<typeof listReceiptFacts>>, period: RewardPeriod, now: Date) {
  const { startMs, endMs } = periodBounds(now, REWARD_PERIOD_DAYS[period])
  return ledger
    .filter((e) => {
      const t = Date.parse(e.createdAt)
      return isRewardHistoryEntry(e) && t >= startMs && t < endMs
    })
    .reverse()
    .map((e) => toRewardHistoryRow(e, e.receiptId === null ? null : receipts.get(e.receiptId) ?? null))
}

/** Everything the /rewards page shows for one period. */
export async function getRewardsPage(db: DB, userId: number, period: RewardPeriod, now = new Date()) {
  const [{ facts, ledger }, receipts] = await Promise.all([loadEngagementData(db, userId, now), listReceiptFacts(db, userId)])
  const stats = computeUserStats({ entries: ledger, now, period, lastActiveDay: facts.lastStreakDay, currentStreak: facts.storedStreak })
  return {
    period,
    allTimeEarnedMilli: facts.earnedMilli,
    stats,
    rows: rewardRows(ledger, receipts, period, now),
    perDay: earningsPerDay(ledger, REWARD_PERIOD_DAYS[period], now),
    impact: rewardsEnvironmentalImpact(stats.totalCO2Saved),
  }
}

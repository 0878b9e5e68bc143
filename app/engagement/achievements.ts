// The six achievements of spec 1 §3/§4: definitions, unlock rules, progress and the rewards some
// of them pay. They count verified receipts and say so (issue 40); no badge repeats their rules
// (decision 113). Pure: counts in, cards out.
import { MILLI_PER_B3TR, formatB3tr } from '~/rewards/money'
import { isCountedEntry, type LedgerEntryLike, sumMilli } from '~/rewards/ledger-types'
import { FIRST_RECEIPT_BONUS_MILLI, FIRST_STORE_BONUS_MILLI } from '~/rewards/receipt-reward'
import { parseUtcDay, utcDay } from '~/utils/calendar'
import { humanizeKey, plural } from '~/utils/text'
import { CO2_GRAMS_PER_RECEIPT, co2GramsForReceipts, formatCo2Grams, formatTenth, treeEquivalents } from './impact'

export const ACHIEVEMENT_KEYS = [
  'first_receipt',
  'five_receipts',
  'ten_receipts',
  'first_store',
  'monthly_record',
  'token_milestone',
] as const

export type AchievementKey = (typeof ACHIEVEMENT_KEYS)[number]
export type AchievementCategory = 'shopping' | 'community' | 'milestones'

export interface AchievementDefinition {
  key: AchievementKey
  title: string
  description: string
  /** Icon key; the UI maps it to an icon component. */
  icon: string
  category: AchievementCategory
  /** In the unit of `current`: receipts, store additions, or whole B3TR for token_milestone. */
  target: number
  /** Toast text when it unlocks. */
  unlockMessage: string
}

export const ACHIEVEMENTS: Record<AchievementKey, AchievementDefinition> = {
  first_receipt: {
    key: 'first_receipt',
    title: 'First Receipt',
    description: 'Get your first sustainable transport receipt verified.',
    icon: 'receipt',
    category: 'shopping',
    target: 1,
    unlockMessage: `Your first receipt is verified! +${formatB3tr(FIRST_RECEIPT_BONUS_MILLI)} B3TR rewarded.`,
  },
  five_receipts: {
    key: 'five_receipts',
    title: 'Eco Commuter',
    description: 'Get 5 sustainable transport receipts verified.',
    icon: 'leaf',
    category: 'shopping',
    target: 5,
    unlockMessage: '5 of your sustainable transport receipts are verified!',
  },
  ten_receipts: {
    key: 'ten_receipts',
    title: 'Green Traveler',
    description: 'Get 10 sustainable transport receipts verified.',
    icon: 'trophy',
    category: 'shopping',
    target: 10,
    unlockMessage: '10 of your sustainable transport receipts are verified!',
  },
  first_store: {
    key: 'first_store',
    title: 'Store Pioneer',
    description: 'Get your first sustainable store added to the map.',
    icon: 'store',
    category: 'community',
    target: 1,
    unlockMessage: `Your first store was added! +${formatB3tr(FIRST_STORE_BONUS_MILLI)} B3TR rewarded.`,
  },
  monthly_record: {
    key: 'monthly_record',
    title: 'Monthly Regular',
    description: 'Get 3 receipts dated this month verified.',
    icon: 'calendar',
    category: 'milestones',
    target: 3,
    unlockMessage: '3 of your receipts dated this month are verified!',
  },
  token_milestone: {
    key: 'token_milestone',
    title: 'Token Milestone',
    description: 'Earn 100 B3TR from receipts and store additions.',
    icon: 'coins',
    category: 'milestones',
    target: 100,
    unlockMessage: "You've earned 100 B3TR from receipts and store additions!",
  },
}

/**
 * Achievement rewards actually paid (as achievement_reward ledger entries). The spec names two:
 * "+10 B3TR" for the first receipt (spec 1 §4, §9) and the "+3" first-store bonus (§9). It names
 * none for the others, so they pay nothing.
 */
export const ACHIEVEMENT_REWARD_MILLI: Record<AchievementKey, number> = {
  first_receipt: FIRST_RECEIPT_BONUS_MILLI,
  five_receipts: 0,
  ten_receipts: 0,
  first_store: FIRST_STORE_BONUS_MILLI,
  monthly_record: 0,
  token_milestone: 0,
}

export interface AchievementInput {
  /** Accepted receipts (the user's receipt list length). */
  receiptCount: number
  /** Counted store_addition ledger entries. */
  storeAdditionCount: number
  /** Receipts whose purchaseDate falls in the current UTC month (see countReceiptsInMonth). */
  receiptsThisMonth: number
  /** Sum of counted receipt_verification + store_addition entries (see earnedMilliFromReceiptsAndStores). */
  earnedMilliFromReceiptsAndStores: number
}

export interface AchievementStat {
  label: string
  value: string
}

export interface EvaluatedAchievement extends AchievementDefinition {
  unlocked: boolean
  /** Whole percent, rounded down, 0..100; 100 only when unlocked. */
  progress: number
  current: number
  rewardMilli: number
  stats: AchievementStat[]
  impactMessage: string
  shareText: string
}

function percent(current: number, target: number): number {
  return Math.min(100, Math.max(0, Math.floor((current * 100) / target)))
}

export function evaluateAchievements(input: AchievementInput): EvaluatedAchievement[] {
  const receipts = Math.max(0, input.receiptCount)
  const stores = Math.max(0, input.storeAdditionCount)
  const thisMonth = Math.max(0, input.receiptsThisMonth)
  const earnedMilli = Math.max(0, input.earnedMilliFromReceiptsAndStores)
  const co2Grams = co2GramsForReceipts(receipts)
  const receiptStats: AchievementStat[] = [
    { label: 'Receipts verified', value: String(receipts) },
    { label: 'CO2 prevented', value: formatCo2Grams(co2Grams) },
    { label: 'Tree equivalents', value: formatTenth(treeEquivalents(co2Grams)) },
  ]
  const receiptImpact =
    receipts === 0
      ? `Every sustainable trip you submit prevents an estimated ${formatCo2Grams(CO2_GRAMS_PER_RECEIPT)} of CO2.`
      : `Your ${plural(receipts, 'sustainable trip', 'sustainable trips')} prevented an estimated ${formatCo2Grams(co2Grams)} of CO2.`

  const tokenTargetMilli = ACHIEVEMENTS.token_milestone.target * MILLI_PER_B3TR
  const facts: Record<AchievementKey, Facts> = {
    first_receipt: receiptFacts(receipts, ACHIEVEMENTS.first_receipt.target, receiptStats, receiptImpact),
    five_receipts: receiptFacts(receipts, ACHIEVEMENTS.five_receipts.target, receiptStats, receiptImpact),
    ten_receipts: receiptFacts(receipts, ACHIEVEMENTS.ten_receipts.target, receiptStats, receiptImpact),
    first_store: {
      current: stores,
      progress: percent(stores, ACHIEVEMENTS.first_store.target),
      stats: [{ label: 'Stores added', value: String(stores) }],
      impact:
        stores === 0
          ? 'Adding a sustainable store helps others find greener options.'
          : `You've helped others find ${plural(stores, 'sustainable store', 'sustainable stores')}.`,
    },
    monthly_record: {
      current: thisMonth,
      progress: percent(thisMonth, ACHIEVEMENTS.monthly_record.target),
      stats: [
        { label: 'Receipts this month', value: String(thisMonth) },
        { label: 'Monthly target', value: String(ACHIEVEMENTS.monthly_record.target) },
      ],
      impact: `${plural(thisMonth, 'sustainable trip', 'sustainable trips')} this month, about ${formatCo2Grams(co2GramsForReceipts(thisMonth))} of CO2 prevented.`,
    },
    token_milestone: {
      current: earnedMilli / MILLI_PER_B3TR,
      progress: percent(earnedMilli, tokenTargetMilli),
      stats: [
        { label: 'B3TR earned', value: formatB3tr(earnedMilli) },
        { label: 'Target', value: `${ACHIEVEMENTS.token_milestone.target} B3TR` },
      ],
      impact: `You've earned ${formatB3tr(earnedMilli)} B3TR from receipts and store additions.`,
    },
  }

  const unlocked = unlockedAchievements(input)
  return ACHIEVEMENT_KEYS.map((key) => {
    const definition = ACHIEVEMENTS[key]
    const f = facts[key]
    return {
      ...definition,
      unlocked: unlocked.has(key),
      progress: f.progress,
      current: f.current,
      rewardMilli: ACHIEVEMENT_REWARD_MILLI[key],
      stats: f.stats,
      impactMessage: f.impact,
      shareText: `I unlocked the "${definition.title}" achievement on ReCircle! ${f.impact} #ReCircle #B3TR`,
    }
  })
}

interface Facts {
  current: number
  progress: number
  stats: AchievementStat[]
  impact: string
}

function receiptFacts(receipts: number, target: number, stats: AchievementStat[], impact: string): Facts {
  return { current: receipts, progress: percent(receipts, target), stats, impact }
}

/**
 * The unlock rules alone: which achievements the counts reach. evaluateAchievements adds each
 * card's progress, stats and texts; Home needs only this (it runs on every view, issue 32).
 */
export function unlockedAchievements(input: AchievementInput): Set<AchievementKey> {
  const reached: Record<AchievementKey, boolean> = {
    first_receipt: input.receiptCount >= ACHIEVEMENTS.first_receipt.target,
    five_receipts: input.receiptCount >= ACHIEVEMENTS.five_receipts.target,
    ten_receipts: input.receiptCount >= ACHIEVEMENTS.ten_receipts.target,
    first_store: input.storeAdditionCount >= ACHIEVEMENTS.first_store.target,
    monthly_record: input.receiptsThisMonth >= ACHIEVEMENTS.monthly_record.target,
    token_milestone: input.earnedMilliFromReceiptsAndStores >= ACHIEVEMENTS.token_milestone.target * MILLI_PER_B3TR,
  }
  return new Set(ACHIEVEMENT_KEYS.filter((key) => reached[key]))
}

// ---------------------------------------------------------------------------------------------
// Inputs from raw data

/** Receipts whose purchase date ('YYYY-MM-DD') is in the UTC month of `now`. Malformed dates don't count. */
export function countReceiptsInMonth(purchaseDates: readonly string[], now: Date): number {
  const month = utcDay(now).slice(0, 7)
  return purchaseDates.filter((d) => parseUtcDay(d) !== null && d.startsWith(`${month}-`)).length
}

export function earnedMilliFromReceiptsAndStores(entries: readonly LedgerEntryLike[]): number {
  return sumMilli(entries, ['receipt_verification', 'store_addition'])
}

// ---------------------------------------------------------------------------------------------
// Reward ledger descriptions

export function achievementRewardDescription(key: AchievementKey): string {
  return `Achievement Reward: ${key}`
}

/** The ledger idempotency key of an achievement reward: one per user and achievement (decision 003). */
export function achievementRewardKey(userId: number, key: AchievementKey): string {
  return `achievement:${userId}:${key}`
}

const KEY_PATTERN = new RegExp(`(?:^|[^a-z0-9_])(${ACHIEVEMENT_KEYS.join('|')})(?![a-z0-9_])`)

/**
 * The achievement key in an achievement_reward description, with or without the
 * 'Achievement Reward: ' prefix (spec 1 §3). Legacy keys (music_store, movie_store) and unknown
 * text give null.
 */
export function parseAchievementKey(description: string): AchievementKey | null {
  const match = KEY_PATTERN.exec(description)
  return match ? (match[1] as AchievementKey) : null
}

/**
 * What people read for an achievement reward's key or description: the achievement's title
 * ('first_store' -> 'Store Pioneer'); a legacy or unknown key in words ('music_store' -> 'Music store').
 */
export function achievementRewardTitle(description: string): string {
  const known = parseAchievementKey(description)
  if (known) return ACHIEVEMENTS[known].title
  return humanizeKey(description.replace(/^Achievement Reward:\s*/, ''))
}

/**
 * Rewards still to record: unlocked achievements that pay something and have no
 * achievement_reward entry yet (`paidKeys`, e.g. parsed from existing descriptions).
 */
export function achievementRewardsDue(
  achievements: ReadonlyArray<{ key: AchievementKey; unlocked: boolean }>,
  paidKeys: Iterable<string>,
): Array<{ key: AchievementKey; amountMilli: number; description: string }> {
  const paid = new Set(paidKeys)
  return achievements
    .filter((a) => a.unlocked && ACHIEVEMENT_REWARD_MILLI[a.key] > 0 && !paid.has(a.key))
    .map((a) => ({
      key: a.key,
      amountMilli: ACHIEVEMENT_REWARD_MILLI[a.key],
      description: achievementRewardDescription(a.key),
    }))
}

// ---------------------------------------------------------------------------------------------
// When each achievement unlocked (Home's "Recent Achievements", issue 24)

export interface UnlockEvidence {
  /** Accepted receipts: when accepted (ISO) and their purchase date. */
  receipts: ReadonlyArray<{ acceptedAt: string; purchaseDate: string | null }>
  /** The user's ledger entries (any order): counted receipt, store and achievement entries are read. */
  entries: ReadonlyArray<LedgerEntryLike & { description: string }>
}

function iso(value: string | Date): string {
  return typeof value === 'string' ? value : value.toISOString()
}

/**
 * The instant an unlocked achievement was reached, from the data that unlocked it: the Nth accepted
 * receipt, the first store addition, the third receipt dated this month, the entry that took
 * receipts and stores to 100 B3TR. null when the evidence does not show it (or it is locked).
 */
export function achievementUnlockedAt(key: AchievementKey, evidence: UnlockEvidence, now: Date): string | null {
  const accepted = evidence.receipts.map((r) => r.acceptedAt).sort()
  const nth = (list: readonly string[], n: number) => list[n - 1] ?? null
  switch (key) {
    case 'first_receipt':
    case 'five_receipts':
    case 'ten_receipts':
      return nth(accepted, ACHIEVEMENTS[key].target)
    case 'first_store': {
      const stores = evidence.entries.filter((e) => e.type === 'store_addition' && isCountedEntry(e)).map((e) => iso(e.createdAt)).sort()
      return nth(stores, 1)
    }
    case 'monthly_record': {
      const month = utcDay(now).slice(0, 7)
      const inMonth = evidence.receipts
        .filter((r) => r.purchaseDate !== null && parseUtcDay(r.purchaseDate) !== null && r.purchaseDate.startsWith(`${month}-`))
        .map((r) => r.acceptedAt)
        .sort()
      return nth(inMonth, ACHIEVEMENTS.monthly_record.target)
    }
    case 'token_milestone': {
      const earning = evidence.entries
        .filter((e) => (e.type === 'receipt_verification' || e.type === 'store_addition') && isCountedEntry(e))
        .map((e) => ({ at: iso(e.createdAt), milli: e.amountMilli }))
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
      let total = 0
      for (const e of earning) {
        total += e.milli
        if (total >= ACHIEVEMENTS.token_milestone.target * MILLI_PER_B3TR) return e.at
      }
      return null
    }
  }
}

export interface LatestAchievement {
  key: AchievementKey
  title: string
  unlockedAt: string | null
  /** The reward its ledger entry paid, or null when it pays none (or it is not recorded). */
  rewardMilli: number | null
}

/**
 * The most recently unlocked achievement, with the reward paid for it where there is one. Ties
 * and achievements without a date go to the later one in the list order (the harder one).
 */
export function latestUnlockedAchievement(
  achievements: ReadonlyArray<{ key: AchievementKey; unlocked: boolean }>,
  evidence: UnlockEvidence,
  now: Date,
): LatestAchievement | null {
  let best: LatestAchievement | null = null
  for (const a of achievements) {
    if (!a.unlocked) continue
    const unlockedAt = achievementUnlockedAt(a.key, evidence, now)
    if (best && (unlockedAt ?? '') < (best.unlockedAt ?? '')) continue
    const paid = evidence.entries.find((e) => e.type === 'achievement_reward' && isCountedEntry(e) && parseAchievementKey(e.description) === a.key)
    best = { key: a.key, title: ACHIEVEMENTS[a.key].title, unlockedAt, rewardMilli: paid ? paid.amountMilli : null }
  }
  return best
}


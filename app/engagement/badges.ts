// The badges of spec 1 §3 that no achievement already counts (decision 113): the spec's First Steps,
// Eco Warrior, Green Champion and Store Scout had the rules of the First Receipt, Eco Commuter,
// Green Traveler and Store Pioneer achievements, so they live there alone. Badge progress is derived
// from counts; nothing is stored, so dropping a badge takes nothing from anyone.
import { MILLI_PER_B3TR } from '~/rewards/money'
import { CO2_GRAMS_PER_RECEIPT, co2GramsForReceipts } from './impact'

export const BADGE_IDS = [
  'co2_saver',
  'store_contributor',
  'token_milestone_10',
  'token_milestone_50',
  'streak_3',
  'streak_7',
] as const

export type BadgeId = (typeof BADGE_IDS)[number]
export type BadgeRarity = 'common' | 'rare' | 'epic' | 'legendary'
export type BadgeCategory = 'sustainability' | 'community' | 'milestones' | 'streak'
/** What a badge counts; `current` and `target` are in this unit. */
export type BadgeMetric = 'receipts' | 'co2Kg' | 'storeAdditions' | 'tokens' | 'streakDays'

export interface BadgeDefinition {
  id: BadgeId
  name: string
  description: string
  /** Icon key; the UI maps it to an icon component. */
  icon: string
  category: BadgeCategory
  rarity: BadgeRarity
  metric: BadgeMetric
  target: number
}

/** Community Builder: the spec gives no threshold. 5 store additions, five times the Store Pioneer achievement. */
export const STORE_CONTRIBUTOR_THRESHOLD = 5

export const BADGES: Record<BadgeId, BadgeDefinition> = {
  co2_saver: {
    id: 'co2_saver',
    name: 'Carbon Reducer',
    description: `Save an estimated 10 kg of CO2 (${CO2_GRAMS_PER_RECEIPT / 1000} kg per sustainable trip).`,
    icon: 'cloud',
    category: 'sustainability',
    rarity: 'rare',
    metric: 'co2Kg',
    target: 10,
  },
  store_contributor: {
    id: 'store_contributor',
    name: 'Community Builder',
    description: `Get ${STORE_CONTRIBUTOR_THRESHOLD} sustainable stores added.`,
    icon: 'users',
    category: 'community',
    rarity: 'epic',
    metric: 'storeAdditions',
    target: STORE_CONTRIBUTOR_THRESHOLD,
  },
  token_milestone_10: {
    id: 'token_milestone_10',
    name: 'Token Collector',
    description: 'Earn 10 B3TR.',
    icon: 'coins',
    category: 'milestones',
    rarity: 'common',
    metric: 'tokens',
    target: 10,
  },
  token_milestone_50: {
    id: 'token_milestone_50',
    name: 'Token Master',
    description: 'Earn 50 B3TR.',
    icon: 'gem',
    category: 'milestones',
    rarity: 'rare',
    metric: 'tokens',
    target: 50,
  },
  streak_3: {
    id: 'streak_3',
    name: 'Consistent',
    description: 'Verified receipts sent on 3 days in a row.',
    icon: 'flame',
    category: 'streak',
    rarity: 'common',
    metric: 'streakDays',
    target: 3,
  },
  streak_7: {
    id: 'streak_7',
    name: 'Weekly Warrior',
    description: 'Verified receipts sent on 7 days in a row.',
    icon: 'calendar',
    category: 'streak',
    rarity: 'rare',
    metric: 'streakDays',
    target: 7,
  },
}

export interface BadgeInput {
  /** Accepted receipts; drive the receipt badges and the CO2 badge (the one CO2 definition). */
  receiptCount: number
  /** Counted store_addition ledger entries. */
  storeAdditionCount: number
  /** All user-earning entries (receipts, stores, achievements, referrals); drives the token badges. */
  earnedMilli: number
  currentStreak: number
  /**
   * Longest streak ever, if known. Streak badges use max(current, best) so a badge, once earned,
   * does not disappear when the streak breaks; without it they follow the current streak.
   */
  bestStreak?: number
}

export interface EvaluatedBadge extends BadgeDefinition {
  earned: boolean
  /** Whole percent, rounded down, 0..100; 100 only when earned. */
  progress: number
  /** In the badge's metric: receipts, kg CO2, store additions, B3TR (may have decimals) or days. */
  current: number
}

/** Each metric as an integer in its finest unit, with the scale to the displayed unit. */
function measure(metric: BadgeMetric, input: BadgeInput): { value: number; scale: number } {
  switch (metric) {
    case 'receipts':
      return { value: input.receiptCount, scale: 1 }
    case 'storeAdditions':
      return { value: input.storeAdditionCount, scale: 1 }
    case 'co2Kg':
      return { value: co2GramsForReceipts(input.receiptCount), scale: 1000 }
    case 'tokens':
      return { value: input.earnedMilli, scale: MILLI_PER_B3TR }
    case 'streakDays':
      return { value: Math.max(input.currentStreak, input.bestStreak ?? 0), scale: 1 }
  }
}

export function evaluateBadge(definition: BadgeDefinition, input: BadgeInput): EvaluatedBadge {
  const { value, scale } = measure(definition.metric, input)
  const current = Math.max(0, value)
  const target = definition.target * scale
  return {
    ...definition,
    earned: current >= target,
    progress: Math.min(100, Math.floor((current * 100) / target)),
    current: current / scale,
  }
}

export function evaluateBadges(input: BadgeInput): EvaluatedBadge[] {
  return BADGE_IDS.map((id) => evaluateBadge(BADGES[id], input))
}

// ---------------------------------------------------------------------------------------------
// Impact Explorer "Progress to Next Badges": three fixed bars, each only while unmet.

const NEXT_BADGE_BARS: ReadonlyArray<{ id: BadgeId; unit: string }> = [
  { id: 'co2_saver', unit: 'kg CO2' },
  { id: 'token_milestone_50', unit: 'tokens' },
  // The spec's third bar was Green Champion (10 receipts), now the Green Traveler achievement's rule.
  { id: 'streak_7', unit: 'days' },
]

export interface NextBadgeProgress {
  badgeId: BadgeId
  name: string
  current: number
  target: number
  unit: string
  progress: number
}

export function nextBadgeProgress(input: BadgeInput): NextBadgeProgress[] {
  return NEXT_BADGE_BARS.map(({ id, unit }) => ({ b: evaluateBadge(BADGES[id], input), unit }))
    .filter(({ b }) => !b.earned)
    .map(({ b, unit }) => ({ badgeId: b.id, name: b.name, current: b.current, target: b.target, unit, progress: b.progress }))
}

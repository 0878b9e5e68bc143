// Turning ledger rows into what the history screens show: the displayed sign, the Tokens page's
// search and paging, the rewards page's reward-history rows, and the entry that earned a badge.
// Pure: rows in, rows out.
import { z } from 'zod'
import { formatB3tr, formatSigned, MILLI_PER_B3TR } from '~/rewards/money'
import { isCountedEntry, isUserEarning } from '~/rewards/ledger-types'
import { addUtcDays, daysBetween, utcDay } from '~/utils/calendar'
import { ACHIEVEMENTS, achievementRewardTitle, parseAchievementKey } from './achievements'
import type { EvaluatedBadge } from './badges'
import { humanizeKey } from '~/utils/text'
import { CO2_GRAMS_PER_RECEIPT, transactionCo2Grams } from './impact'

export interface LedgerRowLike {
  id: number
  type: string
  amountMilli: number
  description: string
  status: string
  txHash: string | null
  createdAt: string
  /** The receipt's verified e-mail sender (issue 21), when the entry pays a verified e-receipt. */
  verifiedSender?: string | null
  /** A claim's payout status (payouts.status), when the row is a claim with a payout. */
  payoutStatus?: string | null
}

/**
 * The verified e-mail sender a ledger row may show ("Verified e-receipt (uber.com)"): only the
 * row that pays the receipt. The first-receipt bonus and the app fund's share point at the same
 * receipt (receipt_id) but are not an e-receipt themselves (issue 32).
 */
export function entryVerifiedSender(type: string, sender: string | null | undefined): string | null {
  return type === 'receipt_verification' && sender ? sender : null
}

/** A token_claim is a deduction whatever sign it was stored with (spec 1 §3). */
export function displayAmountMilli(entry: Pick<LedgerRowLike, 'type' | 'amountMilli'>): number {
  return entry.type === 'token_claim' ? -Math.abs(entry.amountMilli) : entry.amountMilli
}

const TYPE_LABELS: Record<string, string> = {
  receipt_verification: 'Receipt verified',
  store_addition: 'Store added',
  token_redemption: 'Token redemption',
  token_claim: 'Token claim',
  achievement_reward: 'Achievement reward',
  referral_reward: 'Referral reward',
  admin_action: 'Adjustment',
}

export function transactionTypeLabel(type: string): string {
  return TYPE_LABELS[type] ?? humanizeKey(type)
}

/** 'Achievement Reward: <key>' as stored (spec 1 §3); a legacy key such as music_store also matches. */
const ACHIEVEMENT_REWARD_TEXT = /Achievement Reward:\s*([a-z0-9_]+)/g

/**
 * What a history entry is called on screen: its description with an achievement key named by its
 * title ('Achievement Reward: first_store' -> 'Achievement Reward: Store Pioneer'), or the type's
 * label when there is no description. The API and the CSV keep the stored text.
 */
export function transactionTitle(entry: Pick<LedgerRowLike, 'type' | 'description'>): string {
  if (!entry.description) return transactionTypeLabel(entry.type)
  return entry.description.replace(ACHIEVEMENT_REWARD_TEXT, (_text, key: string) => `Achievement Reward: ${achievementRewardTitle(key)}`)
}

// ---------------------------------------------------------------------------------------------
// Tokens page (spec 2 §2): search on type, amount or description; 10 per page

export const TRANSACTIONS_PER_PAGE = 10

/** The ways an amount is or was written: '+18.0' on screen, '+18.00', '18.00', '18.0', '18'. */
function amountTexts(entry: Pick<LedgerRowLike, 'type' | 'amountMilli'>): string[] {
  const milli = displayAmountMilli(entry)
  const abs = Math.abs(milli)
  const texts = [formatSigned(milli), formatSigned(milli, 2), formatB3tr(abs, 2), formatB3tr(abs, 1)]
  if (abs % MILLI_PER_B3TR === 0) texts.push(String(abs / MILLI_PER_B3TR))
  return texts
}

/** Case-insensitive substring match on the type (raw and labelled), the amount, or the description. */
export function matchesTransactionSearch(
  entry: Pick<LedgerRowLike, 'type' | 'amountMilli' | 'description'>,
  query: string,
): boolean {
  const q = query.trim().toLowerCase()
  if (q === '') return true
  const haystack = [
    entry.type,
    entry.type.replace(/_/g, ' '),
    transactionTypeLabel(entry.type),
    entry.description,
    transactionTitle(entry),
    ...amountTexts(entry),
  ]
  return haystack.some((text) => text.toLowerCase().includes(q))
}

export interface Page<T> {
  items: T[]
  /** 1-based, clamped to the existing pages. */
  page: number
  pageCount: number
  total: number
}

/** A page number from the URL: anything that is not a positive integer is page 1. */
export function parsePage(value: string | null | undefined): number {
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 1 ? n : 1
}

export function paginate<T>(items: readonly T[], page: number, perPage: number = TRANSACTIONS_PER_PAGE): Page<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / perPage))
  const current = Math.min(Math.max(1, Math.floor(page)), pageCount)
  return {
    items: items.slice((current - 1) * perPage, current * perPage),
    page: current,
    pageCount,
    total: items.length,
  }
}

// ---------------------------------------------------------------------------------------------
// Rewards page reward-history transaction (spec 2 §3)

/** Receipt categories as the rewards page names them; unknown ones are shown in words. */
const REWARD_CATEGORY_BY_RECEIPT: Record<string, string> = {
  ride_share: 'rideshare',
  electric_vehicle: 'ev_rental',
  public_transit: 'public_transit',
  scooter_bike: 'scooter_bike',
}

export const REWARD_CATEGORY_LABELS: Record<string, string> = {
  thrift_store: 'Thrift Store',
  gaming_preowned: 'Pre-owned Gaming',
  rideshare: 'Rideshare',
  ev_rental: 'EV Rental',
  public_transit: 'Public Transit',
  scooter_bike: 'E-Scooter / Bike',
  store_addition: 'Store Addition',
  achievement: 'Achievement',
  referral: 'Referral',
}

export function rewardCategoryLabel(category: string): string {
  return REWARD_CATEGORY_LABELS[category] ?? humanizeKey(category)
}

export interface ReceiptFacts {
  storeName: string | null
  category: string | null
  /** analysis_json as stored; `confidence` is read from it (0..1). */
  analysisJson: string | null
}

export interface RewardHistoryRow {
  id: number
  /** B3TR (exact to 0.001). */
  amount: number
  category: string
  storeName: string
  /** ISO-8601. */
  date: string
  status: string
  txHash: string | null
  /** Grams. */
  co2Saved: number
  /** Whole percent, or null when the entry has no receipt analysis. */
  confidenceScore: number | null
}

const storedConfidence = z.object({ confidence: z.number().finite() })

/** `confidence` (0..1) from a stored analysis as a whole percent, or null when missing or malformed. */
export function confidencePercent(analysisJson: string | null): number | null {
  if (!analysisJson) return null
  try {
    const parsed = storedConfidence.safeParse(JSON.parse(analysisJson))
    if (!parsed.success) return null
    return Math.round(Math.min(1, Math.max(0, parsed.data.confidence)) * 100)
  } catch {
    return null
  }
}

function rewardCategory(entry: LedgerRowLike, receipt: ReceiptFacts | null): string {
  switch (entry.type) {
    case 'receipt_verification': {
      const category = receipt?.category ?? 'other'
      return REWARD_CATEGORY_BY_RECEIPT[category] ?? category
    }
    case 'store_addition':
      return 'store_addition'
    case 'achievement_reward':
      return 'achievement'
    case 'referral_reward':
      return 'referral'
    default:
      return entry.type
  }
}

function rewardTitle(entry: LedgerRowLike, receipt: ReceiptFacts | null): string {
  switch (entry.type) {
    case 'receipt_verification':
      return receipt?.storeName || 'Transport receipt'
    case 'achievement_reward': {
      const key = parseAchievementKey(entry.description)
      return key ? `Achievement: ${ACHIEVEMENTS[key].title}` : transactionTitle(entry)
    }
    default:
      return transactionTitle(entry)
  }
}

export function toRewardHistoryRow(entry: LedgerRowLike, receipt: ReceiptFacts | null): RewardHistoryRow {
  return {
    id: entry.id,
    amount: entry.amountMilli / MILLI_PER_B3TR,
    category: rewardCategory(entry, receipt),
    storeName: rewardTitle(entry, receipt),
    date: entry.createdAt,
    status: entry.status,
    txHash: entry.txHash,
    co2Saved: transactionCo2Grams(entry.type, entry.amountMilli),
    confidenceScore: entry.type === 'receipt_verification' ? confidencePercent(receipt?.analysisJson ?? null) : null,
  }
}

/** Rows the rewards page lists: counted user-earning entries (never fund shares or claims). */
export function isRewardHistoryEntry(entry: Pick<LedgerRowLike, 'type' | 'status'>): boolean {
  return isUserEarning(entry.type) && isCountedEntry(entry)
}

// ---------------------------------------------------------------------------------------------
// Which ledger entry earned a badge: its date and transaction hash (spec 1 §3)

export interface BadgeEvidence {
  /** Approved receipts in the order they were accepted, each with the date and hash of its reward entry. */
  receipts: ReadonlyArray<{ earnedAt: string; txHash: string | null }>
  /** The user's ledger entries in any order. */
  entries: readonly LedgerRowLike[]
  /** The receipts that counted for the streak (approved on submission: decision 007 §15), any order. */
  streakReceipts?: ReadonlyArray<{ earnedAt: string; txHash: string | null }>
  /** The stored streak: `current` consecutive days ending on `lastDay`. */
  streak?: { current: number; lastDay: string | null }
}

export interface BadgeWithEvidence extends EvaluatedBadge {
  earnedDate: string | null
  txHash: string | null
}

function byCreation(a: LedgerRowLike, b: LedgerRowLike): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id
}

/** The first entry at which the running total of `measure` reaches `target`. */
function crossing(entries: readonly LedgerRowLike[], target: number, measure: (sumMilli: number) => number) {
  let sum = 0
  for (const entry of entries) {
    sum += entry.amountMilli
    if (measure(sum) >= target) return entry
  }
  return null
}

/**
 * The receipt that first made a run of `target` consecutive UTC days (several receipts on one day
 * count once), or null if no run was that long.
 */
export function streakReachedAt<T extends { earnedAt: string }>(receipts: readonly T[], target: number): T | null {
  const sorted = [...receipts].sort((a, b) => (a.earnedAt < b.earnedAt ? -1 : a.earnedAt > b.earnedAt ? 1 : 0))
  let run = 0
  let lastDay: string | null = null
  for (const receipt of sorted) {
    const day = utcDay(new Date(receipt.earnedAt))
    if (lastDay !== null && day === lastDay) continue
    run = lastDay !== null && daysBetween(lastDay, day) === 1 ? run + 1 : 1
    lastDay = day
    if (run >= target) return receipt
  }
  return null
}

/**
 * For each earned badge, the date and hash of the entry that earned it: the Nth receipt (the CO2
 * badge: the receipt whose 5 kg reached the threshold), the Nth store addition, the earning entry
 * at which the running total reached the token threshold, or for a streak badge the receipt that
 * completed the run of days. A streak whose receipts are not all at hand (a stored streak alive on
 * `lastDay`) dates from its day: `target - current` days from `lastDay`. Unearned badges get neither.
 */
export function attachBadgeEvidence(badges: readonly EvaluatedBadge[], evidence: BadgeEvidence): BadgeWithEvidence[] {
  const earning = evidence.entries.filter(isRewardHistoryEntry).sort(byCreation)
  const stores = earning.filter((e) => e.type === 'store_addition')
  return badges.map((badge) => {
    const none = { ...badge, earnedDate: null, txHash: null }
    if (!badge.earned) return none
    let found: { earnedAt: string; txHash: string | null } | null = null
    switch (badge.metric) {
      case 'receipts':
        found = evidence.receipts[badge.target - 1] ?? null
        break
      case 'storeAdditions': {
        const entry = stores[badge.target - 1]
        found = entry ? { earnedAt: entry.createdAt, txHash: entry.txHash } : null
        break
      }
      case 'tokens': {
        const entry = crossing(earning, badge.target * MILLI_PER_B3TR, (sum) => sum)
        found = entry ? { earnedAt: entry.createdAt, txHash: entry.txHash } : null
        break
      }
      case 'co2Kg':
        found = evidence.receipts[Math.ceil((badge.target * 1000) / CO2_GRAMS_PER_RECEIPT) - 1] ?? null
        break
      case 'streakDays': {
        const stored = evidence.streak
        found =
          streakReachedAt(evidence.streakReceipts ?? [], badge.target) ??
          (stored?.lastDay && stored.current >= badge.target
            ? { earnedAt: addUtcDays(stored.lastDay, badge.target - stored.current), txHash: null }
            : null)
        break
      }
    }
    return found ? { ...badge, earnedDate: found.earnedAt, txHash: found.txHash } : none
  })
}

// ---------------------------------------------------------------------------------------------
// CSV export

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/

/**
 * One quoted CSV cell. Text that a spreadsheet would run as a formula (starting with = + - @, tab
 * or CR) gets a leading apostrophe; a plain number such as a claim's -5.000 stays a number.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value
  return `"${safe.replace(/"/g, '""')}"`
}

// Sharing an achievement or the user's impact, and when the achievement toast shows (spec 1 §2, §4).
// Pure: text in, links out; counts in, achievement keys out.
import { ACHIEVEMENTS, ACHIEVEMENT_KEYS, type AchievementKey } from './achievements'

export interface ShareLinks {
  x: string
  facebook: string
  /** Instagram has no share URL: the app copies the text, then opens Instagram. */
  instagram: string
}

export function shareLinks({ text, url }: { text: string; url: string }): ShareLinks {
  return {
    x: `https://twitter.com/intent/tweet?${new URLSearchParams({ text, url })}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: url, quote: text })}`,
    instagram: 'https://www.instagram.com/',
  }
}

/** The public link an achievement share points to, keyed by type (spec 1 §3). */
export function achievementShareUrl(origin: string, key: AchievementKey): string {
  return `${origin.replace(/\/$/, '')}/?${new URLSearchParams({ achievement: key })}`
}

/** Share text for an achievement when no counts are at hand (the toast). */
export function genericShareText(key: AchievementKey): string {
  const a = ACHIEVEMENTS[key]
  return `I unlocked the "${a.title}" achievement on ReCircle! ${a.unlockMessage} #ReCircle #B3TR`
}

export function isAchievementKey(value: unknown): value is AchievementKey {
  return typeof value === 'string' && (ACHIEVEMENT_KEYS as readonly string[]).includes(value)
}

// ---------------------------------------------------------------------------------------------
// Achievement toast (spec 1 §4): on a trigger event, or when the receipt count reaches 1, 5 or 10;
// each type once per browser (issue 40; the spec said per session, and it came back in a new tab);
// 6 s; closes on navigation.

export const ACHIEVEMENT_TOAST_MS = 6000
export const ACHIEVEMENT_EVENT = 'recircle:achievement'
export const TOAST_SESSION_PREFIX = 'recircle:achievementToast:'

const RECEIPT_MILESTONES: ReadonlyArray<[number, AchievementKey]> = [
  [1, 'first_receipt'],
  [5, 'five_receipts'],
  [10, 'ten_receipts'],
]

/** The achievement a receipt count has just reached (exactly 1, 5 or 10), else null. */
export function achievementForReceiptCount(count: number | null | undefined): AchievementKey | null {
  return RECEIPT_MILESTONES.find(([n]) => n === count)?.[1] ?? null
}

/** Whether to show the toast for `type`, given the types already shown this session. */
export function shouldShowAchievementToast(type: unknown, shownThisSession: ReadonlySet<string>): type is AchievementKey {
  return isAchievementKey(type) && !shownThisSession.has(type)
}

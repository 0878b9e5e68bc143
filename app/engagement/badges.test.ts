import { describe, expect, it } from 'vitest'
import { BADGES, BADGE_IDS, type BadgeId, type BadgeInput, evaluateBadges, nextBadgeProgress } from './badges'

const none: BadgeInput = { receiptCount: 0, storeAdditionCount: 0, earnedMilli: 0, currentStreak: 0 }

function find(id: BadgeId, input: Partial<BadgeInput>) {
  const found = evaluateBadges({ ...none, ...input }).find((b) => b.id === id)
  if (!found) throw new Error(`missing ${id}`)
  return found
}

describe('badge definitions', () => {
  it.each([
    ['co2_saver', 'Carbon Reducer', 'rare', 'sustainability', 10],
    ['store_contributor', 'Community Builder', 'epic', 'community', 5],
    ['token_milestone_10', 'Token Collector', 'common', 'milestones', 10],
    ['token_milestone_50', 'Token Master', 'rare', 'milestones', 50],
    ['streak_3', 'Consistent', 'common', 'streak', 3],
    ['streak_7', 'Weekly Warrior', 'rare', 'streak', 7],
  ] as const)('%s is %s (%s, %s, target %s)', (id, name, rarity, category, target) => {
    expect(BADGES[id]).toMatchObject({ id, name, rarity, category, target })
    expect(BADGES[id].description).not.toBe('')
    expect(BADGES[id].icon).not.toBe('')
  })

  it('evaluates all six in a fixed order', () => {
    expect(evaluateBadges(none).map((b) => b.id)).toEqual([...BADGE_IDS])
    expect(BADGE_IDS).toHaveLength(6)
  })

  // Decision 113: no badge repeats an achievement's rule (First Steps, Eco Warrior, Green Champion
  // and Store Scout did); each remaining badge counts something no achievement counts.
  it('repeats no achievement', () => {
    expect(BADGE_IDS).not.toEqual(expect.arrayContaining(['first_receipt']))
    for (const id of ['first_receipt', 'five_receipts', 'ten_receipts', 'first_store']) expect(BADGE_IDS).not.toContain(id)
    expect(new Set(BADGE_IDS.map((id) => `${BADGES[id].metric}:${BADGES[id].target}`)).size).toBe(BADGE_IDS.length)
  })
})

describe('evaluateBadges', () => {
  it.each([
    // CO2: 5 kg per accepted receipt (the one definition, decision 061), so 10 kg at 2 receipts
    ['co2_saver', { receiptCount: 0 }, false, 0, 0],
    ['co2_saver', { receiptCount: 1 }, false, 50, 5],
    ['co2_saver', { receiptCount: 2 }, true, 100, 10],
    ['co2_saver', { receiptCount: 3 }, true, 100, 15],
    ['co2_saver', { earnedMilli: 100_000 }, false, 0, 0],
    ['store_contributor', { storeAdditionCount: 1 }, false, 20, 1],
    ['store_contributor', { storeAdditionCount: 4 }, false, 80, 4],
    ['store_contributor', { storeAdditionCount: 5 }, true, 100, 5],
    ['token_milestone_10', { earnedMilli: 9999 }, false, 99, 9.999],
    ['token_milestone_10', { earnedMilli: 10_000 }, true, 100, 10],
    ['token_milestone_50', { earnedMilli: 25_500 }, false, 51, 25.5],
    ['token_milestone_50', { earnedMilli: 49_999 }, false, 99, 49.999],
    ['token_milestone_50', { earnedMilli: 50_000 }, true, 100, 50],
    ['token_milestone_50', { earnedMilli: -5000 }, false, 0, 0],
    ['streak_3', { currentStreak: 2 }, false, 66, 2],
    ['streak_3', { currentStreak: 3 }, true, 100, 3],
    ['streak_3', { currentStreak: 0, bestStreak: 3 }, true, 100, 3],
    ['streak_3', { currentStreak: 2, bestStreak: 1 }, false, 66, 2],
    ['streak_7', { currentStreak: 6 }, false, 85, 6],
    ['streak_7', { currentStreak: 7 }, true, 100, 7],
    ['streak_7', { currentStreak: 1, bestStreak: 10 }, true, 100, 10],
  ] as const)('%s with %j -> earned %s, %s%%, current %s', (id, input, earned, progress, current) => {
    expect(find(id, input)).toMatchObject({ earned, progress, current })
  })
})

describe('nextBadgeProgress', () => {
  const carbon = (current: number, progress: number) => ({ badgeId: 'co2_saver', name: 'Carbon Reducer', current, target: 10, unit: 'kg CO2', progress })
  const master = (current: number, progress: number) => ({ badgeId: 'token_milestone_50', name: 'Token Master', current, target: 50, unit: 'tokens', progress })
  const weekly = (current: number, progress: number) => ({ badgeId: 'streak_7', name: 'Weekly Warrior', current, target: 7, unit: 'days', progress })

  it.each([
    [{}, [carbon(0, 0), master(0, 0), weekly(0, 0)]],
    [{ receiptCount: 1, earnedMilli: 19_999, currentStreak: 1 }, [carbon(5, 50), master(19.999, 39), weekly(1, 14)]],
    [{ receiptCount: 2, earnedMilli: 20_000 }, [master(20, 40), weekly(0, 0)]],
    [{ receiptCount: 3, earnedMilli: 50_000, currentStreak: 2, bestStreak: 7 }, []],
  ])('%j -> %j', (input, expected) => {
    expect(nextBadgeProgress({ ...none, ...input })).toEqual(expected)
  })
})

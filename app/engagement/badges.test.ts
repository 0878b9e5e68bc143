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
    ['first_receipt', 'First Steps', 'common', 'sustainability', 1],
    ['five_receipts', 'Eco Warrior', 'rare', 'sustainability', 5],
    ['ten_receipts', 'Green Champion', 'epic', 'sustainability', 10],
    ['co2_saver', 'Carbon Reducer', 'rare', 'sustainability', 10],
    ['first_store', 'Store Scout', 'common', 'community', 1],
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

  it('evaluates all ten in a fixed order', () => {
    expect(evaluateBadges(none).map((b) => b.id)).toEqual([...BADGE_IDS])
    expect(BADGE_IDS).toHaveLength(10)
  })
})

describe('evaluateBadges', () => {
  it.each([
    ['first_receipt', { receiptCount: 0 }, false, 0, 0],
    ['first_receipt', { receiptCount: 1 }, true, 100, 1],
    ['five_receipts', { receiptCount: 4 }, false, 80, 4],
    ['five_receipts', { receiptCount: 5 }, true, 100, 5],
    ['ten_receipts', { receiptCount: 9 }, false, 90, 9],
    ['ten_receipts', { receiptCount: 10 }, true, 100, 10],
    ['ten_receipts', { receiptCount: 11 }, true, 100, 11],
    // CO2: 5 kg per accepted receipt (the one definition, decision 061), so 10 kg at 2 receipts
    ['co2_saver', { receiptCount: 0 }, false, 0, 0],
    ['co2_saver', { receiptCount: 1 }, false, 50, 5],
    ['co2_saver', { receiptCount: 2 }, true, 100, 10],
    ['co2_saver', { receiptCount: 3 }, true, 100, 15],
    ['co2_saver', { earnedMilli: 100_000 }, false, 0, 0],
    ['first_store', { storeAdditionCount: 0 }, false, 0, 0],
    ['first_store', { storeAdditionCount: 1 }, true, 100, 1],
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
  const green = (current: number, progress: number) => ({ badgeId: 'ten_receipts', name: 'Green Champion', current, target: 10, unit: 'receipts', progress })
  const carbon = (current: number, progress: number) => ({ badgeId: 'co2_saver', name: 'Carbon Reducer', current, target: 10, unit: 'kg CO2', progress })
  const master = (current: number, progress: number) => ({ badgeId: 'token_milestone_50', name: 'Token Master', current, target: 50, unit: 'tokens', progress })

  it.each([
    [{}, [green(0, 0), carbon(0, 0), master(0, 0)]],
    [{ receiptCount: 1, earnedMilli: 19_999 }, [green(1, 10), carbon(5, 50), master(19.999, 39)]],
    [{ receiptCount: 2, earnedMilli: 20_000 }, [green(2, 20), master(20, 40)]],
    [{ receiptCount: 10, earnedMilli: 20_000 }, [master(20, 40)]],
    [{ receiptCount: 3, earnedMilli: 50_000 }, [green(3, 30)]],
    [{ receiptCount: 10, earnedMilli: 50_000 }, []],
  ])('%j -> %j', (input, expected) => {
    expect(nextBadgeProgress({ ...none, ...input })).toEqual(expected)
  })
})

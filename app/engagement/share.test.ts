import { describe, expect, it } from 'vitest'
import {
  achievementForReceiptCount,
  achievementShareUrl,
  genericShareText,
  isAchievementKey,
  shareLinks,
  shouldShowAchievementToast,
} from './share'

describe('shareLinks', () => {
  const links = shareLinks({ text: 'I saved 5 kg CO2 & more! #ReCircle', url: 'https://recircle.app/?achievement=first_receipt' })

  it('builds an X intent with the text and the link', () => {
    const url = new URL(links.x)
    expect(url.origin + url.pathname).toBe('https://twitter.com/intent/tweet')
    expect(url.searchParams.get('text')).toBe('I saved 5 kg CO2 & more! #ReCircle')
    expect(url.searchParams.get('url')).toBe('https://recircle.app/?achievement=first_receipt')
  })

  it('builds a Facebook sharer link', () => {
    const url = new URL(links.facebook)
    expect(url.origin + url.pathname).toBe('https://www.facebook.com/sharer/sharer.php')
    expect(url.searchParams.get('u')).toBe('https://recircle.app/?achievement=first_receipt')
  })

  it('opens Instagram itself (the text is copied first)', () => {
    expect(links.instagram).toBe('https://www.instagram.com/')
  })
})

describe('achievement share link and text', () => {
  it('keys the public link by type', () => {
    expect(achievementShareUrl('https://recircle.app/', 'five_receipts')).toBe('https://recircle.app/?achievement=five_receipts')
  })
  it('names the achievement', () => {
    expect(genericShareText('first_receipt')).toContain('"First Receipt"')
  })
})

describe('achievement toast rules', () => {
  it.each([
    [null, null],
    [0, null],
    [1, 'first_receipt'],
    [2, null],
    [4, null],
    [5, 'five_receipts'],
    [6, null],
    [9, null],
    [10, 'ten_receipts'],
    [11, null],
  ])('receipt count %s -> %s', (count, expected) => {
    expect(achievementForReceiptCount(count)).toBe(expected)
  })

  it('shows each known type once per session', () => {
    expect(shouldShowAchievementToast('first_receipt', new Set())).toBe(true)
    expect(shouldShowAchievementToast('first_receipt', new Set(['first_receipt']))).toBe(false)
    expect(shouldShowAchievementToast('five_receipts', new Set(['first_receipt']))).toBe(true)
    expect(shouldShowAchievementToast('music_store', new Set())).toBe(false)
    expect(shouldShowAchievementToast(undefined, new Set())).toBe(false)
  })

  it.each([
    ['first_receipt', true],
    ['token_milestone', true],
    ['movie_store', false],
    [42, false],
  ])('isAchievementKey(%j) = %s', (value, expected) => {
    expect(isAchievementKey(value)).toBe(expected)
  })
})

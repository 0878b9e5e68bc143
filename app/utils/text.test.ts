import { describe, expect, it } from 'vitest'
import { humanizeKey, plural, withinOneEdit } from './text'

describe('plural', () => {
  it.each([
    [0, 'sustainable trip', undefined, '0 sustainable trips'],
    [1, 'sustainable trip', undefined, '1 sustainable trip'],
    [2, 'sustainable trip', undefined, '2 sustainable trips'],
    [1, 'day', undefined, '1 day'],
    [1, 'entry', 'entries', '1 entry'],
    [3, 'entry', 'entries', '3 entries'],
  ])('plural(%s, %j, %j) -> %j', (n, one, many, expected) => {
    expect(plural(n, one, many)).toBe(expected)
  })
})

describe('humanizeKey', () => {
  it.each([
    ['ride_share', 'Ride share'],
    ['first_store', 'First store'],
    ['music-store', 'Music store'],
    ['already words', 'Already words'],
    ['__odd__key__', 'Odd key'],
    ['', ''],
  ])('humanizeKey(%j) -> %j', (key, expected) => {
    expect(humanizeKey(key)).toBe(expected)
  })
})

describe('withinOneEdit', () => {
  it('counts one substitution, insertion or deletion', () => {
    expect(withinOneEdit('septerber', 'september')).toBe(true)
    expect(withinOneEdit('octber', 'october')).toBe(true)
    expect(withinOneEdit('junee', 'june')).toBe(true)
    expect(withinOneEdit('mayday', 'may')).toBe(false)
    expect(withinOneEdit('septarbar', 'september')).toBe(false)
  })
})

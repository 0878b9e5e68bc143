import { describe, expect, it } from 'vitest'
import {
  DEFAULT_LOCATIONS,
  EARTH_RADIUS_MILES,
  coordinatesFromParams,
  directionsUrl,
  distanceMiles,
  filterStores,
  formatDayHours,
  formatDistance,
  isOpenAt,
  isStoreOpen,
  isValidCoordinates,
  localTimeIn,
  sortByDistance,
  storeHours,
  storeKindPhrase,
  storeTimeZone,
} from './stores'

const store = (id: number, name: string, city: string, state: string, address: string, latitude: number | null, longitude: number | null) => ({
  id,
  name,
  city,
  state,
  address,
  latitude,
  longitude,
})

const STORES = [
  store(1, 'Desert Threads Thrift', 'Phoenix', 'AZ', '1420 N 7th St', 33.4628, -112.0648),
  store(2, 'Bowery Second Look', 'New York', 'NY', '245 Bowery', 40.7222, -73.9929),
  store(3, 'Mission Vintage Exchange', 'San Francisco', 'CA', '2470 Mission St', 37.7577, -122.4188),
  store(4, 'Community Fix Shop', 'Tempe', 'AZ', '12 Mill Ave', null, null),
]

describe('storeKindPhrase', () => {
  it.each([
    ['clothing', 'A sustainable clothing store'],
    ['furniture', 'A sustainable furniture store'],
    ['books', 'A sustainable bookstore'],
    ['general', 'A sustainable store'],
    ['other', 'A sustainable store'],
    ['something_new', 'A sustainable store'],
  ])('%s -> %j', (type, expected) => {
    expect(storeKindPhrase(type)).toBe(expected)
  })
})

describe('filterStores', () => {
  it.each([
    ['', [1, 2, 3, 4]],
    ['  ', [1, 2, 3, 4]],
    ['thrift', [1]],
    ['PHOENIX', [1]],
    ['az', [1, 4]],
    ['bowery', [2]],
    ['mission st', [3]],
    ['new   york', [2]],
    ['nothing here', []],
  ])('%j matches %j', (q, ids) => {
    expect(filterStores(STORES, q).map((s) => s.id)).toEqual(ids)
  })
})

describe('distanceMiles', () => {
  it('uses the earth radius in miles', () => {
    expect(EARTH_RADIUS_MILES).toBe(3958.8)
    expect(distanceMiles({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(Math.PI * 3958.8, 6)
  })
  it('is zero for the same point and symmetric', () => {
    const a = DEFAULT_LOCATIONS.phoenix
    const b = DEFAULT_LOCATIONS.newYork
    expect(distanceMiles(a, a)).toBe(0)
    expect(distanceMiles(a, b)).toBeCloseTo(distanceMiles(b, a), 9)
  })
  it('gives known city distances', () => {
    // Great-circle New York - San Francisco is about 2,570 miles; Phoenix - San Francisco about 650.
    expect(distanceMiles(DEFAULT_LOCATIONS.newYork, DEFAULT_LOCATIONS.sanFrancisco)).toBeGreaterThan(2550)
    expect(distanceMiles(DEFAULT_LOCATIONS.newYork, DEFAULT_LOCATIONS.sanFrancisco)).toBeLessThan(2590)
    expect(distanceMiles(DEFAULT_LOCATIONS.phoenix, DEFAULT_LOCATIONS.sanFrancisco)).toBeGreaterThan(640)
    expect(distanceMiles(DEFAULT_LOCATIONS.phoenix, DEFAULT_LOCATIONS.sanFrancisco)).toBeLessThan(660)
  })
})

describe('sortByDistance', () => {
  it('keeps the order without a location and marks distances unknown', () => {
    const sorted = sortByDistance(STORES, null)
    expect(sorted.map((s) => s.id)).toEqual([1, 2, 3, 4])
    expect(sorted.every((s) => s.distanceMiles === null)).toBe(true)
  })
  it('sorts nearest first from San Francisco, unknown coordinates last', () => {
    const sorted = sortByDistance(STORES, DEFAULT_LOCATIONS.sanFrancisco)
    expect(sorted.map((s) => s.id)).toEqual([3, 1, 2, 4])
    expect(sorted[0]!.distanceMiles).toBeLessThan(2)
    expect(sorted[3]!.distanceMiles).toBeNull()
  })
  it('sorts nearest first from New York', () => {
    expect(sortByDistance(STORES, DEFAULT_LOCATIONS.newYork).map((s) => s.id)).toEqual([2, 1, 3, 4])
  })
})

describe('formatDistance', () => {
  it.each([
    [null, 'Get distance'],
    [0, '0.0 miles'],
    [1.26, '1.3 miles'],
    [9.94, '9.9 miles'],
    [12.4, '12 miles'],
    [2571.2, '2,571 miles'],
  ])('%j -> %s', (miles, text) => {
    expect(formatDistance(miles)).toBe(text)
  })
})

describe('coordinates', () => {
  it.each([
    [{ latitude: 33.4, longitude: -112 }, true],
    [{ latitude: 91, longitude: 0 }, false],
    [{ latitude: 0, longitude: -181 }, false],
    [{ latitude: Number.NaN, longitude: 0 }, false],
    [{ latitude: 1 }, false],
    [null, false],
  ])('isValidCoordinates(%j) is %s', (value, ok) => {
    expect(isValidCoordinates(value as never)).toBe(ok)
  })
  it('reads lat/lng from search params', () => {
    expect(coordinatesFromParams(new URLSearchParams('lat=33.45&lng=-112.07'))).toEqual({ latitude: 33.45, longitude: -112.07 })
    expect(coordinatesFromParams(new URLSearchParams('lat=abc&lng=1'))).toBeNull()
    expect(coordinatesFromParams(new URLSearchParams('lat=&lng='))).toBeNull()
    expect(coordinatesFromParams(new URLSearchParams('lat=10'))).toBeNull()
  })
})

describe('synthetic hours', () => {
  it('opens between 8 and 10 AM and closes between 5 and 8 PM on weekdays', () => {
    for (let id = 1; id <= 60; id++) {
      const hours = storeHours(id)
      expect(hours).toHaveLength(7)
      for (let day = 1; day <= 5; day++) {
        const h = hours[day]!
        expect(h.open).toBeGreaterThanOrEqual(8)
        expect(h.open).toBeLessThanOrEqual(10)
        expect(h.close).toBeGreaterThanOrEqual(17)
        expect(h.close).toBeLessThanOrEqual(20)
      }
    }
  })
  it('depends on the id', () => {
    expect(storeHours(1)[1]).toEqual({ open: 9, close: 18 })
    expect(storeHours(3)[1]).toEqual({ open: 8, close: 20 })
    expect(storeHours(2)[1]).not.toEqual(storeHours(3)[1])
  })
  it('closes on Sunday when the id is divisible by 5', () => {
    expect(storeHours(5)[0]).toBeNull()
    expect(storeHours(10)[0]).toBeNull()
    expect(storeHours(7)[0]).not.toBeNull()
    expect(formatDayHours(storeHours(5)[0] ?? null)).toBe('Closed')
    expect(formatDayHours({ open: 9, close: 18 })).toBe('9:00 AM - 6:00 PM')
    expect(formatDayHours({ open: 10, close: 12 })).toBe('10:00 AM - 12:00 PM')
  })
  it('is open from the opening minute until (not including) the closing minute', () => {
    const hours = storeHours(1) // 9 to 18
    expect(isOpenAt(hours, { day: 2, minutes: 9 * 60 - 1 })).toBe(false)
    expect(isOpenAt(hours, { day: 2, minutes: 9 * 60 })).toBe(true)
    expect(isOpenAt(hours, { day: 2, minutes: 18 * 60 - 1 })).toBe(true)
    expect(isOpenAt(hours, { day: 2, minutes: 18 * 60 })).toBe(false)
    expect(isOpenAt(storeHours(5), { day: 0, minutes: 12 * 60 })).toBe(false)
  })
  it("reads the store's local time from its state", () => {
    expect(storeTimeZone('AZ')).toBe('America/Phoenix')
    expect(storeTimeZone('ny')).toBe('America/New_York')
    expect(storeTimeZone('CA')).toBe('America/Los_Angeles')
    expect(storeTimeZone('Unknown')).toBe('America/New_York')
    // 2025-01-07 (a Tuesday) 17:30 UTC is 10:30 in Phoenix (UTC-7, no DST).
    const now = new Date('2025-01-07T17:30:00Z')
    expect(localTimeIn('America/Phoenix', now)).toEqual({ day: 2, minutes: 10 * 60 + 30 })
    expect(isStoreOpen({ id: 1, state: 'AZ' }, now)).toBe(true)
    // 02:00 UTC Wednesday is 19:00 Tuesday in Phoenix: store 1 closed at 18:00.
    expect(isStoreOpen({ id: 1, state: 'AZ' }, new Date('2025-01-08T02:00:00Z'))).toBe(false)
  })
})

describe('directionsUrl', () => {
  it('uses coordinates when known, otherwise the address', () => {
    expect(directionsUrl({ ...STORES[0]!, latitude: 33.4628, longitude: -112.0648 })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=33.4628%2C-112.0648&travelmode=driving',
    )
    expect(directionsUrl(STORES[3]!)).toContain('destination=Community+Fix+Shop%2C+12+Mill+Ave%2C+Tempe%2C+AZ')
  })
})

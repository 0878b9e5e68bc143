// The store directory's rules: search, distance, synthetic hours, location defaults. Pure: plain
// data in, plain data out, `now` passed in.

export const STORE_TYPES = ['general', 'clothing', 'furniture', 'books', 'other'] as const
export type StoreType = (typeof STORE_TYPES)[number]

export const STORE_TYPE_LABELS: Record<StoreType, string> = {
  general: 'General',
  clothing: 'Clothing',
  furniture: 'Furniture',
  books: 'Books',
  other: 'Other',
}

export function storeTypeLabel(type: string): string {
  return (STORE_TYPE_LABELS as Record<string, string>)[type] ?? type
}

const STORE_KIND_PHRASES: Partial<Record<StoreType, string>> = {
  clothing: 'A sustainable clothing store',
  furniture: 'A sustainable furniture store',
  books: 'A sustainable bookstore',
}

/** The store detail's opening words: 'A sustainable clothing store'; general, other or unknown: 'A sustainable store'. */
export function storeKindPhrase(type: string): string {
  return (STORE_KIND_PHRASES as Record<string, string | undefined>)[type] ?? 'A sustainable store'
}

export type Store = {
  id: number
  name: string
  address: string
  city: string
  state: string
  latitude: number | null
  longitude: number | null
  storeType: string
  /** Staff-verified; never a demo listing (the UI shows one or the other). */
  verified: boolean
  /** The user who contributed the store; null for the seeded directory. */
  addedBy: number | null
  isDemo: boolean
}

export type Coordinates = { latitude: number; longitude: number }

// ---------------------------------------------------------------------------------------------
// Search (spec 2 §2, §5): name, city, state or address, case-insensitive.

export function normalizeQuery(query: string | null | undefined): string {
  return (query ?? '').trim().replace(/\s+/g, ' ').slice(0, 100)
}

export function matchesQuery(store: Pick<Store, 'name' | 'city' | 'state' | 'address'>, query: string): boolean {
  const q = normalizeQuery(query).toLowerCase()
  if (!q) return true
  return [store.name, store.city, store.state, store.address].some((field) => field.toLowerCase().includes(q))
}

export function filterStores<T extends Pick<Store, 'name' | 'city' | 'state' | 'address'>>(stores: readonly T[], query: string): T[] {
  return stores.filter((s) => matchesQuery(s, query))
}

// ---------------------------------------------------------------------------------------------
// Distance (decision 007 §17): haversine in miles.

export const EARTH_RADIUS_MILES = 3958.8

export function isValidCoordinates(value: Partial<Coordinates> | null | undefined): value is Coordinates {
  if (!value) return false
  const { latitude, longitude } = value
  return (
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180
  )
}

export function distanceMiles(a: Coordinates, b: Coordinates): number {
  const rad = (deg: number) => (deg * Math.PI) / 180
  const dLat = rad(b.latitude - a.latitude)
  const dLon = rad(b.longitude - a.longitude)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)))
}

export function storeDistance(store: Pick<Store, 'latitude' | 'longitude'>, from: Coordinates | null): number | null {
  const at = { latitude: store.latitude ?? undefined, longitude: store.longitude ?? undefined }
  if (!from || !isValidCoordinates(at)) return null
  return distanceMiles(from, at)
}

/** Nearest first; stores without coordinates keep their order at the end. */
export function sortByDistance<T extends Pick<Store, 'latitude' | 'longitude'>>(
  stores: readonly T[],
  from: Coordinates | null,
): Array<T & { distanceMiles: number | null }> {
  const withDistance = stores.map((s, index) => ({ ...s, distanceMiles: storeDistance(s, from), index }))
  if (from) {
    withDistance.sort((a, b) => {
      if (a.distanceMiles === null || b.distanceMiles === null) {
        return a.distanceMiles === b.distanceMiles ? a.index - b.index : a.distanceMiles === null ? 1 : -1
      }
      return a.distanceMiles - b.distanceMiles || a.index - b.index
    })
  }
  return withDistance.map(({ index: _index, ...rest }) => rest as T & { distanceMiles: number | null })
}

export function formatDistance(miles: number | null): string {
  if (miles === null) return 'Get distance'
  if (miles < 10) return `${miles.toFixed(1)} miles`
  return `${Math.round(miles).toLocaleString('en-US')} miles`
}

// ---------------------------------------------------------------------------------------------
// Location (spec 2 §4, §9)

export const GEOLOCATION_TIMEOUT_MS = 5000
export const GEOLOCATION_GUARD_MS = 4000
export const GEOLOCATION_MAX_AGE_MS = 5 * 60 * 1000
export const GEOLOCATION_HIGH_ACCURACY = false
export const LOCATION_CACHE_KEY = 'cachedPosition'

export type NamedLocation = Coordinates & { name: string; isActualLocation: boolean }

export const DEFAULT_LOCATIONS = {
  phoenix: { name: 'Phoenix, AZ', latitude: 33.4484, longitude: -112.074, isActualLocation: false },
  newYork: { name: 'New York, NY', latitude: 40.7128, longitude: -74.006, isActualLocation: false },
  sanFrancisco: { name: 'San Francisco, CA', latitude: 37.7749, longitude: -122.4194, isActualLocation: false },
} as const satisfies Record<string, NamedLocation>

export const DEFAULT_LOCATION: NamedLocation = DEFAULT_LOCATIONS.phoenix

/** Reads `lat`/`lng` from a URL's search params; null when absent or invalid. */
export function coordinatesFromParams(params: URLSearchParams): Coordinates | null {
  const lat = params.get('lat')
  const lng = params.get('lng')
  if (lat === null || lng === null || lat.trim() === '' || lng.trim() === '') return null
  const value = { latitude: Number(lat), longitude: Number(lng) }
  return isValidCoordinates(value) ? value : null
}

/** Four decimals (about 11 m) are plenty for a distance and keep URLs short. */
export function coordinateParams(at: Coordinates): { lat: string; lng: string } {
  return { lat: at.latitude.toFixed(4), lng: at.longitude.toFixed(4) }
}

// ---------------------------------------------------------------------------------------------
// Synthetic hours (spec 2 §2, decision 007 §17): derived from the id, shown as typical hours.

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const

/** Hours in whole 24 h hours; null means closed that day. Index 0 is Sunday. */
export type DayHours = { open: number; close: number } | null

export function storeHours(id: number): DayHours[] {
  const open = 8 + (Math.abs(id) % 3) // 8, 9 or 10 AM
  const close = 17 + (Math.abs(id) % 4) // 5, 6, 7 or 8 PM
  const sunday: DayHours = id % 5 === 0 ? null : { open: Math.max(open, 10), close: Math.min(close, 17) }
  return WEEKDAYS.map((_, day) => (day === 0 ? sunday : { open, close }))
}

export function formatHour(hour: number): string {
  const suffix = hour < 12 || hour === 24 ? 'AM' : 'PM'
  const h = hour % 12 === 0 ? 12 : hour % 12
  return `${h}:00 ${suffix}`
}

export function formatDayHours(hours: DayHours): string {
  return hours ? `${formatHour(hours.open)} - ${formatHour(hours.close)}` : 'Closed'
}

/** Local wall-clock time: day of week (0 = Sunday) and minutes since midnight. */
export type LocalTime = { day: number; minutes: number }

export function isOpenAt(hours: readonly DayHours[], at: LocalTime): boolean {
  const today = hours[at.day]
  if (!today) return false
  return at.minutes >= today.open * 60 && at.minutes < today.close * 60
}

// Stores are in the US; the state picks the time zone its hours are read in (the main zone for
// states that span two).
const STATE_TIME_ZONES: Record<string, string> = {
  ...zone('America/New_York', 'CT DE DC FL GA IN KY ME MD MA MI NH NJ NY NC OH PA RI SC VT VA WV'),
  ...zone('America/Chicago', 'AL AR IL IA KS LA MN MS MO NE ND OK SD TN TX WI'),
  ...zone('America/Denver', 'CO ID MT NM UT WY'),
  ...zone('America/Phoenix', 'AZ'),
  ...zone('America/Los_Angeles', 'CA NV OR WA'),
  ...zone('America/Anchorage', 'AK'),
  ...zone('Pacific/Honolulu', 'HI'),
}

function zone(tz: string, states: string): Record<string, string> {
  return Object.fromEntries(states.split(' ').map((s) => [s, tz]))
}

export function storeTimeZone(state: string): string {
  return STATE_TIME_ZONES[state.trim().toUpperCase()] ?? 'America/New_York'
}

export function localTimeIn(timeZone: string, now: Date): LocalTime {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts(now)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'))
  return { day: Math.max(0, day), minutes: Number(get('hour')) * 60 + Number(get('minute')) }
}

export function isStoreOpen(store: Pick<Store, 'id' | 'state'>, now: Date): boolean {
  return isOpenAt(storeHours(store.id), localTimeIn(storeTimeZone(store.state), now))
}

// ---------------------------------------------------------------------------------------------
// Links

export function directionsUrl(store: Pick<Store, 'latitude' | 'longitude' | 'name' | 'address' | 'city' | 'state'>): string {
  const destination =
    store.latitude !== null && store.longitude !== null
      ? `${store.latitude},${store.longitude}`
      : `${store.name}, ${store.address}, ${store.city}, ${store.state}`
  return `https://www.google.com/maps/dir/?api=1&${new URLSearchParams({ destination, travelmode: 'driving' })}`
}

/** A stable banner colour per store (hue from the id). */
export function bannerHue(id: number): number {
  return (Math.abs(id) * 47) % 360
}

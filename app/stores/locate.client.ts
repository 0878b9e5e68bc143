import {
  DEFAULT_LOCATION,
  GEOLOCATION_GUARD_MS,
  GEOLOCATION_HIGH_ACCURACY,
  GEOLOCATION_MAX_AGE_MS,
  GEOLOCATION_TIMEOUT_MS,
  LOCATION_CACHE_KEY,
  isValidCoordinates,
  type NamedLocation,
} from './stores'

const ERROR_LOGS: Record<number, string> = {
  1: 'Location permission denied. Please enable location services in your browser settings.',
  2: 'Your location could not be determined. Please try again.',
  3: 'Location request timed out. Please check your connection and try again.',
}

/** The position cached this session, if any (spec 2 §4: used on load). */
export function cachedLocation(): NamedLocation | null {
  return readCache()
}

function readCache(): NamedLocation | null {
  try {
    const cached = JSON.parse(sessionStorage.getItem(LOCATION_CACHE_KEY) ?? 'null') as NamedLocation | null
    return cached && isValidCoordinates(cached) ? cached : null
  } catch {
    return null
  }
}

function writeCache(location: NamedLocation) {
  try {
    sessionStorage.setItem(LOCATION_CACHE_KEY, JSON.stringify(location))
  } catch {
    // Private mode: no cache, the next call asks again.
  }
}

/**
 * The cached position unless `force`; otherwise the browser's (5 s timeout, 5 min cached age, low
 * accuracy) with a 4 s guard. Any failure falls back to Phoenix, cached too; `failed` tells the
 * caller to show the 'Location error' toast (spec 2 §4, §8, §9).
 */
export function locate({ force = false }: { force?: boolean } = {}): Promise<{ location: NamedLocation; failed: boolean }> {
  if (!force) {
    const cached = readCache()
    if (cached) return Promise.resolve({ location: cached, failed: false })
  }
  return new Promise((resolve) => {
    let settled = false
    const finish = (location: NamedLocation, failed: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(guard)
      writeCache(location)
      resolve({ location, failed })
    }
    const fail = (message: string) => {
      console.warn(message)
      finish(DEFAULT_LOCATION, true)
    }
    const guard = setTimeout(() => fail(ERROR_LOGS[3]), GEOLOCATION_GUARD_MS)
    if (!('geolocation' in navigator)) return fail(ERROR_LOGS[2])
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const at = { latitude: position.coords.latitude, longitude: position.coords.longitude }
        if (!isValidCoordinates(at)) return fail(ERROR_LOGS[2])
        finish({ ...at, name: 'Your location', isActualLocation: true }, false)
      },
      (error) => fail(ERROR_LOGS[error.code] ?? ERROR_LOGS[2]),
      { timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: GEOLOCATION_MAX_AGE_MS, enableHighAccuracy: GEOLOCATION_HIGH_ACCURACY },
    )
  })
}

import { describe, expect, it } from 'vitest'
import {
  DEVICE_ENTRY_MESSAGES,
  USER_CODE_ALPHABET,
  describeAskedAt,
  describeNetworkAddress,
  describeUserAgent,
  deviceCodeState,
  deviceEntrySchema,
  entryRefusal,
  formatUserCode,
  makeUserCode,
  normaliseUserCode,
  type DeviceCodeState,
  type DeviceCodeStatus,
} from './device-code'

describe('the user code alphabet', () => {
  it.each(['0', 'O', 'Q', '1', 'I', 'L', '2', '5', '6', '8', 'A', 'E', 'U'])('has no %s', (c) => {
    expect(USER_CODE_ALPHABET).not.toContain(c)
  })
  it('has 22 distinct characters', () => {
    expect(new Set(USER_CODE_ALPHABET).size).toBe(22)
  })
})

describe('makeUserCode and formatUserCode', () => {
  it.each([
    [() => 0, 'BBBBBBBB', 'BBBB-BBBB'],
    [(max: number) => max - 1, '99999999', '9999-9999'],
  ])('draws each of 8 characters from the alphabet', (random, code, shown) => {
    expect(makeUserCode(random)).toBe(code)
    expect(formatUserCode(code)).toBe(shown)
  })
  it('asks for an index below the alphabet length', () => {
    const asked: number[] = []
    makeUserCode((max) => (asked.push(max), 3))
    expect(asked).toEqual(Array(8).fill(USER_CODE_ALPHABET.length))
  })
})

describe('normaliseUserCode', () => {
  it.each([
    ['BCDF-GHJK', 'BCDFGHJK'],
    ['bcdfghjk', 'BCDFGHJK'],
    ['  bcdf-ghjk  ', 'BCDFGHJK'],
    ['bcdf ghjk', 'BCDFGHJK'],
    ['BCDF--GHJK', 'BCDFGHJK'],
    ['3479-ZXWV', '3479ZXWV'],
    ['BCDF-GHJ', null],
    ['BCDF-GHJKM', null],
    ['BCDF-GHJ0', null],
    ['BCDF-GHJO', null],
    ['BCDF-GHJL', null],
    ['ABCD-EFGH', null],
    ['', null],
    ['BCDF_GHJK', null],
    [`${' '.repeat(40)}BCDFGHJK`, null],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseUserCode(input)).toBe(expected)
  })
})

describe('deviceCodeState and entryRefusal', () => {
  const now = new Date('2026-12-01T12:00:00Z')
  const later = '2026-12-01T12:05:00Z'
  const earlier = '2026-12-01T11:59:59Z'
  it.each<[DeviceCodeStatus, string, DeviceCodeState, string | null]>([
    ['pending', later, 'pending', null],
    ['pending', earlier, 'expired', DEVICE_ENTRY_MESSAGES.expired],
    ['pending', now.toISOString(), 'expired', DEVICE_ENTRY_MESSAGES.expired],
    ['approved', later, 'approved', DEVICE_ENTRY_MESSAGES.used],
    ['approved', earlier, 'expired', DEVICE_ENTRY_MESSAGES.expired],
    ['denied', later, 'denied', DEVICE_ENTRY_MESSAGES.used],
    ['denied', earlier, 'denied', DEVICE_ENTRY_MESSAGES.used],
    ['used', later, 'used', DEVICE_ENTRY_MESSAGES.used],
    ['used', earlier, 'used', DEVICE_ENTRY_MESSAGES.used],
  ])('%s, expiring %s: %s', (status, expiresAt, state, refusal) => {
    expect(deviceCodeState({ status, expiresAt }, now)).toBe(state)
    expect(entryRefusal(state)).toBe(refusal)
  })
  it('refuses an unknown code as not valid', () => {
    expect(entryRefusal(null)).toBe('That code is not valid. Check it and try again.')
  })
})

describe('describeUserAgent', () => {
  it.each([
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Safari on iPhone'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1', 'Chrome on iPhone'],
    ['Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Safari on iPad'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 'Safari on macOS'],
    ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', 'Samsung Internet on Android'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0', 'Opera on Windows'],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on ChromeOS'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) VeWorld/2.1 Chrome/131.0 Mobile Safari/537.36', 'VeWorld on Android'],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'A browser on Linux'],
    ['curl/8.5.0', 'An unknown browser'],
    ['', 'An unknown browser'],
    [null, 'An unknown browser'],
  ])('%j -> %s', (ua, expected) => {
    expect(describeUserAgent(ua)).toBe(expected)
  })
})

describe('describeAskedAt', () => {
  const created = '2026-12-01T14:02:30Z'
  it.each([
    ['2026-12-01T14:02:50Z', 'just now (14:02 UTC)'],
    ['2026-12-01T14:03:30Z', '1 minute ago (14:02 UTC)'],
    ['2026-12-01T14:09:31Z', '7 minutes ago (14:02 UTC)'],
    ['2026-12-01T14:00:00Z', 'just now (14:02 UTC)'],
  ])('at %s: %s', (now, expected) => {
    expect(describeAskedAt(created, new Date(now))).toBe(expected)
  })
})

describe('describeNetworkAddress', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['2001:db8:0:42::/64', '2001:db8:0:42::/64'],
    ['0:0:0:0::/64', null],
    ['127.0.0.1', null],
    [null, null],
  ])('%s -> %s', (key, expected) => {
    expect(describeNetworkAddress(key)).toBe(expected)
  })
})

describe('deviceEntrySchema', () => {
  it.each([
    [{ code: 'bcdf-ghjk' }, { code: 'BCDFGHJK', intent: 'lookup' }],
    [{ code: ' BCDF GHJK ', intent: 'approve' }, { code: 'BCDFGHJK', intent: 'approve' }],
    [{ code: 'BCDF-GHJK', intent: 'deny' }, { code: 'BCDFGHJK', intent: 'deny' }],
  ])('%j is read as %j', (input, expected) => {
    expect(deviceEntrySchema.parse(input)).toEqual(expected)
  })

  it.each([
    [{ code: 'BCDF-GHJ0' }, DEVICE_ENTRY_MESSAGES.invalid],
    [{ code: 'x'.repeat(40) }, DEVICE_ENTRY_MESSAGES.invalid],
    [{}, DEVICE_ENTRY_MESSAGES.missing],
    [{ code: 'BCDF-GHJK', intent: 'steal' }, null],
  ])('%j is refused', (input, message) => {
    const parsed = deviceEntrySchema.safeParse(input)
    expect(parsed.success).toBe(false)
    if (message && !parsed.success) expect(parsed.error.issues[0].message).toBe(message)
  })
})

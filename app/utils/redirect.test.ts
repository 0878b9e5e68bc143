import { describe, expect, it } from 'vitest'
import { safeRedirectTo } from './redirect'

describe('safeRedirectTo', () => {
  it.each([
    ['/profile', '/profile'],
    ['/', '/'],
    ['/transactions?page=2&q=uber', '/transactions?page=2&q=uber'],
    ['/help#faq', '/help#faq'],
    ['/stores/12', '/stores/12'],
    ['/a/../profile', '/profile'],
    ['/search?q=caf%C3%A9', '/search?q=caf%C3%A9'],
    ['/search?q=café', '/search?q=caf%C3%A9'],
    ['/100%25', '/100%25'],
  ])('keeps the same-site path %j as %j', (to, expected) => {
    expect(safeRedirectTo(to)).toBe(expected)
  })

  it.each([
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with a path', '//evil.com/phish'],
    ['backslash', '/\\evil.com'],
    ['backslashes only', '\\\\evil.com'],
    ['encoded backslash', '/%5Cevil.com'],
    ['tab', '/\t/evil.com'],
    ['encoded tab', '/%09/evil.com'],
    ['CR LF', '/\r\n/evil.com'],
    ['encoded CR LF', '/%0d%0a/evil.com'],
    ['LF', '/home\nSet-Cookie: x=1'],
    ['encoded LF', '/home%0ASet-Cookie:%20x=1'],
    ['NUL', '/\u0000/evil.com'],
    ['DEL', '/\u007f/evil.com'],
    ['encoded slash after slash', '/%2F/evil.com'],
    ['dot segment to a double slash', '/.//evil.com'],
    ['parent segment to a double slash', '/a/..//evil.com'],
    ['absolute URL', 'https://evil.com'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['scheme with slash', 'http:/evil.com'],
    ['relative path', 'profile'],
    ['empty', ''],
    ['leading space', ' /profile'],
    ['malformed percent escape', '/%E0%A4%A'],
  ])('refuses %s (%j)', (_name, to) => {
    expect(safeRedirectTo(to)).toBe('/home')
  })

  it.each([null, undefined, 42, {}])('refuses a non-string %j', (to) => {
    expect(safeRedirectTo(to as never)).toBe('/home')
  })

  it('uses the given fallback', () => {
    expect(safeRedirectTo('//evil.com', '/')).toBe('/')
  })

  it('always answers a value a Location header can carry', () => {
    for (const to of ['/\r\n', '/é', '/%0d', '/\u2028', '/\ud800']) {
      expect(() => new Headers({ Location: safeRedirectTo(to) })).not.toThrow()
    }
  })
})

import { describe, expect, it } from 'vitest'
import { isPhoneBrowser, veWorldLink } from './veworld-link'

describe('opening ReCircle in VeWorld from a phone (issue 22)', () => {
  it('builds the universal link with the page URL encoded', () => {
    expect(veWorldLink('https://recircle.app/connect-wallet?redirectTo=/scan')).toBe(
      'https://www.veworld.com/discover/browser/ul/https%3A%2F%2Frecircle.app%2Fconnect-wallet%3FredirectTo%3D%2Fscan',
    )
  })
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1', true],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36', true],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36', false],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15', false],
  ])('%s is a phone: %s', (ua, phone) => {
    expect(isPhoneBrowser(ua)).toBe(phone)
  })
})

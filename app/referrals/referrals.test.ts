import { describe, expect, it } from 'vitest'
import { inviteLink, mailtoHref, normalizeReferralCode, smsHref, socialShareLinks } from './referrals'

describe('normalizeReferralCode', () => {
  it.each([
    ['ABCD2345', 'ABCD2345'],
    [' abcd2345 ', 'ABCD2345'],
    ['abc', null],
    ['ABCD-2345', null],
    ['A'.repeat(17), null],
    ['', null],
    [null, null],
  ])('%j -> %j', (raw, code) => {
    expect(normalizeReferralCode(raw)).toBe(code)
  })
})

describe('invitation links', () => {
  const link = inviteLink('https://recircle.test', 'ABCD2345')
  it('builds /join?ref=CODE', () => {
    expect(link).toBe('https://recircle.test/join?ref=ABCD2345')
  })
  it('opens the messaging and mail apps with the link', () => {
    expect(smsHref('+1 (555) 123-4567', link)).toMatch(/^sms:%2B15551234567\?&body=.*recircle\.test%2Fjoin%3Fref%3DABCD2345$/)
    const mail = mailtoHref('friend@example.com', link, 'Try this!')
    expect(mail.startsWith('mailto:friend@example.com?subject=Join%20me%20on%20ReCircle&body=Try%20this%21')).toBe(true)
    expect(decodeURIComponent(mail)).toContain(link)
  })
  it('shares on X, Facebook and WhatsApp with the link', () => {
    const share = socialShareLinks(link)
    expect(decodeURIComponent(share.x)).toContain(link)
    expect(decodeURIComponent(share.facebook)).toContain(link)
    expect(decodeURIComponent(share.whatsapp)).toContain(link)
  })
})

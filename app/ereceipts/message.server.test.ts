import { describe, expect, it } from 'vitest'
import { domainOf, looksLikeEmail } from './message.server'

describe('telling an e-mail from a photo (issue 21)', () => {
  it.each([
    ['a receipt e-mail', 'DKIM-Signature: v=1; d=uber.com\r\nFrom: Uber <noreply@uber.com>\r\nTo: a@b.c\r\n\r\nbody', true],
    ['an e-mail with LF line ends', 'Received: from x\n\tby y\nFrom: a@b.c\nSubject: hi\n\nbody', true],
    ['plain text', 'Total $12.00\nThanks for riding\n', false],
    ['one header line', 'From: a@b.c\r\n\r\nbody', false],
    ['a PNG', '\x89PNG\r\n\x1a\n....', false],
    // Issue 39: refused as an e-mail whose header section is too large, not as a picture.
    ['an e-mail whose first header is 70 KB', `X-Pad: ${'a'.repeat(70 * 1024)}\r\nFrom: a@b.c\r\n\r\nbody`, true],
    ['a long line of text', 'a'.repeat(70 * 1024), false],
  ])('%s → %s', (_name, text, expected) => {
    expect(looksLikeEmail(Buffer.from(text, 'latin1'))).toBe(expected)
  })

  it.each([
    ['noreply@uber.com', 'uber.com'],
    ['No-Reply@LI.ME', 'li.me'],
    ['nobody', null],
    [null, null],
  ])('the domain of %s is %s', (address, domain) => {
    expect(domainOf(address)).toBe(domain)
  })
})

import { describe, expect, it } from 'vitest'
import { gmailFilterQuery, senderDomains } from './forwarding-guide'

describe('the forwarding guide (issue 39)', () => {
  const senders = [
    { name: 'Uber', domains: ['uber.com'] },
    { name: 'Lyft', domains: ['lyftmail.com'] },
    { name: 'Lime', domains: ['li.me'] },
    { name: 'Zipcar', domains: ['zipcar.com', 'Mail.Zipcar.com', 'uber.com'] },
  ]
  it('builds the Gmail filter from every supported sender domain, once each', () => {
    expect(senderDomains(senders)).toEqual(['li.me', 'lyftmail.com', 'mail.zipcar.com', 'uber.com', 'zipcar.com'])
    expect(gmailFilterQuery(senders)).toBe('from:(li.me OR lyftmail.com OR mail.zipcar.com OR uber.com OR zipcar.com)')
  })
})

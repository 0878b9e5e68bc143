import { describe, expect, it } from 'vitest'
import { BUILT_IN_SENDERS, domainWithin, parseSenderConfig, SenderConfigError, senderFor, senderTable } from '~/analysis/senders'

describe('sender domains (issue 21)', () => {
  const table = senderTable(parseSenderConfig('Bird=bird.co;Zipcar=zipcar.com,mail.zipcar.com'))

  it.each([
    ['uber.com', 'Uber'],
    ['mgt.uber.com', 'Uber'],
    ['UBER.COM.', 'Uber'],
    ['lyftmail.com', 'Lyft'],
    ['li.me', 'Lime'],
    ['bird.co', 'Bird'],
    ['mail.zipcar.com', 'Zipcar'],
    ['notuber.com', null],
    ['uber.com.evil.example', null],
    ['lyft.com', null],
    ['me', null],
  ])('%s speaks for %s', (domain, vendor) => {
    expect(senderFor(table, domain)?.vendor.name ?? null).toBe(vendor)
  })

  it('lists only the samples confirmed in the decision', () => {
    expect(BUILT_IN_SENDERS).toEqual({ Uber: ['uber.com'], Lyft: ['lyftmail.com'], Lime: ['li.me'], Bolt: ['bolt.eu'] })
  })

  it.each([
    ['Bird', /must read Name=domain/],
    ['Walmart=walmart.com', /not a known transport service/],
    ['Shell=shell.com', /not a known transport service/],
    ['Bird=not a domain', /must list domain names/],
    ['Bird=', /must list domain names/],
  ])('refuses the configuration %s', (value, message) => {
    expect(() => parseSenderConfig(value)).toThrow(SenderConfigError)
    expect(() => parseSenderConfig(value)).toThrow(message)
  })

  it('adds configured domains to a built-in service without dropping its own', () => {
    const extended = senderTable(parseSenderConfig('Uber=uber-receipts.example'))
    expect(extended.find((s) => s.vendor.name === 'Uber')?.domains).toEqual(['uber.com', 'uber-receipts.example'])
  })

  it('matches whole labels only', () => {
    expect(domainWithin('a.b.uber.com', 'uber.com')).toBe(true)
    expect(domainWithin('xuber.com', 'uber.com')).toBe(false)
  })
})

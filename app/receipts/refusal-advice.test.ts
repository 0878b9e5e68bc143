import { describe, expect, it } from 'vitest'
import { refusalAdvice, type RefusalAction } from '~/receipts/refusal-advice'

const cases: Array<[string | null, number, RefusalAction, string | null]> = [
  ['unknown_sender', 422, 'none', '/e-receipts'],
  ['bad_signature', 422, 'none', null],
  ['food_order', 422, 'none', null],
  ['daily_limit', 429, 'none', null],
  ['duplicate', 409, 'none', null],
  ['unreadable', 422, 'retake', null],
  [null, 503, 'retry', null],
  [null, 400, 'retake', null],
]

describe('what the user can do about a refusal (issue 32)', () => {
  it.each(cases)('%s (%i): %s, link %s', (code, status, action, href) => {
    const advice = refusalAdvice(code, status)
    expect(advice.action).toBe(action)
    expect(advice.link?.href ?? null).toBe(href)
  })

  it('links the supported senders where the advice names the E-receipts page', () => {
    expect(refusalAdvice('unknown_sender', 422).link).toEqual({ href: '/e-receipts', label: 'Supported e-receipts' })
  })
})

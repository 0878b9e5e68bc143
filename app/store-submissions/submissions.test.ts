import { describe, expect, it } from 'vitest'
import { decisionSchema, storeSubmissionSchema } from '~/store-submissions/submissions'

describe('storeSubmissionSchema', () => {
  const valid = { name: ' Reuse Hub ', address: '1 Main St', city: 'Tucson', state: 'az', storeType: 'clothing' }
  it('trims and upper-cases a two-letter state', () => {
    expect(storeSubmissionSchema.parse(valid)).toEqual({ name: 'Reuse Hub', address: '1 Main St', city: 'Tucson', state: 'AZ', storeType: 'clothing' })
    expect(storeSubmissionSchema.parse({ ...valid, state: 'Arizona' }).state).toBe('Arizona')
  })
  it.each([
    [{ name: '' }, 'Please enter the store name'],
    [{ address: ' ' }, 'Please enter the street address'],
    [{ city: undefined }, 'Please enter the city'],
    [{ state: 'A' }, 'Please enter the state'],
    [{ storeType: 'casino' }, 'Please choose a store type'],
    [{ name: 'x'.repeat(121) }, 'The name can be at most 120 characters'],
  ])('refuses %j with "%s"', (change, message) => {
    const result = storeSubmissionSchema.safeParse({ ...valid, ...change })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(message)
  })
})

describe('decisionSchema', () => {
  it('needs a reason to reject, none to approve', () => {
    expect(decisionSchema.parse({ intent: 'approve', submissionId: '7' })).toEqual({ intent: 'approve', submissionId: 7 })
    expect(decisionSchema.safeParse({ intent: 'reject', submissionId: '7', reason: '  ' }).success).toBe(false)
    expect(decisionSchema.parse({ intent: 'reject', submissionId: '7', reason: ' Closed ' })).toEqual({ intent: 'reject', submissionId: 7, reason: 'Closed' })
    expect(decisionSchema.safeParse({ intent: 'delete', submissionId: '7' }).success).toBe(false)
    expect(decisionSchema.safeParse({ intent: 'approve', submissionId: '-1' }).success).toBe(false)
  })
})

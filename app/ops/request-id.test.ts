import { describe, expect, it } from 'vitest'
import { requestIdFor } from './request-id'

const generate = () => 'generated'

describe('requestIdFor', () => {
  it.each([
    ['a proxy id behind a trusted proxy', 'f3b1c2d4-0000-4000-8000-000000000001', true, 'f3b1c2d4-0000-4000-8000-000000000001'],
    ['an AWS-style trace id', 'Root=1-67891233-abcdef012345678912345678', true, 'Root=1-67891233-abcdef012345678912345678'],
    ['the first of repeated headers', ['first-id', 'second-id'], true, 'first-id'],
    ['a client-chosen id without a trusted proxy', 'chosen-by-client', false, 'generated'],
    ['no header', undefined, true, 'generated'],
    ['an empty header', '', true, 'generated'],
    ['a header with spaces or quotes (log injection)', 'id" level=fatal', true, 'generated'],
    ['a header with a newline', 'id\n{"level":60}', true, 'generated'],
    ['a header over 128 characters', 'x'.repeat(129), true, 'generated'],
    ['a header of exactly 128 characters', 'x'.repeat(128), true, 'x'.repeat(128)],
  ] as const)('%s', (_name, header, trustProxy, expected) => {
    expect(requestIdFor(header as string | string[] | undefined, trustProxy, generate)).toBe(expected)
  })
})

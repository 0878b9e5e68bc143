import { describe, expect, it } from 'vitest'
import { isCrossOriginWrite } from './csrf.server'

describe('isCrossOriginWrite', () => {
  it.each([
    ['POST', 'http://evil.example', 'http://localhost:3000', true],
    ['POST', 'http://localhost:3001', 'http://localhost:3000', true],
    ['POST', 'https://localhost:3000', 'http://localhost:3000', true],
    ['DELETE', 'null', 'http://localhost:3000', true],
    ['POST', 'http://localhost:3000', 'http://localhost:3000', false],
    ['POST', 'HTTP://LOCALHOST:3000', 'http://localhost:3000', false],
    ['POST', undefined, 'http://localhost:3000', false],
    ['GET', 'http://evil.example', 'http://localhost:3000', false],
    ['HEAD', 'http://evil.example', 'http://localhost:3000', false],
  ])('%s from %s to %s → %s', (method, origin, requestOrigin, expected) => {
    expect(isCrossOriginWrite(method, origin, requestOrigin)).toBe(expected)
  })
})

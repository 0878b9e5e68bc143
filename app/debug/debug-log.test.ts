import { describe, expect, it } from 'vitest'
import { DEBUG_LOG_LIMITS, fitDebugLog, parseDebugLogBody } from './debug-log'

const ok = { logs: ['one', 'two'], userAgent: 'UA', timestamp: '2026-01-02T03:04:05.000Z', testType: 'debug-console' }

describe('parseDebugLogBody', () => {
  it.each([
    ['a valid log', JSON.stringify(ok), true, undefined],
    ['without the optional fields', JSON.stringify({ logs: ['x'] }), true, undefined],
    ['not JSON', '{logs:', false, 400],
    ['logs not a list', JSON.stringify({ ...ok, logs: 'x' }), false, 400],
    ['a line that is not text', JSON.stringify({ ...ok, logs: ['a', 1] }), false, 400],
    ['an empty log', JSON.stringify({ ...ok, logs: [] }), false, 400],
    ['a bad timestamp', JSON.stringify({ ...ok, timestamp: 'yesterday' }), false, 400],
    ['too many lines', JSON.stringify({ ...ok, logs: Array(DEBUG_LOG_LIMITS.maxLines + 1).fill('x') }), false, 413],
    ['a too long line', JSON.stringify({ ...ok, logs: ['x'.repeat(DEBUG_LOG_LIMITS.maxLineChars + 1)] }), false, 413],
    ['a too large body', JSON.stringify({ ...ok, logs: Array(40).fill('é'.repeat(1000)) }), false, 413],
  ])('%s', (_name, body, expectedOk, status) => {
    const result = parseDebugLogBody(body)
    expect(result.ok).toBe(expectedOk)
    if (!result.ok) {
      expect(result.status).toBe(status)
      expect(result.message).toBeTruthy()
    }
  })
})

describe('fitDebugLog', () => {
  it('keeps the newest lines that fit and cuts long lines, so the server accepts it', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `${i} ${'x'.repeat(i % 7 === 0 ? 5000 : 100)}`)
    const fitted = fitDebugLog(lines)
    expect(fitted.length).toBeLessThanOrEqual(DEBUG_LOG_LIMITS.maxLines)
    expect(fitted.at(-1)?.startsWith('499 ')).toBe(true)
    expect(parseDebugLogBody(JSON.stringify({ ...ok, logs: fitted })).ok).toBe(true)
  })
})

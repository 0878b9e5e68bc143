import { describe, expect, it } from 'vitest'
import { analysisOutcome, readerLabel } from './outcome'

describe('analysisOutcome', () => {
  it.each([
    ['a clean transport receipt', { analysis: { isAcceptable: true, needsManualReview: false } }, 'auto'],
    ['an unsure reading', { analysis: { isAcceptable: false, needsManualReview: true } }, 'review'],
    ['nothing readable (manual entry)', { analysis: { isAcceptable: false, needsManualReview: true, isValid: false } }, 'review'],
    ['a fuel receipt', { analysis: { isAcceptable: false, needsManualReview: false } }, 'refused'],
    ['a photo refused before reading', { error: new Error('too small'), photoRefused: true }, 'retake'],
    ['a cancelled or crashed analysis', { error: new Error('aborted'), photoRefused: false }, 'failed'],
    ['an e-mail whose signature does not verify', { error: new Error('bad signature'), photoRefused: false, emailRefused: true }, 'refused'],
  ] as const)('%s → %s', (_name, input, expected) => {
    expect(analysisOutcome(input)).toBe(expected)
  })
})

describe('readerLabel', () => {
  it.each([
    [{ reader: 'tesseract' }, 'tesseract'],
    [{ reader: 'paddleocr' }, 'paddleocr'],
    [{ reader: 'email' }, 'email'],
    [{ reader: 'something else' }, 'none'],
    [{}, 'none'],
    [null, 'none'],
  ])('%j → %s', (analysis, expected) => {
    expect(readerLabel(analysis)).toBe(expected)
  })
})

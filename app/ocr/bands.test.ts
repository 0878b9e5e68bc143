import { describe, expect, test } from 'vitest'
import { bandsOf, cutAtBlankRows, inkBlocks, inkRows, pagePieces } from '~/ocr/bands'

/** Ink flags from a pattern: '#' a row with ink, '.' a blank one, each repeated `n` times. */
const rows = (...parts: Array<[string, number]>) => Uint8Array.from(parts.flatMap(([c, n]) => Array(n).fill(c === '#' ? 1 : 0)))

describe('inkBlocks', () => {
  test.each([
    ['one line', rows(['.', 5], ['#', 10], ['.', 5]), [{ start: 5, end: 15 }]],
    ['a short gap joins', rows(['#', 10], ['.', 20], ['#', 10]), [{ start: 0, end: 40 }]],
    ['a long gap separates', rows(['#', 10], ['.', 60], ['#', 10]), [{ start: 0, end: 10 }, { start: 70, end: 80 }]],
    ['no ink', rows(['.', 50]), []],
  ])('%s', (_, ink, blocks) => {
    expect(inkBlocks(ink, 48)).toEqual(blocks)
  })
})

describe('bandsOf', () => {
  const o = { maxHeight: 100, minGap: 48, margin: 2, overlap: 20 }

  test('blocks that fit are packed into one band; blank stretches between bands are skipped', () => {
    const ink = rows(['.', 10], ['#', 30], ['.', 50], ['#', 10], ['.', 400], ['#', 10], ['.', 10])
    expect(bandsOf(ink, o)).toEqual([
      { start: 8, end: 102, ownStart: 8, ownEnd: 102 },
      { start: 498, end: 512, ownStart: 498, ownEnd: 512 },
    ])
  })

  test('every inked row is in a band and owned by exactly one', () => {
    const ink = rows(['#', 250], ['.', 300], ['#', 30], ['.', 50], ['#', 10], ['.', 5])
    const bands = bandsOf(ink, o)
    for (const b of bands) expect(b.end - b.start).toBeLessThanOrEqual(o.maxHeight)
    ink.forEach((v, y) => {
      if (!v) return
      expect(bands.filter((b) => y >= b.ownStart && y < b.ownEnd)).toHaveLength(1)
    })
    // The 250-row block in overlapping pieces, then the two short blocks packed together.
    expect(bands.length).toBe(4)
    expect(bands[3]).toMatchObject({ start: 548, end: 642 })
  })
})

describe('inkRows', () => {
  test('text is ink; a flat panel and a page colour are not', () => {
    const width = 100
    const height = 4
    const data = new Uint8Array(width * height * 3).fill(255)
    // Row 1: a grey panel; row 2: dark text on it; row 3: white.
    data.fill(230, width * 3, width * 6)
    data.fill(230, width * 6, width * 9)
    data.fill(20, width * 6 + 30, width * 6 + 45)
    expect([...inkRows(data, width, height, 3)]).toEqual([0, 0, 1, 0])
  })
})

describe('cutAtBlankRows and pagePieces', () => {
  const ink = rows(['#', 30], ['.', 5], ['#', 30], ['.', 5], ['#', 30], ['.', 5], ['#', 10])
  test('pieces cover every row once, cut at a blank row, none over the limit', () => {
    const pieces = cutAtBlankRows(ink, 50)
    expect(pieces[0]).toEqual({ start: 0, end: 34 })
    for (let i = 1; i < pieces.length; i++) expect(pieces[i].start).toBe(pieces[i - 1].end)
    expect(pieces[pieces.length - 1].end).toBe(ink.length)
    for (const p of pieces) expect(p.end - p.start).toBeLessThanOrEqual(50)
  })

  test('the footer is a piece of its own', () => {
    const pieces = pagePieces(ink, 50, 12)
    expect(pieces[pieces.length - 1]).toEqual({ start: 103, end: 115 })
    expect(pieces[pieces.length - 2].end).toBe(103)
  })
})

import { describe, expect, it } from 'vitest'
import { cleanLine, rebuildLines, textRunDirection, type TextBox } from './paddle-text'

/** A box `w` wide and `h` tall whose top-left corner is (x, y), turned by `degrees` about the origin. */
function box(text: string, x: number, y: number, w: number, h = 20, degrees = 0, confidence = 0.95): TextBox {
  const rad = (degrees * Math.PI) / 180
  const turn = (px: number, py: number) => ({ x: px * Math.cos(rad) - py * Math.sin(rad), y: px * Math.sin(rad) + py * Math.cos(rad) })
  return { text, confidence, points: [turn(x, y), turn(x + w, y), turn(x + w, y + h), turn(x, y + h)] }
}

describe('rebuildLines', () => {
  it('puts a label and its amount on one line, left to right, and keeps lines in reading order', () => {
    const lines = rebuildLines([box('$12.40', 400, 102, 80), box('Total', 20, 100, 90), box('Lyft', 20, 20, 60), box('Visa 4417', 20, 180, 140)])
    expect(lines.map((l) => l.text)).toEqual(['Lyft', 'Total  $12.40', 'Visa 4417'])
  })

  it('removes the page skew first: on a tilted photo the amount still joins its label', () => {
    // 6 degrees over 400 px puts "$12.40" 42 px lower than "Total": more than a line height.
    const tilted = [box('Trip receipt', 20, 20, 300, 20, 6), box('Total', 20, 100, 90, 20, 6), box('$12.40', 400, 100, 80, 20, 6), box('Cash', 20, 180, 80, 20, 6)]
    expect(rebuildLines(tilted).map((l) => l.text)).toEqual(['Trip receipt', 'Total  $12.40', 'Cash'])
  })

  it('keeps the lowest score of a line, on tesseract 0..100 scale, and skips empty boxes', () => {
    const lines = rebuildLines([box('Total', 20, 100, 90, 20, 0, 0.99), box('$9.00', 300, 100, 80, 20, 0, 0.71), box('  ', 20, 200, 50)])
    expect(lines).toEqual([{ text: 'Total  $9.00', confidence: 71, digitConfidence: null, digitScores: null }])
  })

  it('keeps the lowest digit score of a line', () => {
    const total = { ...box('$9.00', 300, 100, 80, 20, 0, 0.95), digitConfidence: 0.612 }
    const label = { ...box('Total', 20, 100, 90, 20, 0, 0.99), digitConfidence: null }
    expect(rebuildLines([label, total])).toEqual([{ text: 'Total  $9.00', confidence: 95, digitConfidence: 61.2, digitScores: null }])
  })

  it("keeps each digit's score in the line's order, when every box was scored digit by digit", () => {
    const date = { ...box('2023年12月148', 300, 100, 200, 20, 0, 0.92), digitConfidence: 0.57, digitScores: [1, 0.94, 1, 0.99, 1, 1, 1, 1, 0.57] }
    const label = { ...box('日期：', 20, 100, 60, 20, 0, 0.99), digitConfidence: null, digitScores: [] }
    const time = { ...box('14:08', 600, 100, 60, 20, 0, 0.99), digitConfidence: 0.9, digitScores: [0.9, 1, 1, 1] }
    expect(rebuildLines([label, date, time])[0].digitScores).toEqual([100, 94, 100, 99, 100, 100, 100, 100, 57, 90, 100, 100, 100])
    // A box whose scores do not match its digits: none for the line.
    expect(rebuildLines([label, { ...date, digitScores: [1, 1] }])[0].digitScores).toBeNull()
  })

  describe("a form whose values were printed lower than its labels (issue 37)", () => {
    // PaddleOCR's boxes on the corpus's shenzhen-taxi-cn-05 (a Shenzhen taxi invoice): x, top,
    // width, height of each label and of the meter's value half a row under it.
    const rows: Array<[string, number, number, number, number, string, number, number, number, number]> = [
      ['日期：', 58, 540, 56, 29, '2023年12月16日', 167, 554, 145, 28],
      ['上车：', 57, 571, 57, 29, '14:54', 244, 587, 68, 29],
      ['下车：', 58, 603, 56, 28, '15:00', 244, 620, 68, 28],
      ['单价：', 58, 635, 56, 29, '2.70元', 237, 651, 75, 32],
      ['里程：', 61, 669, 53, 25, '2.75KM', 223, 685, 88, 28],
      ['等候：', 58, 699, 58, 29, '00:02:35', 206, 715, 106, 31],
      ['金额：', 60, 730, 56, 29, '￥14.50元', 210, 746, 101, 31],
    ]
    const boxesOf = (lower = true) =>
      rows.flatMap(([label, lx, ly, lw, lh, value, vx, vy, vw, vh]) => [box(label, lx, ly, lw, lh), box(value, vx, lower ? vy : ly, vw, vh)])

    it('pairs each value with its own label', () => {
      expect(rebuildLines(boxesOf()).map((l) => l.text)).toEqual([
        '日期:  2023年12月16日',
        '上车:  14:54',
        '下车:  15:00',
        '单价:  2.70元',
        '里程:  2.75KM',
        '等候:  00:02:35',
        '金额:  ￥14.50元',
      ])
    })

    it('leaves a form printed high as it is: half a row low cannot be told from half a row high', () => {
      const high = rows.flatMap(([label, lx, ly, lw, lh, value, vx, , vw, vh]) => [box(label, lx, ly, lw, lh), box(value, vx, ly - 12, vw, vh)])
      const lines = rebuildLines(high).map((l) => l.text)
      expect(lines).toContain('金额:  ￥14.50元')
      expect(lines).toContain('单价:  2.70元')
    })

    it('leaves a form printed in line as it is', () => {
      const lines = rebuildLines(boxesOf(false)).map((l) => l.text)
      expect(lines).toContain('金额:  ￥14.50元')
      expect(lines).toContain('上车:  14:54')
    })
  })

  it('returns no lines for no boxes', () => {
    expect(rebuildLines([])).toEqual([])
  })
})

describe('cleanLine', () => {
  it.each([
    ['Jan4,2026at10:07AM', 'Jan 4, 2026 at 10:07 AM'],
    ['Mar 22.2026', 'Mar 22, 2026'],
    ['DATE JUN 19.2026  14:33', 'DATE JUN 19, 2026  14:33'],
    ['DATEJUL7.2026  11:33', 'DATE JUL 7, 2026  11:33'],
    ['Jun 15，2026', 'Jun 15, 2026'],
    ['22 Mar.2026', '22 Mar. 2026'],
    ['Septerber 2, 2026', 'September 2, 2026'],
    ['Total$12.40', 'Total $12.40'],
    ['fare12.40', 'fare 12.40'],
    ['TotalCharged  $ 8.10', 'Total Charged  $8.10'],
    ['Total：＄12．40', 'Total:$12.40'],
    ['12 .40', '12.40'],
  ])('%s -> %s', (raw, clean) => {
    expect(cleanLine(raw)).toBe(clean)
  })

  it('leaves clean lines and numbers that are not amounts alone', () => {
    expect(cleanLine('Visa ending in 4417')).toBe('Visa ending in 4417')
    expect(cleanLine('Trip 14 min, 3.2 mi')).toBe('Trip 14 min, 3.2 mi')
    expect(cleanLine('Marches 12')).toBe('Marches 12')
    expect(cleanLine('SMARTFARE  $12.16')).toBe('SMARTFARE  $12.16')
  })
})

describe('textRunDirection (issue 23: which turns of a photo are worth reading)', () => {
  const page = (degrees: number) => [box('Lyft', 20, 20, 60, 20, degrees), box('Total', 20, 100, 90, 20, degrees), box('$12.40', 400, 100, 80, 20, degrees), box('Visa 4417', 20, 180, 140, 20, degrees)]

  it('text lines lying across the page, tilted or upside down: across', () => {
    expect(textRunDirection(page(0))).toBe('across')
    expect(textRunDirection(page(8))).toBe('across')
    expect(textRunDirection(page(180))).toBe('across')
  })

  it('a photo turned a quarter either way: down', () => {
    expect(textRunDirection(page(90))).toBe('down')
    expect(textRunDirection(page(-90))).toBe('down')
  })

  it('too few long boxes, or no agreement: unknown', () => {
    expect(textRunDirection([])).toBeNull()
    expect(textRunDirection(page(0).slice(0, 2))).toBeNull()
    // Square boxes (single characters, noise) say nothing.
    expect(textRunDirection([box('a', 0, 0, 20), box('b', 40, 0, 20), box('c', 80, 0, 20), box('d', 120, 0, 20)])).toBeNull()
    expect(textRunDirection([...page(0).slice(0, 2), ...page(90).slice(0, 2)])).toBeNull()
    // Boxes of no size say nothing either.
    expect(textRunDirection([box('', 5, 5, 0, 0), box('', 9, 9, 0, 0), box('', 1, 1, 0, 0)])).toBeNull()
  })
})

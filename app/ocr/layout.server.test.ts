/**
 * The text's row height (issue 37): a page in two columns whose lines do not line up, drawn as
 * word-sized blocks the way a real Ola invoice prints its fare breakup beside its tax breakup (and a
 * DB ticket its table beside its code), measured on the small copy as preprocessing does.
 */
import { describe, expect, it } from 'vitest'
import { analyseLayout } from './layout.server'

type Grey = { data: Uint8Array; width: number; height: number }

/** White page; dark blocks of `rowHeight` rows every `pitch` rows, from `top`, between columns x0..x1. */
function page(width: number, height: number, columns: Array<{ x0: number; x1: number; top: number; pitch: number }>, rowHeight: number): Grey {
  const data = new Uint8Array(width * height).fill(245)
  for (const c of columns) {
    for (let top = c.top; top + rowHeight < height - 10; top += c.pitch) {
      for (let y = top; y < top + rowHeight; y++) {
        // Words: 30 px of ink, 8 px of space.
        for (let x = c.x0; x < c.x1; x++) if ((x - c.x0) % 38 < 30) data[y * width + x] = 20
      }
    }
  }
  return { data, width, height }
}

const layout = (g: Grey) => analyseLayout(g, { crop: false, deskew: false })

describe("the text's row height", () => {
  it('a page in one column: its rows', () => {
    expect(layout(page(500, 700, [{ x0: 40, x1: 460, top: 20, pitch: 24 }], 10)).lineHeight).toBe(10)
  })

  it("two columns whose lines interleave: one column's rows, not the run of both across the page", () => {
    // Both columns: rows 10 px tall every 16 px, the right one 8 px lower. Across the whole width
    // each column's rows fill the other's gaps: one run of ink from the top of the page to its foot.
    const columns = [{ x0: 20, x1: 230, top: 20, pitch: 16 }, { x0: 270, x1: 480, top: 28, pitch: 16 }]
    expect(layout(page(500, 700, columns, 10)).lineHeight).toBe(10)
    // Lined up, they are one column's rows anyway.
    expect(layout(page(500, 700, [columns[0], { ...columns[1], top: 20 }], 10)).lineHeight).toBe(10)
  })

  it('columns whose lines only partly overlap keep the whole width\'s measure', () => {
    // Pitches of 16 and 18 px: the whole width's rows are 14 px, the strips' 10, not short enough
    // (MERGED_COLUMNS) to say the columns ran together.
    const g = page(500, 700, [{ x0: 20, x1: 230, top: 20, pitch: 16 }, { x0: 270, x1: 480, top: 28, pitch: 18 }], 10)
    expect(layout(g).lineHeight).toBe(14)
  })
})

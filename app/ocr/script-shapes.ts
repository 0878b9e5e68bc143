/**
 * Pure: a script named from the shapes of a page's text lines, for scripts no reader here knows
 * (issue 37). Measured on the prepared page (dark ink on white, text rows ~30 px), per text line:
 * - Devanagari hangs its letters from a headline (shirorekha): the line's darkest row lies in its
 *   upper half and carries runs of ink longer than one and a half line heights;
 * - Arabic and Thai leave the top third of a line nearly empty (Latin, Han and Hangul put about a
 *   third of their ink there): Arabic's ink runs along its baseline (a sharp darkest row in the
 *   middle third), Thai's loops sit on the line (a flat profile, much ink in the lower third);
 * - anything else (Latin, Han, Hangul, Cyrillic...) is not named here.
 * A script is named from the page's typical line (the medians over at least four lines of about the
 * usual height); the caller asks only when English could not read the page.
 */
import type { Script } from './script'

export type Grey = { data: ArrayLike<number>; width: number; height: number }

export type LineShape = {
  height: number
  /** Where the darkest row is, 0 (top) .. 1 (bottom). */
  peakAt: number
  /** The darkest row's ink over the line's mean row ink. */
  peakRatio: number
  /** Share of the line's ink in horizontal runs over 1.5 line heights, in its upper half. */
  longRunsAbove: number
  /** Share of the ink in the top, middle and bottom thirds. */
  thirds: [number, number, number]
}

const INK = 128
/** Rows of ink shorter than this are specks or rules, not text lines. */
const MIN_LINE = 8

/** The text lines of a page (runs of rows with ink) and their shapes. */
export function lineShapes(g: Grey): LineShape[] {
  const { data, width, height } = g
  const rowInk = new Int32Array(height)
  for (let y = 0; y < height; y++) {
    let n = 0
    const row = y * width
    for (let x = 0; x < width; x++) if (data[row + x] < INK) n++
    rowInk[y] = n
  }
  const shapes: LineShape[] = []
  let start = -1
  for (let y = 0; y <= height; y++) {
    const ink = y < height && rowInk[y] > 1
    if (ink && start < 0) start = y
    if (!ink && start >= 0) {
      if (y - start >= MIN_LINE) shapes.push(shapeOf(g, rowInk, start, y))
      start = -1
    }
  }
  return shapes
}

function shapeOf(g: Grey, rowInk: Int32Array, top: number, bottom: number): LineShape {
  const h = bottom - top
  let total = 0
  let peak = 0
  let peakY = top
  const thirds: [number, number, number] = [0, 0, 0]
  for (let y = top; y < bottom; y++) {
    total += rowInk[y]
    if (rowInk[y] > peak) {
      peak = rowInk[y]
      peakY = y
    }
    thirds[Math.min(2, Math.floor(((y - top) * 3) / h))] += rowInk[y]
  }
  let longAbove = 0
  for (let y = top; y < top + h / 2; y++) {
    let run = 0
    const row = y * g.width
    for (let x = 0; x <= g.width; x++) {
      if (x < g.width && g.data[row + x] < INK) run++
      else {
        if (run >= 1.5 * h) longAbove += run
        run = 0
      }
    }
  }
  const t = Math.max(1, total)
  return {
    height: h,
    peakAt: (peakY - top) / h,
    peakRatio: peak / (t / h),
    longRunsAbove: longAbove / t,
    thirds: [thirds[0] / t, thirds[1] / t, thirds[2] / t],
  }
}

/** What one line's shape says. */
export function lineScript(s: LineShape): Script | null {
  if (s.longRunsAbove >= 0.03 && s.peakAt < 0.45 && s.peakRatio >= 2.8) return 'Devanagari'
  // Measured (five Thai fonts, two Arabic, screenshots and photos): Thai and Arabic 0.13-0.18 of their
  // ink in the top third; Latin, Han and Hangul 0.21-0.35 (a blurred hard photo the lowest). Arabic's
  // baseline makes its darkest row 2.5-3 times its mean row, Thai's 1.6-2.1.
  if (s.thirds[0] > 0.2) return null
  if (s.peakRatio >= 2.3 && s.thirds[1] >= 0.44) return 'Arabic'
  if (s.peakRatio < 2.3 && s.thirds[2] >= 0.35) return 'Thai'
  return null
}

/** Lines measured: at least this many, of about the page's usual text height. */
const MIN_LINES = 4

/**
 * The script the page's typical line names: the median of each measure over the lines of about the
 * median height (a heading, a rule or a line of marks is not typical), at least four of them.
 */
export function scriptFromShapes(g: Grey): Script | null {
  const all = lineShapes(g)
  const usual = median(all.map((s) => s.height))
  const lines = all.filter((s) => s.height >= 0.6 * usual && s.height <= 1.7 * usual)
  if (lines.length < MIN_LINES) return null
  return lineScript({
    height: usual,
    peakAt: median(lines.map((s) => s.peakAt)),
    peakRatio: median(lines.map((s) => s.peakRatio)),
    longRunsAbove: median(lines.map((s) => s.longRunsAbove)),
    thirds: [0, 1, 2].map((i) => median(lines.map((s) => s.thirds[i]))) as [number, number, number],
  })
}

function median(values: number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** The grey pixels of a binary PGM (P5) as the preprocessing writes it. */
export function greyOfPgm(pgm: Uint8Array): Grey | null {
  const head = new TextDecoder('latin1').decode(pgm.subarray(0, 32))
  const m = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(head)
  if (!m) return null
  return { data: pgm.subarray(m[0].length), width: Number(m[1]), height: Number(m[2]) }
}

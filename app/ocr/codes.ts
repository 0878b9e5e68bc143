/**
 * Two-dimensional codes on a page (issue 37): the QR code of a China Railway ticket or an Indian
 * e-ticket, the Aztec code of a Deutsche Bahn Online-Ticket. Tesseract reads one as rows of
 * garbage: on a real DB ticket its code cost a third of the reading's time (2.8 s, 1.9 s without)
 * and pulled the page's confidence from 78 to 66, which sent a ticket read right to review. A code
 * holds nothing the rules read, so it is painted over with paper before reading.
 *
 * Pure: greyscale pixels in, boxes out.
 */
import type { Box, Grey } from './grey.server'

/** Darker than this is ink (the prepared image is stretched: ink near 0, paper near 255). */
const INK = 128
/**
 * A code's cell: about half of it ink (its modules are random), and crossed by ink edges in both
 * directions. A solid box (a masked field) or a photo's dark edge is nearly all ink and crossed by
 * none. Cells of text (the dev and real corpora, a text row square) measured 0.17 ink at the
 * median and 0.34 at the 90th percentile: one text cell in 35 passes for a code's, so a code is
 * only a group of them (findCodes), and no group of text cells made one.
 */
const MIN_INK = 0.3
const MAX_INK = 0.75
/** Ink edges per pixel row and per pixel column of a cell, at least (a code's modules are a few pixels). */
const MIN_EDGES = 1.2
/** A cell of text has blank rows between its lines; a code's cell hardly any. */
const MAX_BLANK_ROWS = 0.15
/** A code is at least this many cells each way (three text rows: a small QR code at the target text size)... */
const MIN_CELLS = 3
/** ...about square (QR, Aztec, Data Matrix)... */
const MAX_ASPECT = 2
/** ...and filled with code-like cells. */
const MIN_FILL = 0.7

type CellShape = { ink: number; rowEdges: number; columnEdges: number; blankRows: number }

/** One cell's measures. */
export function cellShape(g: Grey, left: number, top: number, size: number): CellShape {
  const right = Math.min(g.width, left + size)
  const bottom = Math.min(g.height, top + size)
  const w = right - left
  const h = bottom - top
  let ink = 0
  let rowEdges = 0
  let columnEdges = 0
  let blankRows = 0
  for (let y = top; y < bottom; y++) {
    const row = y * g.width
    let inkInRow = 0
    let prev = g.data[row + left] < INK
    for (let x = left; x < right; x++) {
      const dark = g.data[row + x] < INK
      if (dark) inkInRow++
      if (dark !== prev) rowEdges++
      prev = dark
      if (y > top && dark !== g.data[row - g.width + x] < INK) columnEdges++
    }
    ink += inkInRow
    if (inkInRow === 0) blankRows++
  }
  return { ink: ink / (w * h), rowEdges: rowEdges / h, columnEdges: columnEdges / w, blankRows: blankRows / h }
}

function codeLike(s: CellShape): boolean {
  return s.ink >= MIN_INK && s.ink <= MAX_INK && s.rowEdges >= MIN_EDGES && s.columnEdges >= MIN_EDGES && s.blankRows <= MAX_BLANK_ROWS
}

/**
 * The boxes of the page's two-dimensional codes, in pixels: groups of touching code-like cells of
 * `cell` pixels (about a text row) that are at least MIN_CELLS each way, about square and mostly
 * filled.
 */
export function findCodes(g: Grey, cell: number): Box[] {
  const size = Math.max(8, Math.round(cell))
  const cols = Math.floor(g.width / size)
  const rows = Math.floor(g.height / size)
  if (cols < MIN_CELLS || rows < MIN_CELLS) return []
  const marked = new Uint8Array(cols * rows)
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) marked[r * cols + c] = codeLike(cellShape(g, c * size, r * size, size)) ? 1 : 0
  const seen = new Uint8Array(cols * rows)
  const boxes: Box[] = []
  for (let start = 0; start < marked.length; start++) {
    if (!marked[start] || seen[start]) continue
    // One group of touching cells (four neighbours).
    const stack = [start]
    seen[start] = 1
    let count = 0
    let c0 = cols
    let c1 = -1
    let r0 = rows
    let r1 = -1
    while (stack.length > 0) {
      const i = stack.pop()!
      const r = Math.floor(i / cols)
      const c = i % cols
      count++
      c0 = Math.min(c0, c)
      c1 = Math.max(c1, c)
      r0 = Math.min(r0, r)
      r1 = Math.max(r1, r)
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        const rr = r + dr
        const cc = c + dc
        if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue
        const j = rr * cols + cc
        if (marked[j] && !seen[j]) {
          seen[j] = 1
          stack.push(j)
        }
      }
    }
    const w = c1 - c0 + 1
    const h = r1 - r0 + 1
    if (w < MIN_CELLS || h < MIN_CELLS || Math.max(w, h) > MAX_ASPECT * Math.min(w, h) || count < MIN_FILL * w * h) continue
    boxes.push({ left: c0 * size, top: r0 * size, right: Math.min(g.width, (c1 + 1) * size), bottom: Math.min(g.height, (r1 + 1) * size) })
  }
  return boxes
}

/** Share of ink in a row or column of the box's span from which it still belongs to the code. */
const EDGE_INK = 0.1

function inkShare(g: Grey, x0: number, y0: number, x1: number, y1: number): number {
  let ink = 0
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (g.data[y * g.width + x] < INK) ink++
  return ink / Math.max(1, (x1 - x0) * (y1 - y0))
}

/**
 * The code's own edges: the cells found cut it on the grid, so each side is moved out, at most a
 * cell, while its next row or column of pixels still has the code's ink.
 */
function codeEdges(g: Grey, b: Box, cell: number): Box {
  let { left, top, right, bottom } = b
  for (let n = 0; n < cell && top > 0 && inkShare(g, left, top - 1, right, top) >= EDGE_INK; n++) top--
  for (let n = 0; n < cell && bottom < g.height && inkShare(g, left, bottom, right, bottom + 1) >= EDGE_INK; n++) bottom++
  for (let n = 0; n < cell && left > 0 && inkShare(g, left - 1, top, left, bottom) >= EDGE_INK; n++) left--
  for (let n = 0; n < cell && right < g.width && inkShare(g, right, top, right + 1, bottom) >= EDGE_INK; n++) right++
  return { left, top, right, bottom }
}

/** Blank pixels painted around a code's edges: its last modules' anti-aliased rims. */
const PAINT_MARGIN = 2

/** Paints each code over with paper. Returns the boxes painted. */
export function paintOverCodes(g: Grey, cell: number, paper = 255): Box[] {
  const boxes = findCodes(g, cell).map((b) => codeEdges(g, b, Math.round(cell)))
  for (const b of boxes) {
    const left = Math.max(0, b.left - PAINT_MARGIN)
    const right = Math.min(g.width, b.right + PAINT_MARGIN)
    for (let y = Math.max(0, b.top - PAINT_MARGIN); y < Math.min(g.height, b.bottom + PAINT_MARGIN); y++) g.data.fill(paper, y * g.width + left, y * g.width + right)
  }
  return boxes
}

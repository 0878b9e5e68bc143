import { fullBox, histogram, otsu, type Box, type Grey } from './grey.server'

// Where the receipt is in a photo, on a small copy: the paper, the angle of its text lines and their
// height (decision 010). Measurements behind each step: docs/research/receipt-ocr-lab-notes.md

/** A box in "rotated" coordinates: relative to the image centre after rotating by the deskew angle. */
export type CentredBox = { left: number; top: number; right: number; bottom: number }

export const area = (b: CentredBox) => (b.right - b.left) * (b.bottom - b.top)
export const scaleBox = (b: CentredBox, f: number): CentredBox => ({
  left: b.left * f,
  top: b.top * f,
  right: b.right * f,
  bottom: b.bottom * f,
})

export function rotatedBoxOfRect(width: number, height: number, degrees: number): CentredBox {
  const rad = (degrees * Math.PI) / 180
  const w = (Math.abs(width * Math.cos(rad)) + Math.abs(height * Math.sin(rad))) / 2
  const h = (Math.abs(width * Math.sin(rad)) + Math.abs(height * Math.cos(rad))) / 2
  return { left: -w, top: -h, right: w, bottom: h }
}

export type Layout = {
  paper: { mask: Uint8Array; box: Box } | null
  paperLevel: number
  skewDegrees: number
  lineHeight: number | null
  /** Share of the paper's pixels counted as ink: far above a page of text when a panel or a dark page was taken for ink. */
  inkShare: number
}

/** Work out, on a small copy, where the paper is, how skewed the lines are and how tall they are. */
export function analyseLayout(g: Grey, opt: { crop: boolean; deskew: boolean }, inkFrom: Grey = g): Layout {
  const threshold = otsu(histogram(g.data))
  const paper = opt.crop ? largestBrightRegion(g, threshold) : null
  const inside = paper ? paperInterior(paper.mask, g) : null
  // The ink may be looked for in another copy of the same pixels (one with its panels flattened).
  const ink = inkPoints(inkFrom, inside, paper ? paper.box : fullBox(g))
  // The sheet's edges are long straight lines: where they agree they bound the text's angle,
  // which keeps sparse two-column receipts from locking onto a label-to-amount diagonal.
  const edge = paper ? paperEdgeAngle(paper.mask, paper.box, g.width) : null
  const range = edge === null ? { from: -MAX_SKEW, to: MAX_SKEW } : { from: edge - 2, to: edge + 2 }
  const skewDegrees = opt.deskew && ink.xs.length > 50 ? estimateSkew(ink.xs, ink.ys, g.height, g.width, range) : 0
  const lineHeight = ink.xs.length > 50 ? estimateLineHeight(ink.xs, ink.ys, skewDegrees, g.height, g.width) : null
  return { paper, paperLevel: ink.paperLevel, skewDegrees, lineHeight, inkShare: ink.share }
}


/** Largest 4-connected region brighter than the threshold: the paper in a photo, the page in a screenshot. */
function largestBrightRegion(g: Grey, threshold: number): { mask: Uint8Array; box: Box } | null {
  const { width, height, data } = g
  const label = new Int32Array(width * height)
  const stack = new Int32Array(width * height)
  let bestLabel = 0
  let bestSize = 0
  let next = 1
  const n = data.length
  for (let start = 0; start < n; start++) {
    if (label[start] !== 0 || data[start] <= threshold) continue
    let size = 0
    let sp = 0
    stack[sp++] = start
    label[start] = next
    while (sp > 0) {
      const p = stack[--sp]
      size++
      const x = p % width
      if (x > 0 && label[p - 1] === 0 && data[p - 1] > threshold) {
        label[p - 1] = next
        stack[sp++] = p - 1
      }
      if (x < width - 1 && label[p + 1] === 0 && data[p + 1] > threshold) {
        label[p + 1] = next
        stack[sp++] = p + 1
      }
      if (p >= width && label[p - width] === 0 && data[p - width] > threshold) {
        label[p - width] = next
        stack[sp++] = p - width
      }
      if (p + width < n && label[p + width] === 0 && data[p + width] > threshold) {
        label[p + width] = next
        stack[sp++] = p + width
      }
    }
    if (size > bestSize) {
      bestSize = size
      bestLabel = next
    }
    next++
  }
  if (bestSize < 0.05 * data.length) return null
  const mask = new Uint8Array(width * height)
  const box: Box = { left: width, top: height, right: 0, bottom: 0 }
  for (let p = 0; p < data.length; p++) {
    if (label[p] !== bestLabel) continue
    mask[p] = 1
    const x = p % width
    const y = (p - x) / width
    if (x < box.left) box.left = x
    if (x >= box.right) box.right = x + 1
    if (y < box.top) box.top = y
    if (y >= box.bottom) box.bottom = y + 1
  }
  return { mask, box }
}

/** Pixels between the first and last paper pixel of both their row and their column (the paper is convex). */
export function paperInterior(mask: Uint8Array, g: Grey): Uint8Array {
  const { width, height } = g
  const rowFirst = new Int32Array(height).fill(width)
  const rowLast = new Int32Array(height).fill(-1)
  const colFirst = new Int32Array(width).fill(height)
  const colLast = new Int32Array(width).fill(-1)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue
      if (x < rowFirst[y]) rowFirst[y] = x
      rowLast[y] = x
      if (y < colFirst[x]) colFirst[x] = y
      colLast[x] = y
    }
  }
  const inside = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    for (let x = rowFirst[y]; x <= rowLast[y]; x++) {
      if (y >= colFirst[x] && y <= colLast[x]) inside[y * width + x] = 1
    }
  }
  return inside
}

/** Dark pixels on the paper (text), found with Otsu over the paper's own pixels. */
export function inkPoints(g: Grey, inside: Uint8Array | null, box: Box) {
  const h = new Uint32Array(256)
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const p = y * g.width + x
      if (!inside || inside[p]) h[g.data[p]]++
    }
  }
  const t = otsu(h)
  // The paper level (median of the bright class) fills the corners uncovered by deskewing.
  let count = 0
  let brightTotal = 0
  for (let v = t + 1; v < 256; v++) brightTotal += h[v]
  let paperLevel = 255
  for (let v = t + 1; v < 256; v++) {
    count += h[v]
    if (count >= brightTotal / 2) {
      paperLevel = v
      break
    }
  }
  let count2 = 0
  for (let v = 0; v <= t; v++) count2 += h[v]
  const share = count2 / Math.max(1, count2 + brightTotal)
  // Enough points for a stable angle; subsample big screenshots to keep the search fast.
  const step = Math.max(1, Math.ceil(count2 / 40_000))
  const xs = new Int32Array(Math.ceil(count2 / step) + 1)
  const ys = new Int32Array(xs.length)
  let k = 0
  let seen = 0
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const p = y * g.width + x
      if ((!inside || inside[p]) && g.data[p] <= t && seen++ % step === 0 && k < xs.length) {
        xs[k] = x
        ys[k] = y
        k++
      }
    }
  }
  return { xs: xs.subarray(0, k), ys: ys.subarray(0, k), paperLevel, share }
}

type Points = Int32Array

const MAX_SKEW = 15

/** Row histogram of the ink after shearing by `degrees` (a cheap stand-in for rotating). */
function profile(xs: Points, ys: Points, degrees: number, height: number, width: number): Int32Array {
  const tan = Math.tan((degrees * Math.PI) / 180)
  const offset = Math.ceil(width * Math.tan((MAX_SKEW * Math.PI) / 180)) + 2
  const bins = new Int32Array(height + 2 * offset + 2)
  for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i] - xs[i] * tan) + offset]++
  return bins
}

function sharpness(bins: Int32Array): number {
  let s = 0
  for (let i = 0; i < bins.length; i++) s += bins[i] * bins[i]
  return s
}

/** Angle (degrees, positive = lines fall to the right) that makes the row profile sharpest. */
export function estimateSkew(
  xs: Points,
  ys: Points,
  height: number,
  width: number,
  range = { from: -MAX_SKEW, to: MAX_SKEW },
): number {
  let best = 0
  let bestScore = -1
  const consider = (a: number) => {
    const s = sharpness(profile(xs, ys, a, height, width))
    if (s > bestScore) {
      bestScore = s
      best = a
    }
  }
  for (let a = Math.round(range.from); a <= Math.round(range.to); a += 1) consider(a)
  const coarse = best
  for (let a = coarse - 0.9; a <= coarse + 0.9; a += 0.1) consider(a)
  return Math.round(best * 10) / 10
}

/**
 * Angle of the paper's top and bottom edges (degrees, positive = falling to the right), or null
 * when they are not both clean straight lines that agree (screenshots, curled or cut-off paper).
 */
export function paperEdgeAngle(mask: Uint8Array, box: Box, width: number): number | null {
  const w = box.right - box.left
  if (w < 40) return null
  const from = Math.round(box.left + w * 0.2)
  const to = Math.round(box.right - w * 0.2)
  const top: Array<[number, number]> = []
  const bottom: Array<[number, number]> = []
  for (let x = from; x < to; x++) {
    let y = box.top
    while (y < box.bottom && !mask[y * width + x]) y++
    if (y < box.bottom) top.push([x, y])
    y = box.bottom - 1
    while (y >= box.top && !mask[y * width + x]) y--
    if (y >= box.top) bottom.push([x, y])
  }
  const a = fitAngle(top)
  const b = fitAngle(bottom)
  if (a === null || b === null || Math.abs(a - b) > 1.5) return null
  return (a + b) / 2
}

/** Least-squares line through the points, refitted without outliers; null if it is not straight. */
function fitAngle(points: Array<[number, number]>): number | null {
  const fit = (pts: Array<[number, number]>) => {
    const n = pts.length
    let sx = 0
    let sy = 0
    let sxx = 0
    let sxy = 0
    for (const [x, y] of pts) {
      sx += x
      sy += y
      sxx += x * x
      sxy += x * y
    }
    const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    return { slope, intercept: (sy - slope * sx) / n }
  }
  if (points.length < 20) return null
  const first = fit(points)
  const inliers = points.filter(([x, y]) => Math.abs(y - (first.slope * x + first.intercept)) <= 2)
  if (inliers.length < points.length * 0.8) return null
  const { slope } = fit(inliers)
  return (Math.atan(slope) * 180) / Math.PI
}

/**
 * The text's row height on the small copy: the median run of rows with ink. Measured across the
 * whole width, and in LINE_STRIPS vertical strips: a page in columns (an invoice's labels beside its
 * fare breakdown, a DB ticket's table beside its code) interleaves its columns' lines, which run
 * together across the whole width into rows two or three lines tall. When the strips' rows are
 * much shorter (MERGED_COLUMNS), the columns ran together and the strips' height is the text's
 * (real DB tickets of one template were read at 0.62-1.15 times their size before; issue 37).
 */
export function estimateLineHeight(xs: Points, ys: Points, degrees: number, height: number, width: number): number | null {
  const whole = medianRun(lineRuns(profile(xs, ys, degrees, height, width)))
  if (whole === null) return null
  const strips = stripLineHeight(xs, ys, degrees, height, width)
  return strips !== null && strips < whole * MERGED_COLUMNS ? strips : whole
}

/** Vertical strips of the ink's width, each measured on its own. */
const LINE_STRIPS = 3
/** The strips' row height below this share of the whole width's: the columns' lines ran together. */
const MERGED_COLUMNS = 0.7
/** A strip with fewer ink points than this has no lines to measure. */
const MIN_STRIP_POINTS = 20

/** The median of the row runs measured in each of LINE_STRIPS vertical strips, taken together. */
function stripLineHeight(xs: Points, ys: Points, degrees: number, height: number, width: number): number | null {
  let minX = Infinity
  let maxX = -Infinity
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] < minX) minX = xs[i]
    if (xs[i] > maxX) maxX = xs[i]
  }
  const stripWidth = (maxX - minX + 1) / LINE_STRIPS
  const sx: number[][] = Array.from({ length: LINE_STRIPS }, () => [])
  const sy: number[][] = Array.from({ length: LINE_STRIPS }, () => [])
  for (let i = 0; i < xs.length; i++) {
    const k = Math.min(LINE_STRIPS - 1, Math.floor((xs[i] - minX) / stripWidth))
    sx[k].push(xs[i])
    sy[k].push(ys[i])
  }
  const runs: number[] = []
  for (let k = 0; k < LINE_STRIPS; k++) {
    if (sx[k].length >= MIN_STRIP_POINTS) runs.push(...lineRuns(profile(Int32Array.from(sx[k]), Int32Array.from(sy[k]), degrees, height, width)))
  }
  return medianRun(runs)
}

/** Runs of at least 3 rows whose ink is over 8 % of the profile's fullest row. */
function lineRuns(bins: Int32Array): number[] {
  let max = 0
  for (let i = 0; i < bins.length; i++) max = Math.max(max, bins[i])
  const runs: number[] = []
  if (max === 0) return runs
  let run = 0
  for (let i = 0; i <= bins.length; i++) {
    if (i < bins.length && bins[i] > max * 0.08) run++
    else if (run > 0) {
      if (run >= 3) runs.push(run)
      run = 0
    }
  }
  return runs
}

function medianRun(runs: number[]): number | null {
  if (runs.length === 0) return null
  const sorted = [...runs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** The paper's bounding box after rotating by `degrees`, centred, in full-size pixels. */
export function rotatedBox(paper: { mask: Uint8Array; box: Box }, small: Grey, degrees: number, ratio: number): CentredBox | null {
  const rad = (degrees * Math.PI) / 180
  const cos = Math.cos(rad)
  const sin = Math.sin(rad)
  const cx = small.width / 2
  const cy = small.height / 2
  let left = Infinity
  let top = Infinity
  let right = -Infinity
  let bottom = -Infinity
  const { box, mask } = paper
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      if (!mask[y * small.width + x]) continue
      // Clockwise rotation with the y axis pointing down.
      const dx = x + 0.5 - cx
      const dy = y + 0.5 - cy
      const rx = dx * cos - dy * sin
      const ry = dx * sin + dy * cos
      if (rx < left) left = rx
      if (rx > right) right = rx
      if (ry < top) top = ry
      if (ry > bottom) bottom = ry
    }
  }
  if (!Number.isFinite(left) || right - left < 20 || bottom - top < 20) return null
  // Trim 1 %: the straightened sheet's box still has background in its corners.
  const w = (right - left) * 0.01
  const h = (bottom - top) * 0.01
  return { left: (left + w) * ratio, top: (top + h) * ratio, right: (right - w) * ratio, bottom: (bottom - h) * ratio }
}

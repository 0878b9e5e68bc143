/**
 * Pure: a decoded photo -> is it good enough to read, and if not, what the user should do (issue 23).
 * The scan page runs it on every picked or captured photo before upload (canvas pixels), and the
 * server runs it on the upload (sharp pixels) so a page without JavaScript gets the same advice.
 * Thresholds were measured on the dev set and the unseen sets (bench:capture;
 * docs/research/receipt-ocr-lab-notes.md).
 */

import { flatShare, histogram, otsu } from '~/ocr/levels'

/** Greyscale pixels (one byte each, row by row) at the size they were measured. */
export type GreyImage = { width: number; height: number; data: Uint8Array | Uint8ClampedArray }

export type CaptureProblem = 'small' | 'far' | 'dark' | 'glare' | 'blurry'

export type CaptureMetrics = {
  /** The photo's own width and height (before any scaling for measurement). */
  width: number
  height: number
  /** Share of the frame inside the paper's bounds (0..1). */
  paperFill: number
  /** Median brightness of the paper (0..255). */
  paperBrightness: number
  /** Share of the paper that is burnt out white while the paper itself is not (0..1). */
  glare: number
  /** Median width, in pixels at the measuring scale, of the strongest edges: a sharp edge is ~2. */
  edgeWidth: number
  /**
   * Share of the pixels in the three commonest grey levels: a screenshot is drawn in a few flat
   * colours (0.94-0.99), a photo's paper spreads over many levels (at most 0.91 measured).
   */
  flatShare: number
}

export type CaptureVerdict = { ok: boolean; problem: CaptureProblem | null; advice: string | null; metrics: CaptureMetrics }

/** The long side photos are measured at: larger photos are averaged down to it (OCR reads them at about this size). */
export const MEASURE_SIDE = 1000
/** Callers decode (canvas, sharp) at most this long, then toGrey averages down to MEASURE_SIDE. */
export const CAPTURE_DECODE_SIDE = 2000

export const CAPTURE_THRESHOLDS = {
  /** Spec §5: narrower photos are refused. */
  minWidth: 500,
  /** The paper must fill at least this much of the frame. */
  minPaperFill: 0.2,
  /** The paper's median brightness must reach this. */
  minPaperBrightness: 70,
  /** At most this share of the paper burnt out. */
  maxGlare: 0.08,
  /** Edges wider than this (pixels at MEASURE_SIDE) are too blurred to read. */
  maxEdgeWidth: 2.7,
  /**
   * From this flat share on, the picture is a screenshot: distance, light and glare are a camera's
   * problems, and an app's dark mode or grey cards must not be taken for them.
   */
  screenshotFlatShare: 0.93,
  /** ...and its edges this sharp (a screenshot's are ~2 px): an underexposed photo is flat black too, but has no sharp edges. */
  screenshotEdgeWidth: 2.3,
}

export const CAPTURE_ADVICE: Record<CaptureProblem, string> = {
  small: 'Too small: move closer or use a higher resolution, then retake',
  far: 'Move closer: the receipt should fill most of the photo',
  dark: 'Too dark: turn on a light or move to a brighter place, then retake',
  glare: 'Glare on the receipt: tilt the phone or move away from the light, then retake',
  blurry: 'Too blurry: hold steady and retake',
}

/** RGBA (canvas ImageData) or RGB bytes -> grey, averaged down so the long side is at most MEASURE_SIDE. */
export function toGrey(width: number, height: number, data: Uint8Array | Uint8ClampedArray, channels: 1 | 3 | 4): GreyImage {
  const factor = Math.max(1, Math.ceil(Math.max(width, height) / MEASURE_SIDE))
  const w = Math.floor(width / factor)
  const h = Math.floor(height / factor)
  const out = new Uint8Array(w * h)
  const area = factor * factor
  // Two loops, one per kind of pixel, with the same sums in the same order: without the test of
  // `channels` in the innermost loop, the real corpus's photos take 578 ms instead of 685.
  if (channels === 1) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let sum = 0
        for (let dy = 0; dy < factor; dy++) {
          let i = (y * factor + dy) * width + x * factor
          for (let dx = 0; dx < factor; dx++, i++) sum += data[i]
        }
        out[y * w + x] = Math.round(sum / area)
      }
    }
    return { width: w, height: h, data: out }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0
      for (let dy = 0; dy < factor; dy++) {
        let i = ((y * factor + dy) * width + x * factor) * channels
        for (let dx = 0; dx < factor; dx++, i += channels) sum += 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]
      }
      out[y * w + x] = Math.round(sum / area)
    }
  }
  return { width: w, height: h, data: out }
}

function medianOf(hist: ArrayLike<number>, count: number): number {
  let seen = 0
  for (let i = 0; i < 256; i++) {
    seen += hist[i]
    if (seen * 2 >= count) return i
  }
  return 255
}

/** Measures a grey image (already at most MEASURE_SIDE long); `width`/`height`: the photo's own size. */
export function measureCapture(grey: GreyImage, size: { width: number; height: number }): CaptureMetrics {
  const { width: w, height: h, data } = grey
  const hist = histogram(data)
  const threshold = otsu(hist)
  // The paper's bounds: rows and columns where most pixels are brighter than the threshold.
  const rowBright = new Array<number>(h).fill(0)
  const colBright = new Array<number>(w).fill(0)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (data[y * w + x] > threshold) {
        rowBright[y]++
        colBright[x]++
      }
    }
  }
  const rows = rowBright.map((n, y) => (n >= w * 0.3 ? y : -1)).filter((y) => y >= 0)
  const cols = colBright.map((n, x) => (n >= h * 0.3 ? x : -1)).filter((x) => x >= 0)
  const top = rows.length ? rows[0] : 0
  const bottom = rows.length ? rows[rows.length - 1] : h - 1
  const left = cols.length ? cols[0] : 0
  const right = cols.length ? cols[cols.length - 1] : w - 1
  const paperFill = rows.length && cols.length ? ((bottom - top + 1) * (right - left + 1)) / (w * h) : 0
  const paperHist = new Array<number>(256).fill(0)
  let paperCount = 0
  for (let y = top; y <= bottom; y++) {
    for (let x = left; x <= right; x++) {
      const v = data[y * w + x]
      if (v > threshold) {
        paperHist[v]++
        paperCount++
      }
    }
  }
  const paperBrightness = paperCount ? medianOf(paperHist, paperCount) : 0
  let burnt = 0
  for (let v = 250; v < 256; v++) burnt += paperHist[v]
  // A screenshot's or scan's white background is all 255: that is paper, not glare.
  const glare = paperCount && paperBrightness < 235 ? burnt / paperCount : 0
  return {
    width: size.width,
    height: size.height,
    paperFill: round(paperFill, 3),
    paperBrightness,
    glare: round(glare, 4),
    edgeWidth: round(edgeWidth(grey, { top, bottom, left, right }), 2),
    flatShare: round(flatShare(hist, data.length), 3),
  }
}

/**
 * How wide the page's strongest edges are: at each pixel among the 2 % with the steepest slope, the
 * rise across five pixels divided by the slope. A sharp step is ~2 px wide whatever its contrast; a
 * blur of sigma s widens it to ~2.5 s, so this does not mistake a dim photo for a blurred one.
 */
function edgeWidth(grey: GreyImage, box: { top: number; bottom: number; left: number; right: number }): number {
  const { width: w, data } = grey
  const top = Math.max(box.top, 2)
  const bottom = Math.min(box.bottom, grey.height - 3)
  const left = Math.max(box.left, 2)
  const right = Math.min(box.right, w - 3)
  // Twice each pixel's slope (a whole number, 16..255; 0 below the cut of 8), counted by value: the
  // steepest 2 % are then found without keeping (and sorting) one record per edge pixel, which cost
  // more than the rest of the measurement on a 12 MP photo.
  const slope2 = new Uint8Array(w * grey.height)
  const counts = new Uint32Array(256)
  let n = 0
  for (let y = top; y <= bottom; y++) {
    for (let x = left; x <= right; x++) {
      const i = y * w + x
      const gx = Math.abs(data[i + 1] - data[i - 1])
      const gy = Math.abs(data[i + w] - data[i - w])
      const s2 = gx >= gy ? gx : gy
      if (s2 < 16) continue
      slope2[i] = s2
      counts[s2]++
      n++
    }
  }
  if (n < 50) return 99
  // The steepest `take`, ties taken in reading order (as a stable sort by slope would).
  const take = Math.max(50, Math.floor(n * 0.02))
  let above = 0
  let cut = 255
  while (above + counts[cut] < take) above += counts[cut--]
  let atCut = take - above
  const widths = new Float64Array(take)
  let k = 0
  for (let y = top; y <= bottom && k < take; y++) {
    for (let x = left; x <= right; x++) {
      const i = y * w + x
      const s2 = slope2[i]
      if (s2 < cut) continue
      if (s2 === cut) {
        if (atCut === 0) continue
        atCut--
      }
      const step = Math.abs(data[i + 1] - data[i - 1]) >= Math.abs(data[i + w] - data[i - w]) ? 1 : w
      let lo = 255
      let hi = 0
      for (let d = -2; d <= 2; d++) {
        const v = data[i + d * step]
        if (v < lo) lo = v
        if (v > hi) hi = v
      }
      widths[k++] = (hi - lo) / (s2 / 2)
    }
  }
  widths.sort()
  return widths[Math.floor(take / 2)]
}

/** The first problem, in the order a user fixes them: resolution, distance, light, glare, steadiness. */
export function judgeCapture(metrics: CaptureMetrics, thresholds = CAPTURE_THRESHOLDS): CaptureVerdict {
  const t = thresholds
  const camera = !(metrics.flatShare >= t.screenshotFlatShare && metrics.edgeWidth <= t.screenshotEdgeWidth)
  const problem: CaptureProblem | null =
    metrics.width < t.minWidth
      ? 'small'
      : camera && metrics.paperFill < t.minPaperFill
        ? 'far'
        : camera && metrics.paperBrightness < t.minPaperBrightness
          ? 'dark'
          : camera && metrics.glare > t.maxGlare
            ? 'glare'
            : metrics.edgeWidth > t.maxEdgeWidth
              ? 'blurry'
              : null
  return { ok: problem === null, problem, advice: problem ? CAPTURE_ADVICE[problem] : null, metrics }
}

/**
 * Decoded pixels -> verdict: what the browser (canvas) and the server (sharp) both call. `original`:
 * the photo's own size when the pixels were decoded smaller.
 */
export function checkCapture(
  image: { width: number; height: number; data: Uint8Array | Uint8ClampedArray; channels: 1 | 3 | 4 },
  original: { width: number; height: number } = image,
  thresholds = CAPTURE_THRESHOLDS,
): CaptureVerdict {
  const grey = toGrey(image.width, image.height, image.data, image.channels)
  return judgeCapture(measureCapture(grey, { width: original.width, height: original.height }), thresholds)
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits

import sharp from 'sharp'
import { analyseLayout, inkPoints, paperInterior } from '~/ocr/layout.server'
import { flattenBackground } from '~/ocr/preprocess.server'
import { type Grey, greyFromRaw } from '~/ocr/grey.server'
import { MAX_INPUT_PIXELS } from '~/ocr/photo.server'
import { fingerprintsMatch as differenceHashesMatch } from '~/ocr/phash.server'

/**
 * Near-duplicate fingerprint of a receipt photo (issue 10), "v2": a DCT hash of the deskewed text
 * block, so a copy that is rotated, rescaled, cropped a little, re-encoded or photographed again
 * still lands within a few bits of the original while another receipt of the same template does not.
 *
 * 1. EXIF-rotate, greyscale, resize to 500 px on the long side (the OCR pipeline's analysis size).
 * 2. Box-blur (5x5) against sensor / JPEG noise, then the OCR pipeline's own analyseLayout: the
 *    paper region and the skew of the text lines.
 * 3. Ink = Otsu-dark pixels on the locally flattened image (the paper's brightness divided out, so
 *    a shadow or a light gradient is not ink) inside the paper, eroded by 1.2 % of the side so the
 *    paper's rim is not ink either.
 * 4. The text block: 2nd..98th percentile of the ink, in deskewed coordinates, plus 2 % a side.
 *    Percentiles rather than extremes: a noise speck or a cut-off letter moves them very little.
 * 5. Sample that rotated box into a 64x64 grid (3x3 bilinear samples a cell, from the flattened
 *    3x3-blurred image) and turn it into ink density 0..1 (paper = 40th percentile of the cells).
 * 6. 24x24 lowest DCT-II coefficients minus DC = 575 values; bit = coefficient above their median.
 *
 * Measured by `npm run bench:duplicates` (scripts/bench/duplicates.ts, the alternatives tried are
 * listed at its top) on the 63 receipts of receipts-dev: see FINGERPRINT_MAX_DISTANCE.
 */

export const FINGERPRINT_VERSION = 'v2'
/** Long side of the copy everything is computed on. */
export const FINGERPRINT_SIDE = 500
/** The text block is sampled into GRID x GRID cells whatever its aspect ratio. */
export const FINGERPRINT_GRID = 64
/** K x K lowest DCT frequencies are kept, less the DC term (mean ink): K*K - 1 bits. */
export const FINGERPRINT_DCT_SIZE = 24
export const FINGERPRINT_BITS = FINGERPRINT_DCT_SIZE * FINGERPRINT_DCT_SIZE - 1
const HEX_DIGITS = Math.ceil(FINGERPRINT_BITS / 4)

/**
 * Largest Hamming distance (of 575 bits) still read as the same photo. Measured with
 * `npm run bench:duplicates` on receipts-dev (63 receipts, 1512 in-spec copies):
 * - copies of one receipt: median 12, p99 32, p99.5 36, max 58 bits;
 * - distinct receipts, 1953 pairs of originals: min 58 (two Goodwill receipts of one template that
 *   differ only in a date and two amounts), then 68, 76; p1 148, median 272 (random: 287);
 * - 93,744 copies against the other receipts' originals: min 48 (copies of that Goodwill pair).
 * 42 (7.3 % of the bits) is halfway between the copies' p99.5 (36) and the nearest distinct
 * receipt (48): 99.7 % of the copies caught, no distinct collision, 6 bits of margin either way.
 * Sweep in the bench output: 36 -> 99.5 % caught, 44 -> 99.8 %, 48 -> 99.9 % but the first
 * collision, 60 -> 100 % and 47 collisions.
 */
export const FINGERPRINT_MAX_DISTANCE = 42

const FORMAT = new RegExp(`^${FINGERPRINT_VERSION}:[0-9a-f]{${HEX_DIGITS}}$`)
const OLD_FORMAT = /^[0-9a-f]{16}$/

/** `v2:` + 144 hex digits (575 bits, the last digit padded with a zero bit). */
export async function receiptFingerprint(image: Buffer): Promise<string> {
  const grid = await normalisedGrid(image)
  return `${FINGERPRINT_VERSION}:${toHex(hashBits(grid))}`
}

/**
 * Two stored fingerprints belong to the same receipt photo. v2 against v2: Hamming distance within
 * the measured tolerance. Two old 16-hex-digit dHash values are still compared the old way; an old
 * value against a new one, or anything malformed, never matches.
 */
export function fingerprintsMatch(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false
  if (FORMAT.test(a) && FORMAT.test(b)) return hexDistance(a, b) <= FINGERPRINT_MAX_DISTANCE
  if (OLD_FORMAT.test(a) && OLD_FORMAT.test(b)) return differenceHashesMatch(a, b)
  return false
}

/** Hamming distance between two v2 fingerprints, or null when either is not one. */
export function fingerprintDistance(a: string, b: string): number | null {
  if (!FORMAT.test(a) || !FORMAT.test(b)) return null
  return hexDistance(a, b)
}

function hexDistance(a: string, b: string): number {
  let d = 0
  for (let i = FINGERPRINT_VERSION.length + 1; i < a.length; i++) d += POPCOUNT[parseInt(a[i], 16) ^ parseInt(b[i], 16)]
  return d
}

const POPCOUNT = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4]

// ---------------------------------------------------------------------------

/** Blur radii (pixels of the 500 px copy) and the flattening block, see the steps above. */
const LAYOUT_BLUR = 2
const SAMPLE_BLUR = 1
const INK_BLUR = 1
const FLATTEN_BLOCK = 16
const ERODE = 0.012
const TRIM = 0.02
const MARGIN = 0.02
const PAPER_QUANTILE = 0.4
const SUPERSAMPLE = 3

async function decode(buf: Buffer): Promise<Grey> {
  const { data, info } = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .flatten({ background: '#ffffff' })
    // Small photos are enlarged too: the blur radii and the erosion are meant for this size.
    .resize({ width: FINGERPRINT_SIDE, height: FINGERPRINT_SIDE, fit: 'inside' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return greyFromRaw(data, info)
}

/** Ink density of the deskewed text block, FINGERPRINT_GRID squared cells, row by row. */
async function normalisedGrid(buf: Buffer): Promise<Float64Array> {
  const g = await decode(buf)
  const { width, height } = g
  const blurred = boxBlur(g, LAYOUT_BLUR)
  const layout = analyseLayout(blurred, { crop: true, deskew: true })
  const radius = Math.max(1, Math.round(ERODE * Math.max(width, height)))
  const inside = layout.paper ? erode(paperInterior(layout.paper.mask, g), width, height, radius) : erode(null, width, height, radius)
  // One flattened copy serves both: lightly blurred for sampling, blurred once more to find the ink.
  const src = boxBlur(g, SAMPLE_BLUR)
  flattenBackground(src, FLATTEN_BLOCK)
  const ink = inkPoints(boxBlur(src, INK_BLUR), inside, layout.paper ? layout.paper.box : { left: 0, top: 0, right: width, bottom: height })

  // Deskewed (rotated by -skew about the centre) coordinates, as rotatedBox/warp in app/ocr/.
  const rad = (-layout.skewDegrees * Math.PI) / 180
  const cos = Math.cos(rad)
  const sin = Math.sin(rad)
  const cx = width / 2
  const cy = height / 2
  const n = ink.xs.length
  let box = { left: -cx, top: -cy, right: cx, bottom: cy }
  if (n > 50) {
    const rx = new Float64Array(n)
    const ry = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const dx = ink.xs[i] + 0.5 - cx
      const dy = ink.ys[i] + 0.5 - cy
      rx[i] = dx * cos - dy * sin
      ry[i] = dx * sin + dy * cos
    }
    rx.sort()
    ry.sort()
    const at = (s: Float64Array, q: number) => s[Math.round(q * (s.length - 1))]
    box = { left: at(rx, TRIM), right: at(rx, 1 - TRIM), top: at(ry, TRIM), bottom: at(ry, 1 - TRIM) }
    const mw = (box.right - box.left) * MARGIN
    const mh = (box.bottom - box.top) * MARGIN
    box = { left: box.left - mw, right: box.right + mw, top: box.top - mh, bottom: box.bottom + mh }
  }

  const N = FINGERPRINT_GRID
  const grid = new Float64Array(N * N)
  const cellW = (box.right - box.left) / N
  const cellH = (box.bottom - box.top) / N
  const maxX = width - 1
  const maxY = height - 1
  const d = src.data
  for (let v = 0; v < N; v++) {
    for (let u = 0; u < N; u++) {
      let sum = 0
      for (let j = 0; j < SUPERSAMPLE; j++) {
        const ry = box.top + (v + (j + 0.5) / SUPERSAMPLE) * cellH
        for (let i = 0; i < SUPERSAMPLE; i++) {
          const rx = box.left + (u + (i + 0.5) / SUPERSAMPLE) * cellW
          const x = cx + rx * cos + ry * sin - 0.5
          const y = cy - rx * sin + ry * cos - 0.5
          if (x < 0 || y < 0 || x > maxX || y > maxY) {
            sum += 255
            continue
          }
          const x0 = x | 0
          const y0 = y | 0
          const fx = x - x0
          const fy = y - y0
          const x1 = x0 < maxX ? x0 + 1 : x0
          const i0 = y0 * width
          const i1 = (y0 < maxY ? y0 + 1 : y0) * width
          const top = d[i0 + x0] + (d[i0 + x1] - d[i0 + x0]) * fx
          const bottom = d[i1 + x0] + (d[i1 + x1] - d[i1 + x0]) * fx
          sum += top + (bottom - top) * fy
        }
      }
      grid[v * N + u] = sum / (SUPERSAMPLE * SUPERSAMPLE)
    }
  }
  // Grey -> ink density: the paper level to 0, the darkest 1 % of cells to 1.
  const sorted = Float64Array.from(grid).sort()
  const paper = sorted[Math.round(PAPER_QUANTILE * (sorted.length - 1))]
  const dark = sorted[Math.round(0.01 * (sorted.length - 1))]
  const span = Math.max(8, paper - dark)
  for (let i = 0; i < grid.length; i++) grid[i] = Math.min(1, Math.max(0, (paper - grid[i]) / span))
  return grid
}

/** cos((2x + 1) k pi / 2N) for k < K, x < N. */
const COS = (() => {
  const N = FINGERPRINT_GRID
  const K = FINGERPRINT_DCT_SIZE
  const t = new Float64Array(K * N)
  for (let k = 0; k < K; k++) for (let x = 0; x < N; x++) t[k * N + x] = Math.cos(((2 * x + 1) * k * Math.PI) / (2 * N))
  return t
})()

function hashBits(grid: Float64Array): Uint8Array {
  const N = FINGERPRINT_GRID
  const K = FINGERPRINT_DCT_SIZE
  // Columns first (K x N), then rows (K x K); unnormalised DCT-II: the median threshold ignores scale.
  const partial = new Float64Array(K * N)
  for (let ky = 0; ky < K; ky++) {
    for (let x = 0; x < N; x++) {
      let s = 0
      for (let y = 0; y < N; y++) s += COS[ky * N + y] * grid[y * N + x]
      partial[ky * N + x] = s
    }
  }
  const coefficients = new Float64Array(K * K - 1)
  for (let ky = 0; ky < K; ky++) {
    for (let kx = 0; kx < K; kx++) {
      if (kx === 0 && ky === 0) continue
      let s = 0
      for (let x = 0; x < N; x++) s += COS[kx * N + x] * partial[ky * N + x]
      coefficients[ky * K + kx - 1] = s
    }
  }
  const median = Float64Array.from(coefficients).sort()[(coefficients.length - 1) >> 1]
  return Uint8Array.from(coefficients, (c) => (c > median ? 1 : 0))
}

function toHex(bits: Uint8Array): string {
  let hex = ''
  for (let i = 0; i < bits.length; i += 4) {
    const nibble = (bits[i] << 3) | ((bits[i + 1] ?? 0) << 2) | ((bits[i + 2] ?? 0) << 1) | (bits[i + 3] ?? 0)
    hex += nibble.toString(16)
  }
  return hex
}

/** Mean over a (2r+1) x (2r+1) square (edges repeated), with running sums. */
function boxBlur(g: Grey, r: number): Grey {
  const { width: w, height: h, data } = g
  const rows = new Int32Array(w * h)
  for (let y = 0; y < h; y++) {
    const row = y * w
    const last = row + w - 1
    let s = 0
    for (let d = -r; d <= r; d++) s += data[row + Math.min(w - 1, Math.max(0, d))]
    for (let x = 0; x < w; x++) {
      rows[row + x] = s
      const add = row + x + r + 1
      const drop = row + x - r
      s += data[add > last ? last : add] - data[drop < row ? row : drop]
    }
  }
  const out = new Uint8Array(w * h)
  const div = (2 * r + 1) * (2 * r + 1)
  const half = div >> 1
  const sums = new Int32Array(w)
  for (let d = -r; d <= r; d++) {
    const row = Math.min(h - 1, Math.max(0, d)) * w
    for (let x = 0; x < w; x++) sums[x] += rows[row + x]
  }
  for (let y = 0; y < h; y++) {
    const row = y * w
    const add = Math.min(h - 1, y + r + 1) * w
    const drop = Math.max(0, y - r) * w
    for (let x = 0; x < w; x++) {
      out[row + x] = ((sums[x] + half) / div) | 0
      sums[x] += rows[add + x] - rows[drop + x]
    }
  }
  return { data: out, width: w, height: h }
}

/**
 * Erode a 0/1 mask (null = everything) by a (2r+1) square; the image border counts as outside, so
 * a screenshot loses its outer r pixels too and a photo its paper's rim.
 */
function erode(mask: Uint8Array | null, w: number, h: number, r: number): Uint8Array {
  const src = mask ?? new Uint8Array(w * h).fill(1)
  // Horizontal pass: keep a pixel when the run of ones through it reaches r on both sides.
  const horizontal = new Uint8Array(w * h)
  const run = new Int32Array(Math.max(w, h))
  for (let y = 0; y < h; y++) {
    const row = y * w
    let left = 0
    for (let x = 0; x < w; x++) run[x] = left = src[row + x] ? left + 1 : 0
    let right = 0
    for (let x = w - 1; x >= 0; x--) {
      right = src[row + x] ? right + 1 : 0
      if (run[x] > r && right > r) horizontal[row + x] = 1
    }
  }
  const out = new Uint8Array(w * h)
  for (let x = 0; x < w; x++) {
    let top = 0
    for (let y = 0; y < h; y++) run[y] = top = horizontal[y * w + x] ? top + 1 : 0
    let bottom = 0
    for (let y = h - 1; y >= 0; y--) {
      bottom = horizontal[y * w + x] ? bottom + 1 : 0
      if (run[y] > r && bottom > r) out[y * w + x] = 1
    }
  }
  return out
}

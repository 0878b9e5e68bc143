import sharp from 'sharp'

/** Spec §5 limits. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const MIN_IMAGE_WIDTH = 500
/** Decompression-bomb guard: a 5 MB PNG can claim gigapixels. 50 MP is plenty for a phone photo. */
export const MAX_INPUT_PIXELS = 50_000_000

export type ReceiptImageErrorCode =
  | 'missing'
  | 'invalid_type'
  | 'too_large'
  | 'too_small'
  | 'unreadable'

const MESSAGES: Record<ReceiptImageErrorCode, string> = {
  missing: 'No image file provided',
  invalid_type: 'Invalid file type. Please upload an image',
  too_large: 'Image file is too large. Maximum size is 5MB',
  too_small: 'Image resolution is too low. Please take a clearer photo',
  unreadable: 'Failed to load image for validation',
}

export class ReceiptImageError extends Error {
  readonly status = 400
  constructor(readonly code: ReceiptImageErrorCode) {
    super(MESSAGES[code])
    this.name = 'ReceiptImageError'
  }
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'heif' | 'tiff'

/** Sniff the format from magic bytes: the file name and client MIME type are not to be trusted. */
export function sniffImageFormat(buf: Uint8Array): ImageFormat | null {
  const b = buf
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to))
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png'
  if (b.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp'
  if (b.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'gif'
  if (b.length >= 4 && (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*')) return 'tiff'
  // ISO-BMFF: '....ftyp' + a HEIF/AVIF brand.
  if (b.length >= 12 && ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12)
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1|avif|avis)$/.test(brand)) return 'heif'
  }
  return null
}

export type ValidatedImage = { width: number; height: number; format: ImageFormat }

/** Spec §5 checks, in the spec's order. Throws ReceiptImageError with the spec's message. */
export async function validateReceiptImage(buf: Buffer | null | undefined): Promise<ValidatedImage> {
  if (!buf || buf.length === 0) throw new ReceiptImageError('missing')
  const format = sniffImageFormat(buf)
  if (!format) throw new ReceiptImageError('invalid_type')
  if (buf.length > MAX_IMAGE_BYTES) throw new ReceiptImageError('too_large')
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>
  try {
    meta = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
  } catch {
    throw new ReceiptImageError('unreadable')
  }
  if (!meta.width || !meta.height) throw new ReceiptImageError('unreadable')
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new ReceiptImageError('unreadable')
  // EXIF orientations 5-8 swap the axes: judge the width the user actually sees.
  const swap = (meta.orientation ?? 1) >= 5
  const width = swap ? meta.height : meta.width
  const height = swap ? meta.width : meta.height
  if (width < MIN_IMAGE_WIDTH) throw new ReceiptImageError('too_small')
  // metadata() only reads the header; make sure the pixels decode too (truncated uploads).
  try {
    await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .resize({ width: 64, height: 64, fit: 'inside' })
      .raw()
      .toBuffer()
  } catch {
    throw new ReceiptImageError('unreadable')
  }
  return { width, height, format }
}

// ---------------------------------------------------------------------------
// Preprocessing for OCR. Measurements behind each step: docs/decisions/010-receipt-ocr-pipeline.md
// ---------------------------------------------------------------------------

export type Grey = { data: Uint8Array; width: number; height: number }
export type Box = { left: number; top: number; right: number; bottom: number }

export type PreprocessOptions = {
  /** Crop to the receipt paper when it stands out from the background. */
  crop?: boolean
  /** Straighten the text lines (tesseract copes badly with more than a degree or two in PSM 6). */
  deskew?: boolean
  /** Target text row height in output pixels; the image is scaled to reach it. */
  lineHeight?: number
  /** Cap on the output's long side (OCR time grows with the pixel count). */
  maxSide?: number
  /** Stretch the grey levels so ink is black and paper white (percentiles 1 / 99). */
  normalise?: boolean
  /** Quarter turns clockwise applied after EXIF orientation (retrying a photo taken sideways). */
  quarterTurns?: 0 | 1 | 2 | 3
  /**
   * Divide out the paper's local brightness (blocks of this many output pixels; 0 = off): shading
   * and JPEG block tones become flat white, so only the ink is left dark.
   */
  flattenBlock?: number
}

export const DEFAULT_PREPROCESS: Required<PreprocessOptions> = {
  crop: true,
  deskew: true,
  lineHeight: 30,
  maxSide: 2000,
  normalise: true,
  quarterTurns: 0,
  flattenBlock: 16,
}

export type PreparedImage = {
  /** 8-bit greyscale PGM: leptonica reads it with no decompression step. */
  image: Buffer
  width: number
  height: number
  skewDegrees: number
  scale: number
  cropped: boolean
}

/** Long side of the copy the layout is analysed on. */
const ANALYSIS_SIDE = 500
/** Decode no larger than this: a 12 MP phone photo has far more pixels than OCR needs. */
const DECODE_SIDE = 2400

/**
 * EXIF-rotate and decode once with sharp, then in one JS pass: deskew, crop to the paper and scale
 * to a text height tesseract reads well, then stretch contrast. Doing the geometry in JS on 8-bit
 * greyscale is ~5x faster than chaining sharp operations (measured: sharp resize + normalise on
 * 1 MP took ~150 ms here with libvips on one thread).
 */
export async function prepareForOcr(buf: Buffer, options: PreprocessOptions = {}): Promise<PreparedImage> {
  const opt = { ...DEFAULT_PREPROCESS, ...options }
  const full = turn(await decodeGrey(buf), opt.quarterTurns)
  const small = downscale(full, Math.max(1, Math.ceil(Math.max(full.width, full.height) / ANALYSIS_SIDE)))
  const ratio = full.width / small.width
  const layout = analyseLayout(small, opt)
  const angle = opt.deskew && Math.abs(layout.skewDegrees) >= 0.3 ? layout.skewDegrees : 0
  const paperBox = opt.crop && layout.paper ? rotatedBox(layout.paper, small, -angle, ratio) : null
  const wholeBox = rotatedBoxOfRect(full.width, full.height, -angle)
  const box = paperBox && area(paperBox) < 0.9 * area(wholeBox) ? paperBox : wholeBox
  const boxW = box.right - box.left
  const boxH = box.bottom - box.top
  const lineHeight = layout.lineHeight ? layout.lineHeight * ratio : null
  let scale = lineHeight ? opt.lineHeight / lineHeight : 1
  scale = Math.max(0.25, Math.min(scale, 3, opt.maxSide / Math.max(boxW, boxH)))
  // Bilinear sampling aliases when shrinking a lot: box-filter to about the right size first.
  const pre = scale < 0.7 ? Math.floor(1 / scale) : 1
  const source = pre > 1 ? downscale(full, pre) : full
  const out = warp(source, {
    box: scaleBox(box, 1 / pre),
    degrees: -angle,
    scale: scale * pre,
    background: layout.paperLevel,
  })
  if (opt.flattenBlock > 0) flattenBackground(out, opt.flattenBlock)
  if (opt.normalise) stretchContrast(out)
  return {
    image: toPgm(out),
    width: out.width,
    height: out.height,
    skewDegrees: angle,
    scale,
    cropped: box !== wholeBox,
  }
}

async function decodeGrey(buf: Buffer): Promise<Grey> {
  const { data, info } = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    // Transparent screenshots: transparent pixels are often stored black; put them on white paper.
    .flatten({ background: '#ffffff' })
    .resize({ width: DECODE_SIDE, height: DECODE_SIDE, fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return greyFromRaw(data, info)
}

/** sharp's raw output as one grey channel: should greyscale() still hand back more, keep the first. */
export function greyFromRaw(data: Uint8Array, info: { width: number; height: number; channels: number }): Grey {
  if (info.channels === 1) return { data, width: info.width, height: info.height }
  const out = new Uint8Array(info.width * info.height)
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels]
  return { data: out, width: info.width, height: info.height }
}

/** Rotate by quarter turns clockwise. */
function turn(g: Grey, quarterTurns: number): Grey {
  const q = ((quarterTurns % 4) + 4) % 4
  if (q === 0) return g
  const { width: w, height: h, data } = g
  if (q === 2) return { data: Uint8Array.from(data).reverse(), width: w, height: h }
  const out = new Uint8Array(w * h)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // Clockwise: (x, y) -> (h - 1 - y, x); counter-clockwise: (x, y) -> (y, w - 1 - x).
      const i = q === 1 ? x * h + (h - 1 - y) : (w - 1 - x) * h + y
      out[i] = data[y * w + x]
    }
  }
  return { data: out, width: h, height: w }
}

/** Average k x k blocks. */
function downscale(g: Grey, k: number): Grey {
  if (k <= 1) return g
  const width = Math.floor(g.width / k)
  const height = Math.floor(g.height / k)
  const out = new Uint8Array(width * height)
  const sums = new Uint32Array(width)
  for (let y = 0; y < height; y++) {
    sums.fill(0)
    for (let dy = 0; dy < k; dy++) {
      const row = (y * k + dy) * g.width
      for (let x = 0; x < width; x++) {
        let s = 0
        const from = row + x * k
        for (let dx = 0; dx < k; dx++) s += g.data[from + dx]
        sums[x] += s
      }
    }
    const div = k * k
    for (let x = 0; x < width; x++) out[y * width + x] = (sums[x] / div + 0.5) | 0
  }
  return { data: out, width, height }
}

/** A box in "rotated" coordinates: relative to the image centre after rotating by the deskew angle. */
export type CentredBox = { left: number; top: number; right: number; bottom: number }

const area = (b: CentredBox) => (b.right - b.left) * (b.bottom - b.top)
const scaleBox = (b: CentredBox, f: number): CentredBox => ({
  left: b.left * f,
  top: b.top * f,
  right: b.right * f,
  bottom: b.bottom * f,
})

function rotatedBoxOfRect(width: number, height: number, degrees: number): CentredBox {
  const rad = (degrees * Math.PI) / 180
  const w = (Math.abs(width * Math.cos(rad)) + Math.abs(height * Math.sin(rad))) / 2
  const h = (Math.abs(width * Math.sin(rad)) + Math.abs(height * Math.cos(rad))) / 2
  return { left: -w, top: -h, right: w, bottom: h }
}

/**
 * Sample `box` (centred, rotated coordinates) out of `g` rotated by `degrees` (clockwise), scaled
 * by `scale`, with bilinear interpolation. Outside the image: the paper's grey.
 */
export function warp(g: Grey, o: { box: CentredBox; degrees: number; scale: number; background: number }): Grey {
  const width = Math.max(1, Math.round((o.box.right - o.box.left) * o.scale))
  const height = Math.max(1, Math.round((o.box.bottom - o.box.top) * o.scale))
  const out = new Uint8Array(width * height)
  const rad = (o.degrees * Math.PI) / 180
  const cos = Math.cos(rad)
  const sin = Math.sin(rad)
  const cx = g.width / 2
  const cy = g.height / 2
  const inv = 1 / o.scale
  const src = g.data
  const maxX = g.width - 1
  const maxY = g.height - 1
  for (let v = 0; v < height; v++) {
    const ry = o.box.top + (v + 0.5) * inv
    // Source position for u = 0, and its step per output pixel.
    const rx0 = o.box.left + 0.5 * inv
    let x = cx + rx0 * cos + ry * sin - 0.5
    let y = cy - rx0 * sin + ry * cos - 0.5
    const stepX = inv * cos
    const stepY = -inv * sin
    const row = v * width
    for (let u = 0; u < width; u++, x += stepX, y += stepY) {
      if (x < 0 || y < 0 || x > maxX || y > maxY) {
        out[row + u] = o.background
        continue
      }
      const x0 = x | 0
      const y0 = y | 0
      const fx = x - x0
      const fy = y - y0
      const x1 = x0 < maxX ? x0 + 1 : x0
      const y1 = y0 < maxY ? y0 + 1 : y0
      const i00 = y0 * g.width
      const i10 = y1 * g.width
      const top = src[i00 + x0] + (src[i00 + x1] - src[i00 + x0]) * fx
      const bottom = src[i10 + x0] + (src[i10 + x1] - src[i10 + x0]) * fx
      out[row + u] = (top + (bottom - top) * fy + 0.5) | 0
    }
  }
  return { data: out, width, height }
}

/**
 * Estimate the paper's brightness per block (a high percentile: most of a block is paper), take
 * the brightest of each 3x3 neighbourhood so a block full of ink borrows from its neighbours,
 * interpolate bilinearly and scale every pixel so the paper becomes 255.
 */
export function flattenBackground(g: Grey, block: number): void {
  const { width, height, data } = g
  const bw = Math.max(1, Math.ceil(width / block))
  const bh = Math.max(1, Math.ceil(height / block))
  const level = new Float32Array(bw * bh)
  const h = new Uint32Array(256)
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      h.fill(0)
      let n = 0
      for (let y = by * block; y < Math.min(height, (by + 1) * block); y++) {
        for (let x = bx * block; x < Math.min(width, (bx + 1) * block); x++) {
          h[data[y * width + x]]++
          n++
        }
      }
      let c = 0
      let v = 255
      for (let i = 255; i >= 0; i--) {
        c += h[i]
        if (c >= n * 0.1) {
          v = i
          break
        }
      }
      level[by * bw + bx] = v
    }
  }
  const smooth = new Float32Array(bw * bh)
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let m = 0
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = bx + dx
          const y = by + dy
          if (x >= 0 && y >= 0 && x < bw && y < bh) m = Math.max(m, level[y * bw + x])
        }
      }
      // Mix the block's own level back in so real shading (a shadow across the page) still divides out.
      smooth[by * bw + bx] = Math.max(level[by * bw + bx], 0.5 * (m + level[by * bw + bx]))
    }
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(bh - 1, Math.max(0, (y + 0.5) / block - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(bh - 1, y0 + 1)
    const ty = fy - y0
    for (let x = 0; x < width; x++) {
      const fx = Math.min(bw - 1, Math.max(0, (x + 0.5) / block - 0.5))
      const x0 = Math.floor(fx)
      const x1 = Math.min(bw - 1, x0 + 1)
      const tx = fx - x0
      const top = smooth[y0 * bw + x0] + (smooth[y0 * bw + x1] - smooth[y0 * bw + x0]) * tx
      const bottom = smooth[y1 * bw + x0] + (smooth[y1 * bw + x1] - smooth[y1 * bw + x0]) * tx
      const bg = Math.max(16, top + (bottom - top) * ty)
      const i = y * width + x
      data[i] = Math.min(255, Math.round((data[i] * 255) / bg))
    }
  }
}

/** Map the 1st..99th percentile onto 0..255 (a photo's "black" ink is often mid-grey). */
function stretchContrast(g: Grey): void {
  const h = histogram(g.data)
  const n = g.data.length
  const percentile = (q: number) => {
    let c = 0
    for (let v = 0; v < 256; v++) {
      c += h[v]
      if (c >= q * n) return v
    }
    return 255
  }
  const lo = percentile(0.01)
  const hi = percentile(0.99)
  if (hi - lo < 8) return
  const lut = new Uint8Array(256)
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / (hi - lo))))
  for (let i = 0; i < n; i++) g.data[i] = lut[g.data[i]]
}

function toPgm(g: Grey): Buffer {
  const header = Buffer.from(`P5\n${g.width} ${g.height}\n255\n`, 'ascii')
  return Buffer.concat([header, Buffer.from(g.data.buffer, g.data.byteOffset, g.width * g.height)])
}

type Layout = {
  paper: { mask: Uint8Array; box: Box } | null
  paperLevel: number
  skewDegrees: number
  lineHeight: number | null
}

/** Work out, on a small copy, where the paper is, how skewed the lines are and how tall they are. */
export function analyseLayout(g: Grey, opt: { crop: boolean; deskew: boolean }): Layout {
  const threshold = otsu(histogram(g.data))
  const paper = opt.crop ? largestBrightRegion(g, threshold) : null
  const inside = paper ? paperInterior(paper.mask, g) : null
  const ink = inkPoints(g, inside, paper ? paper.box : fullBox(g))
  // The sheet's edges are long straight lines: where they agree they bound the text's angle,
  // which keeps sparse two-column receipts from locking onto a label-to-amount diagonal.
  const edge = paper ? paperEdgeAngle(paper.mask, paper.box, g.width) : null
  const range = edge === null ? { from: -MAX_SKEW, to: MAX_SKEW } : { from: edge - 2, to: edge + 2 }
  const skewDegrees = opt.deskew && ink.xs.length > 50 ? estimateSkew(ink.xs, ink.ys, g.height, g.width, range) : 0
  const lineHeight = ink.xs.length > 50 ? estimateLineHeight(ink.xs, ink.ys, skewDegrees, g.height, g.width) : null
  return { paper, paperLevel: ink.paperLevel, skewDegrees, lineHeight }
}


function fullBox(g: Grey): Box {
  return { left: 0, top: 0, right: g.width, bottom: g.height }
}

function histogram(data: Uint8Array): Uint32Array {
  const h = new Uint32Array(256)
  for (let i = 0; i < data.length; i++) h[data[i]]++
  return h
}

export function otsu(h: Uint32Array): number {
  let total = 0
  let sum = 0
  for (let i = 0; i < 256; i++) {
    total += h[i]
    sum += i * h[i]
  }
  let sumB = 0
  let wB = 0
  let best = 0
  let threshold = 127
  for (let t = 0; t < 256; t++) {
    wB += h[t]
    if (wB === 0) continue
    const wF = total - wB
    if (wF === 0) break
    sumB += t * h[t]
    const mB = sumB / wB
    const mF = (sum - sumB) / wF
    const between = wB * wF * (mB - mF) * (mB - mF)
    if (between > best) {
      best = between
      threshold = t
    }
  }
  return threshold
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
  return { xs: xs.subarray(0, k), ys: ys.subarray(0, k), paperLevel }
  return { xs, ys, paperLevel }
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

/** Median height of the text rows in the deskewed profile. */
export function estimateLineHeight(xs: Points, ys: Points, degrees: number, height: number, width: number): number | null {
  const bins = profile(xs, ys, degrees, height, width)
  let max = 0
  for (let i = 0; i < bins.length; i++) max = Math.max(max, bins[i])
  if (max === 0) return null
  const runs: number[] = []
  let run = 0
  for (let i = 0; i <= bins.length; i++) {
    if (i < bins.length && bins[i] > max * 0.08) run++
    else if (run > 0) {
      if (run >= 3) runs.push(run)
      run = 0
    }
  }
  if (runs.length === 0) return null
  runs.sort((a, b) => a - b)
  return runs[Math.floor(runs.length / 2)]
}

/** The paper's bounding box after rotating by `degrees`, centred, in full-size pixels. */
function rotatedBox(paper: { mask: Uint8Array; box: Box }, small: Grey, degrees: number, ratio: number): CentredBox | null {
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

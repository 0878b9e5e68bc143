import sharp from 'sharp'
import { decodeGrey, decodeGreyWithin, downscale, histogram, orientedSize, turn, type Grey } from './grey.server'
import { flatShare } from './levels'
import { inkRows, pagePieces } from './bands'
import { paintOverCodes } from './codes'
import { analyseLayout, area, rotatedBox, rotatedBoxOfRect, scaleBox, type CentredBox } from './layout.server'

// A photo made into the image tesseract reads best: deskewed, cropped to the paper, scaled to a text
// height, shading flattened, contrast stretched (decision 010). Measurements behind each step:
// docs/research/receipt-ocr-lab-notes.md

export type PreprocessOptions = {
  /** Crop to the receipt paper when it stands out from the background. */
  crop?: boolean
  /** Straighten the text lines (tesseract copes badly with more than a degree or two in PSM 6). */
  deskew?: boolean
  /** Target text row height in output pixels; the image is scaled to reach it. */
  lineHeight?: number
  /** Cap on the output's long side (OCR time grows with the pixel count); not for a long page (TALL_PAGE), which `maxPixels` caps. */
  maxSide?: number
  /** Cap on the output's pixels: a long screenshot keeps its text height within it (issue 37). */
  maxPixels?: number
  /** Stretch the grey levels so ink is black and paper white (percentiles 1 / 99). */
  normalise?: boolean
  /** Quarter turns clockwise applied after EXIF orientation (retrying a photo taken sideways). */
  quarterTurns?: 0 | 1 | 2 | 3
  /**
   * Divide out the paper's local brightness (blocks of this many output pixels; 0 = off): shading
   * and JPEG block tones become flat white, so only the ink is left dark.
   */
  flattenBlock?: number
  /**
   * A photo whose prepared image still has more than this share of grey pixels (neither ink nor
   * paper) is speckled with noise that tesseract reads as text, slowly: it gets a median filter.
   * Screenshots (a few flat colours) never do. 0 = off.
   */
  despeckleAbove?: number
}

export const DEFAULT_PREPROCESS: Required<PreprocessOptions> = {
  crop: true,
  deskew: true,
  lineHeight: 30,
  maxSide: 2000,
  maxPixels: 4_000_000,
  normalise: true,
  quarterTurns: 0,
  flattenBlock: 16,
  despeckleAbove: 0.1,
}

/** The median filter's window for a speckled image (lab notes: 3 left the blobs, 5 removed them). */
const DESPECKLE_SIZE = 5

export type PreparedImage = {
  /** 8-bit greyscale PGM: leptonica reads it with no decompression step. */
  image: Buffer
  /**
   * A long page (TALL_PAGE) also in pieces of at most BAND_ROWS text rows, top to bottom, cut
   * between lines, its footer (FOOTER_ROWS) a piece of its own: read one at a time, the reading can
   * stop once the receipt is read (issue 37).
   */
  bands: Buffer[] | null
  width: number
  height: number
  skewDegrees: number
  scale: number
  cropped: boolean
}

/** Long side of the copy the layout is analysed on. */
const ANALYSIS_SIDE = 500
/**
 * Share of a page taken for ink above which it is not text on paper (lab notes, issue 23): receipt
 * photos and screenshots measured 0.02-0.36; a grey card on a white screenshot 0.55, a dark-mode page
 * 0.98 (with no bright paper found).
 */
const PANEL_INK_SHARE = 0.45
const DARK_PAGE_INK_SHARE = 0.6
/**
 * Share of the analysis copy in its three commonest grey levels from which it is a screenshot:
 * screenshots measured 0.94-0.99 (0.92 saved as JPEG), photos of the three sets at most 0.91.
 */
const SCREENSHOT_SHARE = 0.9
/** A smaller skew is left alone (degrees). */
const MIN_DESKEW = 0.3
/** Blocks of the analysis copy flattened when a panel passed for ink (about a text row there). */
const LAYOUT_FLATTEN_BLOCK = 16

/**
 * EXIF-rotate and decode once with sharp, then in one JS pass: deskew, crop to the paper and scale
 * to a text height tesseract reads well, then stretch contrast. Doing the geometry in JS on 8-bit
 * greyscale is ~5x faster than chaining sharp operations (measured: sharp resize + normalise on
 * 1 MP took ~150 ms here with libvips on one thread).
 */
export async function prepareForOcr(buf: Buffer, options: PreprocessOptions = {}): Promise<PreparedImage> {
  const opt = { ...DEFAULT_PREPROCESS, ...options }
  const probe = await probeImage(buf, opt.quarterTurns)
  const small = probe.small
  let layout = analyseLayout(small, opt)
  // A screenshot is drawn in a few flat colours; a photo's paper spreads over many grey levels.
  const screenshot = flatShare(histogram(small.data), small.data.length) >= SCREENSHOT_SHARE
  // Dark mode: light text on a dark page has no bright paper and passes for ink nearly everywhere.
  // Read it as dark text on light.
  const inverted = screenshot && !layout.paper && layout.inkShare > DARK_PAGE_INK_SHARE
  if (inverted) {
    invert(small)
    layout = analyseLayout(small, opt)
  }
  // A light page's dark bands (an e-mail's black header or footer, where its company name is printed
  // in grey) are read as dark text on light too: left as they are, they are cropped off as not paper.
  // Screenshots and long pages only (a whole e-mail's many colours can fail the screenshot test, and
  // no camera photo is three times taller than wide): a photo's dark rows are the table around it.
  const longPage = probe.height >= TALL_PAGE * probe.width
  const darkBands = (screenshot || longPage) && !inverted && invertDarkRows(small) > 0
  // Such a page is all screen, nothing around it to crop: with its dark class gone, the threshold
  // would part its tinted panels from the white ones and crop to one of them.
  const layoutOpt = darkBands ? { ...opt, crop: false } : opt
  if (darkBands) layout = analyseLayout(small, layoutOpt)
  // A panel darker than the page (an app receipt's grey card) passes for ink too, and its height for
  // a line's: look for the ink on a copy whose panels are flattened to paper. Straight screenshots only:
  // on a grainy photo the grain passes for ink, and its layout stands.
  const straightPage = Math.abs(layout.skewDegrees) < MIN_DESKEW && (!layout.paper || area(layout.paper.box) >= 0.9 * small.width * small.height)
  if (layout.inkShare > PANEL_INK_SHARE && screenshot && straightPage) {
    const flat = { ...small, data: Uint8Array.from(small.data) }
    flattenBackground(flat, LAYOUT_FLATTEN_BLOCK)
    layout = analyseLayout(small, layoutOpt, flat)
    // A darker panel's rim can still pass for one tall line: then read the page at its own size.
    if (layout.lineHeight !== null && layout.lineHeight > small.height / 8) layout = { ...layout, lineHeight: null }
  }
  // The pixels read: the whole photo as decoded (up to 4 MP), or a large one decoded at its text's size.
  const full = probe.full ?? (await decodeAtTextSize(buf, probe, layout.lineHeight, opt))
  if (inverted && full !== small) invert(full)
  if (darkBands && full !== small) invertDarkRows(full)
  const ratio = full.width / small.width
  const angle = opt.deskew && Math.abs(layout.skewDegrees) >= MIN_DESKEW ? layout.skewDegrees : 0
  const paperBox = opt.crop && layout.paper ? rotatedBox(layout.paper, small, -angle, ratio) : null
  const wholeBox = rotatedBoxOfRect(full.width, full.height, -angle)
  const box = paperBox && area(paperBox) < 0.9 * area(wholeBox) ? paperBox : wholeBox
  const boxW = box.right - box.left
  const boxH = box.bottom - box.top
  const lineHeight = layout.lineHeight ? layout.lineHeight * ratio : null
  let scale = lineHeight ? opt.lineHeight / lineHeight : 1
  // A long screenshot keeps its text's height: only its pixel count is capped (its blank stretches are closed below).
  const longSideCap = boxH >= TALL_PAGE * boxW ? Infinity : opt.maxSide / Math.max(boxW, boxH)
  scale = Math.max(0.25, Math.min(scale, 3, longSideCap, Math.sqrt(opt.maxPixels / (boxW * boxH))))
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
  // Never a screenshot: it has no grain, and its grey panels could pass for it, where a median
  // would thin the strokes.
  if (opt.despeckleAbove > 0 && !screenshot && greyShare(out) > opt.despeckleAbove) {
    await median(out, DESPECKLE_SIZE)
    if (opt.normalise) stretchContrast(out)
  }
  // A ticket's QR or Aztec code is read as rows of garbage, slowly, and lowers the page's confidence: it holds nothing to read.
  paintOverCodes(out, opt.lineHeight)
  // A long screenshot is mostly blank space between blocks of text: tesseract reads the text alone.
  const tall = out.height >= TALL_PAGE * out.width
  const read = tall ? closeBlankRows(out, opt.lineHeight) : out
  return {
    image: toPgm(read),
    bands: tall ? pagePieces(inkRows(read.data, read.width, read.height, 1), BAND_ROWS * opt.lineHeight, FOOTER_ROWS * opt.lineHeight).map((b) => toPgm({ data: read.data.subarray(b.start * read.width, b.end * read.width), width: read.width, height: b.end - b.start })) : null,
    width: read.width,
    height: read.height,
    skewDegrees: angle,
    scale,
    cropped: box !== wholeBox,
  }
}

/** Photos up to this many pixels are decoded whole (at most 2400 px long), as before issue 37: the dev set's are 0.5-1.6 MP. */
const DIRECT_PIXELS = 4_000_000
/** A larger photo's layout is measured on a copy whose shorter side is this long... */
const PROBE_SHORT_SIDE = 500
/** ...and whose long side is at most this (a 1290 x 7800 screenshot's copy: 500 x 3023). */
const PROBE_LONG_SIDE = 3200
/** It is then decoded with its text rows this much taller than the target: the warp shrinks a little rather than enlarging. */
const DECODE_HEADROOM = 1.15
/** Nor decoded larger than this: 16 MP of grey is 16 MB. */
const MAX_DECODE_PIXELS = 16_000_000
/** Formats sharp decodes at a fraction of their size when asked for a smaller image. */
const SHRINK_ON_LOAD = new Set(['jpeg', 'webp'])

type Probe = {
  /** The copy the layout is measured on (≤ 500 px long for a photo decoded whole). */
  small: Grey
  /** The pixels to read, when already decoded (small photos, and formats decoded whole); else decodeAtTextSize. */
  full: Grey | null
  /** The photo's size as shown, after `quarterTurns`. */
  width: number
  height: number
  /** For a large photo of a format decoded whole: every pixel of it, to average down from. */
  whole: Grey | null
  /** Its EXIF orientation. */
  orientation: number
}

/**
 * A first look at the photo: a small copy to measure the layout on. A photo up to DIRECT_PIXELS is
 * decoded whole (at most 2400 px long) as it always was; a larger one (a 12 MP phone photo, a 10 MP
 * long screenshot) only as a small copy, and decoded again at the size its text needs once the
 * rows are measured (decodeAtTextSize). A JPEG's small copy costs a fraction of a full decode; a
 * PNG has no such shortcut, so it is decoded once, whole, and averaged down in JS.
 */
async function probeImage(buf: Buffer, quarterTurns: number): Promise<Probe> {
  const size = await orientedSize(buf)
  if (!size || size.width * size.height <= DIRECT_PIXELS) {
    const full = turn(await decodeGrey(buf), quarterTurns)
    const small = downscale(full, Math.max(1, Math.ceil(Math.max(full.width, full.height) / ANALYSIS_SIDE)))
    return { small, full, width: full.width, height: full.height, whole: null, orientation: 1 }
  }
  const sideways = quarterTurns % 2 === 1
  const width = sideways ? size.height : size.width
  const height = sideways ? size.width : size.height
  const k = Math.min(PROBE_SHORT_SIDE / Math.min(width, height), PROBE_LONG_SIDE / Math.max(width, height))
  if (SHRINK_ON_LOAD.has(size.format)) {
    const small = turn(await decodeGreyWithin(buf, size.width * k, size.height * k, size.orientation), quarterTurns)
    return { small, full: null, width, height, whole: null, orientation: size.orientation }
  }
  const within = Math.min(1, Math.sqrt(MAX_DECODE_PIXELS / (width * height)))
  const whole = turn(await decodeGreyWithin(buf, size.width * within, size.height * within, size.orientation), quarterTurns)
  return { small: downscale(whole, Math.max(1, Math.ceil(whole.width / (k * width)))), full: null, width, height, whole, orientation: size.orientation }
}

/**
 * The pixels of a large photo at the size its text needs: rows DECODE_HEADROOM x the target height
 * (never enlarged, never over MAX_DECODE_PIXELS); without measured rows, at most 2400 px long as before.
 */
async function decodeAtTextSize(buf: Buffer, probe: Probe, smallLineHeight: number | null, opt: Required<PreprocessOptions>): Promise<Grey> {
  const sourceLine = smallLineHeight ? (smallLineHeight * probe.width) / probe.small.width : null
  const capped = Math.min(1, Math.sqrt(MAX_DECODE_PIXELS / (probe.width * probe.height)))
  const wanted = sourceLine ? (DECODE_HEADROOM * opt.lineHeight) / sourceLine : 2400 / Math.max(probe.width, probe.height)
  // Never below the probe itself: its pixels are already there.
  const s = Math.max(probe.small.width / probe.width, Math.min(capped, wanted))
  if (probe.whole) return downscale(probe.whole, Math.max(1, Math.floor(probe.whole.width / (s * probe.width))))
  const turned = opt.quarterTurns % 2 === 1
  const w = (turned ? probe.height : probe.width) * s
  const h = (turned ? probe.width : probe.height) * s
  return turn(await decodeGreyWithin(buf, Math.ceil(w), Math.ceil(h), probe.orientation), opt.quarterTurns)
}

/**
 * A page this many times taller than wide is a long screenshot (phones: 1170-1290 x 5000-8000) or a
 * long receipt: its blank stretches are closed. A one-screen screenshot (1170 x 2532) is not.
 */
const TALL_PAGE = 3
/** A long page's pieces: at most this many text rows (of the target height) tall... */
const BAND_ROWS = 34
/** ...and its footer, read on its own: its last this many rows at most. */
const FOOTER_ROWS = 12
/** Blank rows kept between two blocks of text, in text rows (the target height). */
const KEPT_GAP_ROWS = 1.5

/**
 * The page with every blank stretch taller than two text rows closed to one and a half rows: a long
 * screenshot's space between its blocks (receipt, banners, marketing, footer) costs tesseract time
 * and the output pixel budget, and holds nothing to read. No row with ink is dropped, so a brand
 * named only in the footer is still read.
 */
export function closeBlankRows(g: Grey, lineHeight: number): Grey {
  const { width, height, data } = g
  const gap = Math.round(KEPT_GAP_ROWS * lineHeight)
  // A row is blank when (almost) none of its pixels is ink after flattening and stretching.
  const inkAllowed = Math.max(1, Math.floor(width * 0.002))
  const keep = new Uint8Array(height)
  let blankRun = 0
  for (let y = 0; y < height; y++) {
    let ink = 0
    const row = y * width
    for (let x = 0; x < width && ink <= inkAllowed; x++) if (data[row + x] < 128) ink++
    blankRun = ink <= inkAllowed ? blankRun + 1 : 0
    keep[y] = blankRun === 0 || blankRun <= gap ? 1 : 0
  }
  let kept = 0
  for (let y = 0; y < height; y++) kept += keep[y]
  if (kept === height) return g
  const out = new Uint8Array(kept * width)
  let o = 0
  for (let y = 0; y < height; y++) {
    if (!keep[y]) continue
    out.set(data.subarray(y * width, (y + 1) * width), o)
    o += width
  }
  return { data: out, width, height: kept }
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
  // Each block row's levels interpolated across the width once; then each pixel row only blends
  // two of those lines (the same arithmetic as blending the four blocks per pixel, a third of the work).
  const x0s = new Int32Array(width)
  const x1s = new Int32Array(width)
  const txs = new Float64Array(width)
  for (let x = 0; x < width; x++) {
    const fx = Math.min(bw - 1, Math.max(0, (x + 0.5) / block - 0.5))
    x0s[x] = Math.floor(fx)
    x1s[x] = Math.min(bw - 1, x0s[x] + 1)
    txs[x] = fx - x0s[x]
  }
  const across = new Float64Array(bh * width)
  for (let by = 0; by < bh; by++) {
    const base = by * bw
    const line = by * width
    for (let x = 0; x < width; x++) {
      const left = smooth[base + x0s[x]]
      across[line + x] = left + (smooth[base + x1s[x]] - left) * txs[x]
    }
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(bh - 1, Math.max(0, (y + 0.5) / block - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(bh - 1, y0 + 1)
    const ty = fy - y0
    const topLine = y0 * width
    const bottomLine = y1 * width
    const row = y * width
    for (let x = 0; x < width; x++) {
      const top = across[topLine + x]
      const bg = Math.max(16, top + (across[bottomLine + x] - top) * ty)
      const i = row + x
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

function invert(g: Grey): void {
  for (let i = 0; i < g.data.length; i++) g.data[i] = 255 - g.data[i]
}

/** A row whose middle grey level (of DARK_ROW_SAMPLES pixels across) is below this is a dark background. */
const DARK_ROW_LEVEL = 96
const DARK_ROW_SAMPLES = 64
/** A dark band is this share of the page's height at least: a thin rule or a stray dark row is not one. */
const DARK_BAND_MIN_SHARE = 0.005
/**
 * ...and a screen's flat fill: this share of its samples within DARK_BAND_FLAT grey levels of its
 * middle level (its text covers far less). A photographed table or cloth has grain and shading.
 */
const DARK_BAND_FLAT_SHARE = 0.7
const DARK_BAND_FLAT = 6

/**
 * Invert every band of rows whose background is dark from edge to edge: a screenshot's dark footer
 * or header becomes dark text on light like the rest of the page. A row's background is its median
 * (text covers far less than half a row), and its first and last samples are dark too: a dark card
 * with light margins is left to tesseract's own inverted reading. A band counts when it is tall
 * enough (DARK_BAND_MIN_SHARE) and flat (DARK_BAND_FLAT_SHARE). Returns how many rows were inverted.
 */
export function invertDarkRows(g: Grey): number {
  const { width, height, data } = g
  if (width === 0 || height === 0) return 0
  const step = Math.max(1, Math.floor(width / DARK_ROW_SAMPLES))
  const perRow = Math.ceil((width - Math.floor(step / 2)) / step)
  const samples = new Uint8Array(perRow * height)
  const dark = new Uint8Array(height)
  const levels = new Uint8Array(height)
  const sorted = new Uint8Array(perRow)
  for (let y = 0; y < height; y++) {
    const row = samples.subarray(y * perRow, (y + 1) * perRow)
    let n = 0
    for (let x = Math.floor(step / 2); x < width && n < perRow; x += step) row[n++] = data[y * width + x]
    if (row[0] >= DARK_ROW_LEVEL || row[n - 1] >= DARK_ROW_LEVEL) continue
    sorted.set(row)
    sorted.sort()
    levels[y] = sorted[n >> 1]
    dark[y] = levels[y] < DARK_ROW_LEVEL ? 1 : 0
  }
  const minRun = Math.max(2, Math.ceil(height * DARK_BAND_MIN_SHARE))
  let inverted = 0
  for (let y = 0; y < height; ) {
    if (!dark[y]) {
      y++
      continue
    }
    let end = y
    while (end < height && dark[end]) end++
    if (end - y >= minRun && flatBand(samples.subarray(y * perRow, end * perRow), levels.subarray(y, end))) {
      for (let i = y * width; i < end * width; i++) data[i] = 255 - data[i]
      inverted += end - y
    }
    y = end
  }
  return inverted
}

/** Whether a band's samples mostly sit at one grey level: a screen's fill, not a photographed surface. */
function flatBand(samples: Uint8Array, levels: Uint8Array): boolean {
  const level = Uint8Array.from(levels).sort()[levels.length >> 1]
  let flat = 0
  for (let i = 0; i < samples.length; i++) if (Math.abs(samples[i] - level) <= DARK_BAND_FLAT) flat++
  return flat >= DARK_BAND_FLAT_SHARE * samples.length
}

/** Share of pixels between ink and paper (65..191), from every 7th pixel: a few ms on 4 MP. */
export function greyShare(g: Grey): number {
  let grey = 0
  let seen = 0
  for (let i = 0; i < g.data.length; i += 7) {
    const v = g.data[i]
    seen++
    if (v > 64 && v < 192) grey++
  }
  return seen === 0 ? 0 : grey / seen
}

/** In place: libvips' median filter (off the JS thread). */
async function median(g: Grey, size: number): Promise<void> {
  const { data } = await sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } })
    .median(size)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true })
  g.data.set(data.subarray(0, g.data.length))
}

function toPgm(g: Grey): Buffer {
  const header = Buffer.from(`P5\n${g.width} ${g.height}\n255\n`, 'ascii')
  return Buffer.concat([header, Buffer.from(g.data.buffer, g.data.byteOffset, g.width * g.height)])
}

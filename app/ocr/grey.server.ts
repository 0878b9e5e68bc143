import sharp from 'sharp'
import { MAX_INPUT_PIXELS } from './photo.server'

export { histogram, otsu } from './levels'

// Greyscale pixels: decoding a photo once, quarter turns, block averaging, histograms and Otsu's
// threshold. The building blocks of preprocessing (preprocess.server.ts) and of the photo
// fingerprint (app/ocr/fingerprint.server.ts).

export type Grey = { data: Uint8Array; width: number; height: number }
export type Box = { left: number; top: number; right: number; bottom: number }

/** Decode no larger than this: a 12 MP phone photo has far more pixels than OCR needs. */
const DECODE_SIDE = 2400

export async function decodeGrey(buf: Buffer): Promise<Grey> {
  return decodeGreyWithin(buf, DECODE_SIDE, DECODE_SIDE)
}

/**
 * EXIF-rotated, on white, greyscale, fitted inside `width` x `height` (never enlarged). sharp decodes
 * a JPEG at 1/2, 1/4 or 1/8 of its size when that is enough ("shrink on load"): a 12 MP photo wanted
 * at a quarter of its size costs a fraction of a full decode (issue 37).
 */
export async function decodeGreyWithin(buf: Buffer, width: number, height: number): Promise<Grey> {
  const { data, info } = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    // Transparent screenshots: transparent pixels are often stored black; put them on white paper.
    .flatten({ background: '#ffffff' })
    .resize({ width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)), fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return greyFromRaw(data, info)
}

/** The photo's size as shown (after its EXIF orientation) and its format, from the header alone. */
export async function orientedSize(buf: Buffer): Promise<{ width: number; height: number; format: string } | null> {
  try {
    const meta = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
    if (!meta.width || !meta.height) return null
    const swap = (meta.orientation ?? 1) >= 5
    return { width: swap ? meta.height : meta.width, height: swap ? meta.width : meta.height, format: meta.format ?? '' }
  } catch {
    return null
  }
}

/** sharp's raw output as one grey channel: should greyscale() still hand back more, keep the first. */
export function greyFromRaw(data: Uint8Array, info: { width: number; height: number; channels: number }): Grey {
  if (info.channels === 1) return { data, width: info.width, height: info.height }
  const out = new Uint8Array(info.width * info.height)
  for (let i = 0; i < out.length; i++) out[i] = data[i * info.channels]
  return { data: out, width: info.width, height: info.height }
}

/** Rotate by quarter turns clockwise. */
export function turn(g: Grey, quarterTurns: number): Grey {
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
export function downscale(g: Grey, k: number): Grey {
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

export function fullBox(g: Grey): Box {
  return { left: 0, top: 0, right: g.width, bottom: g.height }
}

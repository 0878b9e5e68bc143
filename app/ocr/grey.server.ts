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

/**
 * A large photo (issue 37) EXIF-rotated, on white, grey, fitted inside `width` x `height` (never
 * enlarged), at the least cost: sharp decodes a JPEG at 1/2, 1/4 or 1/8 of its size when that is
 * enough ("shrink on load"), the colour profile is ignored (a phone's Display P3 profile cost 80 ms
 * of CPU on 12 MP, and grey needs none), and the pixels are turned and made grey once they are few.
 * (decodeGrey, for photos up to 4 MP, is left as it was measured.)
 */
export async function decodeGreyWithin(buf: Buffer, width: number, height: number, orientation = 1): Promise<Grey> {
  const w = Math.max(1, Math.round(width))
  const h = Math.max(1, Math.round(height))
  // A phone photo stored sideways (EXIF 6 or 8) or upside down (3): libvips turned every pixel of it
  // before shrinking (~90 ms of CPU on 12 MP); shrunk first, the few pixels left are turned here.
  const turns = QUARTER_TURNS_OF_ORIENTATION[orientation] ?? null
  const pipeline = sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS, ignoreIcc: true })
  if (turns === null) pipeline.rotate()
  const sideways = turns === 1 || turns === 3
  // The green channel for grey: libvips' greyscale() converts every pixel before resizing (on a 12 MP
  // photo 130 ms of CPU, against 45 to decode it), and three channels of a 10 MP screenshot held
  // 30 MB at once. Green carries most of a photo's detail and most of its luma.
  const { data, info } = await pipeline
    // Transparent screenshots: transparent pixels are often stored black; put them on white paper.
    .flatten({ background: '#ffffff' })
    .resize({ width: sideways ? h : w, height: sideways ? w : h, fit: 'inside', withoutEnlargement: true })
    .extractChannel('green')
    .raw()
    .toBuffer({ resolveWithObject: true })
  return turn(lumaFromRaw(data, info), turns ?? 0)
}

/** EXIF orientations that are quarter turns clockwise (no mirroring): 1 none, 6 one, 3 two, 8 three. */
const QUARTER_TURNS_OF_ORIENTATION: Record<number, number> = { 1: 0, 6: 1, 3: 2, 8: 3 }

/** sharp's raw pixels as grey: one channel as it is, colour by its luma (Rec. 601 weights). */
export function lumaFromRaw(data: Uint8Array, info: { width: number; height: number; channels: number }): Grey {
  if (info.channels < 3) return greyFromRaw(data, info)
  const out = new Uint8Array(info.width * info.height)
  const c = info.channels
  for (let i = 0, j = 0; i < out.length; i++, j += c) out[i] = (77 * data[j] + 150 * data[j + 1] + 29 * data[j + 2] + 128) >> 8
  return { data: out, width: info.width, height: info.height }
}

/** The photo's size as shown (after its EXIF orientation) and its format, from the header alone. */
export async function orientedSize(buf: Buffer): Promise<{ width: number; height: number; format: string; orientation: number } | null> {
  try {
    const meta = await sharp(buf, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
    if (!meta.width || !meta.height) return null
    const orientation = meta.orientation ?? 1
    const swap = orientation >= 5
    return { width: swap ? meta.height : meta.width, height: swap ? meta.width : meta.height, format: meta.format ?? '', orientation }
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

import sharp from 'sharp'
import { Refusal } from '~/utils/refusal'

// The photo as uploaded: format, size and dimension checks (spec §5), before any reading.
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

/**
 * A photo that cannot be read at all (spec §5 messages): 400, retried with another photo. A caller
 * that knows more than the spec's words (what the file was instead, issue 39) gives its own message.
 */
export class ReceiptImageError extends Refusal<ReceiptImageErrorCode> {
  constructor(code: ReceiptImageErrorCode, message: string = MESSAGES[code]) {
    super(code, 400, message, { title: 'Could not read this photo' })
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

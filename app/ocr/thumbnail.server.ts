import sharp from 'sharp'
import { MAX_INPUT_PIXELS } from './photo.server'

// My Receipts' thumbnails (issue 38). Up to the upload limit (50 MP): a 49 MP photo decoded as
// RGBA takes about 200 MB, so a process decodes one photo for a thumbnail at a time, and each
// thumbnail is made once (the caller keeps it). Receipt reading has its own queue.

export const THUMBNAIL_SIZE = 128

let queue: Promise<unknown> = Promise.resolve()

/** A 128 px square JPEG of the photo, or null when it cannot be decoded. One at a time per process. */
export function makeThumbnail(image: Buffer): Promise<Buffer | null> {
  const made = queue.then(() =>
    sharp(image, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'cover' })
      .jpeg({ quality: 70 })
      .toBuffer()
      .catch(() => null),
  )
  queue = made
  return made
}

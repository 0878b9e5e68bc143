/**
 * The capture check on an uploaded photo (issue 23): the same pure judgement the scan page runs in
 * the browser (app/ocr/capture-quality.ts), on pixels sharp decodes. The browser draws the photo
 * at most CAPTURE_DECODE_SIDE long and measures that; so does this.
 */
import sharp from 'sharp'
import { CAPTURE_DECODE_SIDE, checkCapture, type CaptureVerdict } from '~/ocr/capture-quality'
import { MAX_INPUT_PIXELS } from './photo.server'

export async function checkPhotoCapture(photo: Buffer): Promise<CaptureVerdict> {
  const meta = await sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
  const swap = (meta.orientation ?? 1) >= 5
  const width = (swap ? meta.height : meta.width) ?? 0
  const height = (swap ? meta.width : meta.height) ?? 0
  const { data, info } = await sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: CAPTURE_DECODE_SIDE, height: CAPTURE_DECODE_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  // RGB, turned grey by the module itself with the same weights as the browser's canvas pixels.
  return checkCapture({ width: info.width, height: info.height, data, channels: info.channels === 1 ? 1 : 3 }, { width, height })
}

import { unstable_createMemoryUploadHandler, unstable_parseMultipartFormData, MaxPartSizeExceededError } from '@remix-run/node'
import { oddFileMessage } from '~/analysis/file-kinds'
import { MAX_IMAGE_BYTES, ReceiptImageError } from '~/ocr/photo.server'

/** Accept a little more than 5 MB of base64 (4/3) plus JSON around it; more is refused early. */
export const MAX_JSON_BODY_BYTES = Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024

/** `data:image/jpeg;base64,...` → bytes; anything else is "no image". */
export function decodeDataUrl(value: unknown): Buffer | null {
  if (typeof value !== 'string' || value.length === 0) return null
  const match = /^data:([^;,]*)(;base64)?,/.exec(value)
  if (!match) return null
  const payload = value.slice(match[0].length)
  return match[2] ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8')
}

export function isMultipart(request: Request) {
  return (request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')
}

/** Multipart form with the receipt photo in field `image`, capped at 5 MB in memory. */
export async function readMultipartImage(request: Request): Promise<{ form: FormData; image: Buffer | null }> {
  let form: FormData
  try {
    form = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_IMAGE_BYTES + 1 }),
    )
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new ReceiptImageError('too_large')
    throw new ReceiptImageError('unreadable')
  }
  const file = form.get('image')
  // A chosen file with nothing in it is not "no file" (issue 39): say it is empty. A form sent with
  // no file chosen carries a part without a name.
  if (file && typeof file !== 'string' && file.size === 0 && file.name) throw new ReceiptImageError('invalid_type', oddFileMessage('empty'))
  const image = file && typeof file !== 'string' && file.size > 0 ? Buffer.from(await file.arrayBuffer()) : null
  if (image && image.length > MAX_IMAGE_BYTES) throw new ReceiptImageError('too_large')
  return { form, image }
}

export function bodyTooLarge(request: Request, limit = MAX_JSON_BODY_BYTES) {
  const length = Number(request.headers.get('Content-Length') ?? 0)
  return Number.isFinite(length) && length > limit
}

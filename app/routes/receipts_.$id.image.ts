import type { LoaderFunctionArgs } from '@remix-run/node'
import sharp from 'sharp'
import { requireUser } from '~/auth/auth.server'
import { getUserReceiptImage } from '~/receipts/user-receipts.server'
import { getDb } from '~/utils/db.server'
import { parseRowId } from '~/utils/ids'

/** A small thumbnail of the user's own receipt photo for My receipts (a receipt's photo never changes). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { api: true })
  const found = await getUserReceiptImage(getDb(), user.id, parseRowId(params.id) ?? 0)
  if (!found) throw new Response('Not Found', { status: 404 })
  let thumb: Buffer
  try {
    thumb = await sharp(found.image, { limitInputPixels: 40_000_000 }).rotate().resize(128, 128, { fit: 'cover' }).jpeg({ quality: 70 }).toBuffer()
  } catch {
    throw new Response('Not Found', { status: 404 })
  }
  return new Response(new Uint8Array(thumb), {
    headers: { 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, max-age=604800, immutable', 'X-Content-Type-Options': 'nosniff' },
  })
}

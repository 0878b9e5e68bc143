import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireAdmin } from '~/auth/auth.server'
import { getReceiptImage } from '~/receipts/review.server'
import { getDb } from '~/utils/db.server'
import { parseRowId } from '~/utils/ids'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const row = await getReceiptImage(getDb(), parseRowId(params.id) ?? 0)
  if (!row?.image) throw new Response('Not Found', { status: 404 })
  return new Response(new Uint8Array(row.image), {
    headers: { 'Content-Type': row.image_mime ?? 'application/octet-stream', 'Cache-Control': 'private, max-age=600', 'X-Content-Type-Options': 'nosniff' },
  })
}

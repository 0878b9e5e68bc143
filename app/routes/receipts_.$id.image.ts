import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { getUserReceiptThumbnail } from '~/receipts/user-receipts.server'
import { getDb } from '~/utils/db.server'
import { parseRowId } from '~/utils/ids'
import { rateLimits, requireWithinRateLimits } from '~/utils/rate-limit.server'

/**
 * A small thumbnail of the user's own receipt photo for My receipts (a receipt's photo never
 * changes). Rate-limited per user (issue 38); made once, then served as kept.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { api: true })
  await requireWithinRateLimits(getDb(), [rateLimits.thumbnailByUser(user.id)])
  const thumbnail = await getUserReceiptThumbnail(getDb(), user.id, parseRowId(params.id) ?? 0)
  if (!thumbnail) throw new Response('Not Found', { status: 404 })
  return new Response(new Uint8Array(thumbnail), {
    headers: { 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, max-age=604800, immutable', 'X-Content-Type-Options': 'nosniff' },
  })
}

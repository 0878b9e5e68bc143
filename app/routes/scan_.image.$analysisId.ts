import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { getStoredAnalysis } from '~/analysis/analyses.server'
import { getDb } from '~/utils/db.server'
import { parseRowId } from '~/utils/ids'

/** The user's own analysed photo, for the form step's preview. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, { api: true })
  const stored = await getStoredAnalysis(getDb(), user.id, parseRowId(params.analysisId) ?? 0)
  if (!stored?.image) throw new Response('Not Found', { status: 404 })
  return new Response(new Uint8Array(stored.image), {
    headers: { 'Content-Type': stored.imageMime ?? 'application/octet-stream', 'Cache-Control': 'private, max-age=600', 'X-Content-Type-Options': 'nosniff' },
  })
}

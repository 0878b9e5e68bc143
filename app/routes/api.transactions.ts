import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireAdmin } from '~/auth/auth.server'
import { listPendingSubmissions } from '~/store-submissions/submissions.server'
import { getDb } from '~/utils/db.server'

/** Admin only: `?type=form_submission_pending` lists the pending store submissions (spec 2 §7). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request, { api: true })
  const type = new URL(request.url).searchParams.get('type')
  if (type !== 'form_submission_pending') return json({ message: 'Unsupported type; use ?type=form_submission_pending' }, { status: 400 })
  const pending = await listPendingSubmissions(getDb())
  return json(
    pending.map((s) => ({ id: s.id, userId: s.userId, createdAt: s.createdAt, description: s.description, source: s.source })),
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireAdmin } from '~/auth/auth.server'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { listFeedback } from '~/feedback/feedback.server'
import { getDb } from '~/utils/db.server'

export const meta: MetaFunction = () => [{ title: 'Feedback · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const rows = await listFeedback(getDb())
  return json({ feedback: rows.map((r) => ({ id: r.id, type: r.type, text: r.text, email: r.email, createdAt: r.created_at })) })
}

export default function AdminFeedback() {
  const { feedback } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <h1>Feedback</h1>
      <AdminNav />
      {feedback.length === 0 ? (
        <div className="card center">
          <h2>No feedback yet</h2>
          <p className="muted">What users send from the feedback page appears here.</p>
        </div>
      ) : (
        feedback.map((f) => (
          <article key={f.id} className="card">
            <div className="row between">
              <span className="chip">{f.type}</span>
              <span className="small muted">{new Date(f.createdAt).toLocaleString('en-US', { timeZone: 'UTC' })} UTC</span>
            </div>
            <p style={{ whiteSpace: 'pre-wrap', marginTop: '0.5rem' }}>{f.text}</p>
            {f.email ? (
              <a href={`mailto:${f.email}`} className="small">
                {f.email}
              </a>
            ) : null}
          </article>
        ))
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { requireAdmin } from '~/auth/auth.server'
import { shortAddress } from '~/chain/networks'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { DEBUG_LOG_RETENTION_DAYS, listDebugLogs } from '~/debug/debug-logs.server'
import styles from '~/styles/debug.css'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Debug Logs · ReCircle Admin' }]

/**
 * Admins only, like every admin page, but not behind ENABLE_DEBUG_TOOLS: users send logs with the
 * debug tools off (production), so support must read them there (docs/decisions/050-debug-tools.md).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return json({ logs: await listDebugLogs(getDb(), { limit: 50 }), retentionDays: DEBUG_LOG_RETENTION_DAYS })
}

function utc(iso: string) {
  return `${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`
}

export default function AdminDebugLogs() {
  const { logs, retentionDays } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <h1>Debug Logs</h1>
      <AdminNav />
      <p className="small muted" style={{ margin: 0 }}>
        Logs users sent to support, newest first (the last 50). Deleted after {retentionDays} days.
      </p>
      {logs.length === 0 ? (
        <div className="card center">
          <h2>No debug logs yet</h2>
          <p className="muted">When a user presses “Send to support” in the debug console, the log appears here.</p>
        </div>
      ) : (
        logs.map((log) => (
          <article key={log.id} className="card" aria-labelledby={`log-${log.id}`}>
            <div className="row between wrap">
              <h2 id={`log-${log.id}`} style={{ margin: 0, fontSize: '1rem' }}>
                #{log.id} · {shortAddress(log.walletAddress)} (user {log.userId})
              </h2>
              <span className="small muted">{utc(log.createdAt)}</span>
            </div>
            <p className="small muted" style={{ margin: '0.3rem 0', overflowWrap: 'anywhere' }}>
              {log.testType ? <span className="chip">{log.testType}</span> : null} {log.userAgent ?? 'unknown browser'}
              {log.clientTimestamp ? ` · sent ${log.clientTimestamp}` : ''}
            </p>
            <details>
              <summary>{log.lines.length} lines</summary>
              <pre className="debug-lines">{log.lines.join('\n')}</pre>
            </details>
          </article>
        ))
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { DebugConsole } from '~/components/debug-console'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { requireDebugAdmin } from '~/debug/access.server'
import styles from '~/styles/debug.css'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Debug Console · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireDebugAdmin(request)
  return json({ ok: true })
}

export default function DebugConsolePage() {
  return (
    <div className="stack">
      <Link to="/admin/debug-tools" className="back-link">
        ← Admin Debug Tools
      </Link>
      <h1>Debug Console</h1>
      <p className="muted" style={{ margin: 0 }}>
        Captures this tab&apos;s console messages and wallet steps while capture is on (it stays on for the browser
        session). The list refreshes every second.
      </p>
      <DebugConsole variant="full" testType="debug-console" />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

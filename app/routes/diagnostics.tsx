import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { DebugConsole } from '~/components/debug-console'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import styles from '~/styles/debug.css'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Send a Diagnostic Log · ReCircle' }]

/** For any signed-in user (not a debug tool): support may ask for a log from a failing phone. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  return json({ ok: true })
}

export default function Diagnostics() {
  return (
    <div className="stack">
      <Link to="/help" className="back-link">
        ← Help &amp; Support
      </Link>
      <h1>Send a Diagnostic Log</h1>
      <ol className="small" style={{ margin: 0, paddingLeft: '1.2rem' }}>
        <li>Press Start Capture.</li>
        <li>Do what went wrong again (scan, connect, redeem…).</li>
        <li>Come back here and press Send to support.</li>
      </ol>
      <p className="small muted" style={{ margin: 0 }}>
        The log holds this tab&apos;s messages and wallet steps only; it is sent with your account and deleted after 30
        days.
      </p>
      <DebugConsole variant="support" testType="user-diagnostics" />
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

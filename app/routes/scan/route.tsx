import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { DAILY_ACTION_LIMIT, DAILY_LIMIT_MESSAGE } from '~/rewards/daily-limit'
import styles from '~/styles/scan.css'
import { handleScanAction, type ScanActionData } from './action.server'
import { CaptureStep } from './capture-step'
import { ReceiptFormStep } from './form-step'
import { scanPageData } from './loader.server'

// Scan (spec 1 §5): capture a receipt, then check what the server read and submit it.
// The capture step, the form step and the action live beside this module (docs/architecture.md).

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Scan Receipt · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  return json(await scanPageData(request, user))
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request)
  return handleScanAction(request, user, context)
}

export default function Scan() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ScanActionData | undefined
  const limitReached = data.actionsToday >= DAILY_ACTION_LIMIT
  return (
    <div className="stack">
      <div className="row between">
        <Link to="/home" className="back-link">
          <Icon name="arrowLeft" /> Back to Home
        </Link>
        <span className="pill" role="img" aria-label={`Actions today: ${data.actionsToday} of ${DAILY_ACTION_LIMIT}`}>
          {Math.min(data.actionsToday, DAILY_ACTION_LIMIT)}/{DAILY_ACTION_LIMIT} today
        </span>
      </div>
      <h1>Scan Receipt</h1>
      {data.analysis ? (
        <ReceiptFormStep data={data} actionData={actionData} />
      ) : limitReached ? (
        <DailyLimitReached resetInMinutes={data.resetInMinutes} />
      ) : (
        <CaptureStep data={data} actionData={actionData} />
      )}
    </div>
  )
}

/** At the daily limit the upload is closed until the reset, said once, with when (issue 32). */
function DailyLimitReached({ resetInMinutes }: { resetInMinutes: number }) {
  const hours = Math.floor(resetInMinutes / 60)
  return (
    <section className="alert warn stack" role="status" data-testid="daily-limit" style={{ gap: '0.5rem' }}>
      <strong>Daily Action Limit Reached</strong>
      <p style={{ margin: 0 }}>{DAILY_LIMIT_MESSAGE}</p>
      <p style={{ margin: 0 }}>
        Uploads open again at 00:00 UTC, in {hours > 0 ? `${hours} h ` : ''}
        {resetInMinutes % 60} min.
      </p>
      <Link to="/receipts" className="btn secondary block">
        My Receipts
      </Link>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

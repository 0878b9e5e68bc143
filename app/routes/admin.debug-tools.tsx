import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, Field } from '~/components/forms'
import { SystemInfo } from '~/components/system-info'
import { showToast } from '~/components/toaster'
import { WalletTestPanel } from '~/components/wallet-test-panel'
import { resetLocalState } from '~/debug/capture.client'
import { requireDebugAdmin } from '~/debug/access.server'
import { maskedConfig } from '~/debug/config.server'
import { RESET_NOT_IN_TEST_MODE } from '~/debug/reset'
import { resetTestUser } from '~/debug/reset.server'
import chainStyles from '~/styles/chain.css'
import styles from '~/styles/debug.css'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { readFormData } from '~/utils/form.server'
import { toastCookie } from '~/utils/toast.server'

const USER_ID_MESSAGE = 'Please enter a valid user ID'
const resetSchema = z.object({
  intent: z.literal('reset-user'),
  userId: z
    .number({ required_error: USER_ID_MESSAGE, invalid_type_error: USER_ID_MESSAGE })
    .int(USER_ID_MESSAGE)
    .positive(USER_ID_MESSAGE)
    .max(2_147_483_647, USER_ID_MESSAGE),
})

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: chainStyles },
  { rel: 'stylesheet', href: styles },
]
export const meta: MetaFunction = () => [{ title: 'Admin Debug Tools · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireDebugAdmin(request)
  const env = getEnv()
  return json(
    {
      config: maskedConfig(env, process.env),
      production: process.env.NODE_ENV === 'production' || env.APP_ENV === 'production',
      testMode: env.RECIRCLE_TEST_MODE,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

/** The backend reset: test mode only, never the ledger (app/debug/reset.server.ts). */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireDebugAdmin(request)
  const submission = parseWithZod(await readFormData(request), { schema: resetSchema })
  const testMode = getEnv().RECIRCLE_TEST_MODE
  if (!testMode) return json({ result: submission.reply({ formErrors: [RESET_NOT_IN_TEST_MODE] }) }, { status: 403 })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  const result = await resetTestUser(getDb(), { adminUserId: admin.id, userId: submission.value.userId, testMode })
  if (!result.ok) return json({ result: submission.reply({ formErrors: [result.message] }) }, { status: result.status })
  const cookie = await toastCookie(request, { title: 'Backend User Reset', description: result.message, variant: 'success' })
  return redirect('/admin/debug-tools', { headers: { 'Set-Cookie': cookie } })
}

const DEBUG_LINKS = [
  { to: '/debug', label: 'Debug console', note: 'capture console and wallet logs, send them to support' },
  { to: '/wallet-test', label: 'Wallet test', note: 'replaces the spec’s separate wallet connection test pages' },
  { to: '/admin/debug-logs', label: 'Debug logs', note: 'logs users sent to support' },
  { to: '/logo-showcase', label: 'Logo showcase', note: 'public' },
  { to: '/admin/pending-submissions', label: 'Pending submissions', note: 'store submissions to approve' },
]

function resetLocal() {
  try {
    resetLocalState()
    showToast({ title: 'Local state reset', description: 'Reloading…', variant: 'success' })
    setTimeout(() => window.location.reload(), 1000)
  } catch (error) {
    showToast({ title: 'Reset Failed', description: error instanceof Error ? error.message : 'Could not clear local storage', variant: 'destructive' })
  }
}

function ResetUserForm() {
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(resetSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetSchema }),
    shouldValidate: 'onSubmit',
  })
  return (
    <Form method="post" {...getFormProps(form)} className="stack">
      <Field label="User ID" inputProps={{ ...getInputProps(fields.userId, { type: 'text' }), inputMode: 'numeric' }} errors={fields.userId.errors} />
      <ErrorList errors={form.errors} />
      <button type="submit" name="intent" value="reset-user" className="btn danger block" disabled={navigation.state !== 'idle'}>
        Reset backend user
      </button>
    </Form>
  )
}

export default function AdminDebugTools() {
  const { config, production, testMode } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <div className="row between wrap">
        <h1 style={{ margin: 0 }}>Admin Debug Tools</h1>
        <Link to="/home" className="back-link">
          Home
        </Link>
      </div>
      <AdminNav />
      <section className="card" aria-labelledby="system-title">
        <h2 id="system-title" className="card-title">System information</h2>
        <SystemInfo production={production} />
      </section>
      <section className="card" aria-labelledby="wallet-test-title">
        <h2 id="wallet-test-title" className="card-title">Wallet connection test</h2>
        <WalletTestPanel />
      </section>
      <section className="card" aria-labelledby="links-title">
        <h2 id="links-title" className="card-title">Debug pages</h2>
        <ul className="stack" style={{ gap: '0.4rem', margin: 0, paddingLeft: '1.2rem' }}>
          {DEBUG_LINKS.map((l) => (
            <li key={l.to}>
              <Link to={l.to}>{l.label}</Link> <span className="small muted">— {l.note}</span>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="config-title">
        <h2 id="config-title" className="card-title">Server configuration</h2>
        <details>
          <summary>Show environment variables (secrets masked)</summary>
          <dl className="config-list" data-testid="server-config">
            {config.map((c) => (
              <div key={c.name}>
                <dt className="mono">{c.name}</dt>
                <dd className="mono">{c.value}</dd>
              </div>
            ))}
          </dl>
        </details>
      </section>
      <section className="card stack" aria-labelledby="reset-title">
        <h2 id="reset-title" className="card-title" style={{ margin: 0 }}>Reset tools</h2>
        <div className="stack" style={{ gap: '0.4rem' }}>
          <p className="small muted" style={{ margin: 0 }}>Clears this browser&apos;s storage for ReCircle (local and session), then reloads.</p>
          <button type="button" className="btn secondary block" onClick={resetLocal}>
            Reset local state
          </button>
        </div>
        {testMode ? (
          <div className="stack" style={{ gap: '0.4rem' }}>
            <p className="small muted" style={{ margin: 0 }}>
              Test mode: removes a user&apos;s receipts, unsubmitted analyses and sessions. Ledger entries (and receipts
              they point at) are kept. Audited.
            </p>
            <ResetUserForm />
          </div>
        ) : (
          <p className="small muted" style={{ margin: 0 }}>
            {RESET_NOT_IN_TEST_MODE} Ledger entries are never deleted.
          </p>
        )}
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, isRouteErrorResponse, useActionData, useLoaderData, useNavigation, useRouteError } from '@remix-run/react'
import { requireAdmin } from '~/auth/auth.server'
import { shortAddress } from '~/chain/networks'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, Field } from '~/components/forms'
import { Icon } from '~/components/icons'
import { b3trText, formatB3tr } from '~/rewards/money'
import { FIRST_STORE_BONUS_MILLI, STORE_ADDITION_REWARD_MILLI } from '~/rewards/receipt-reward'
import { decisionSchema } from '~/store-submissions/submissions'
import { approveSubmission, listPendingSubmissions, rejectSubmission, type PendingSubmission } from '~/store-submissions/submissions.server'
import styles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'
import { toastCookie, type Toast } from '~/utils/toast.server'
import { readFormData } from '~/utils/form.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Pending Submissions · ReCircle Admin' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return json({ submissions: await listPendingSubmissions(getDb()) })
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readFormData(request)
  const submission = parseWithZod(formData, { schema: decisionSchema })
  if (submission.status !== 'success') {
    return json({ submissionId: Number(formData.get('submissionId')), result: submission.reply() }, { status: 400 })
  }
  const { intent, submissionId } = submission.value
  const db = getDb()
  let toast: Toast
  if (intent === 'approve') {
    const result = await approveSubmission(db, { submissionId, adminUserId: admin.id })
    toast = result.ok
      ? { title: 'Submission Approved', description: `${formatB3tr(result.rewardMilli + result.firstStoreBonusMilli)} B3TR rewarded.`, variant: 'success' }
      : { title: 'Approval Failed', description: result.error || 'Failed to approve submission', variant: 'destructive' }
  } else {
    const result = await rejectSubmission(db, { submissionId, adminUserId: admin.id, reason: submission.value.reason })
    toast = result.ok
      ? { title: 'Submission Rejected', description: submission.value.reason, variant: 'default' }
      : { title: 'Rejection Failed', description: result.error, variant: 'destructive' }
  }
  return redirect('/admin/pending-submissions', { headers: { 'Set-Cookie': await toastCookie(request, toast) } })
}

function SubmissionCard({ item, lastResult }: { item: PendingSubmission; lastResult: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: `reject-${item.id}`,
    lastResult,
    constraint: getZodConstraint(decisionSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: decisionSchema }),
    shouldValidate: 'onSubmit',
  })
  const busy = navigation.state !== 'idle' && navigation.formData?.get('submissionId') === String(item.id)
  return (
    <article className="card submission-card" aria-labelledby={`submission-${item.id}`}>
      <h2 id={`submission-${item.id}`} style={{ margin: 0, fontSize: '1.05rem' }}>
        {item.name ?? 'External form submission'}
      </h2>
      <p className="small" style={{ margin: 0 }}>
        {item.description}
      </p>
      <div className="small muted">
        #{item.id} · by {shortAddress(item.walletAddress)} ·{' '}
        {new Date(item.createdAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC
      </div>
      <div className="badge-row" style={{ marginTop: 0 }}>
        <span className="badge pending">Pending</span>
        <span className="badge type">{item.source === 'in_app' ? 'In-app form' : 'External form'}</span>
      </div>
      <Form method="post">
        <input type="hidden" name="submissionId" value={item.id} />
        <button type="submit" name="intent" value="approve" className="btn block" disabled={busy}>
          <Icon name="check" /> {busy && navigation.formData?.get('intent') === 'approve' ? 'Processing...' : 'Approve & Reward'}
        </button>
      </Form>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="submissionId" value={item.id} />
        <Field label="Reason for rejection" inputProps={{ ...getInputProps(fields.reason, { type: 'text' }), required: true }} errors={fields.reason.errors} />
        <ErrorList errors={form.errors} />
        <button type="submit" name="intent" value="reject" className="btn danger block" disabled={busy}>
          <Icon name="x" /> Reject
        </button>
      </Form>
    </article>
  )
}

export default function PendingSubmissions() {
  const { submissions } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <div className="stack">
      <h1>Pending Submissions</h1>
      <AdminNav />
      <div>
        <p className="muted" style={{ margin: 0 }}>
          Approving pays the submitter {b3trText(STORE_ADDITION_REWARD_MILLI)} (+{b3trText(FIRST_STORE_BONUS_MILLI)} for a first store) and publishes an in-app submission in the store list.
        </p>
      </div>
      {submissions.length === 0 ? (
        <div className="card center stack" style={{ alignItems: 'center' }}>
          <div className="action-icon">
            <Icon name="check" />
          </div>
          <h2>All Submissions Processed</h2>
          <p className="muted" style={{ margin: 0 }}>
            There are no store submissions waiting. New submissions appear here; each one is checked (the store exists, is
            sustainable and is not listed yet) before it is approved and rewarded.
          </p>
        </div>
      ) : (
        <div className="submission-grid">
          {submissions.map((item) => (
            <SubmissionCard key={item.id} item={item} lastResult={actionData?.submissionId === item.id ? actionData.result : undefined} />
          ))}
        </div>
      )}
    </div>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && (error.status === 401 || error.status === 403 || error.status === 404)) return <GeneralErrorBoundary />
  return (
    <div className="gate" role="alert">
      <h1>Error loading submissions</h1>
      <p className="muted">Failed to fetch pending submissions</p>
      <Link to="/admin/pending-submissions" reloadDocument className="btn">
        Try Again
      </Link>
    </div>
  )
}

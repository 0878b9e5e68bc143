import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, Field } from '~/components/forms'
import { Icon } from '~/components/icons'
import { countActionsToday } from '~/rewards/daily-limit.server'
import { b3trText } from '~/rewards/money'
import { DAILY_ACTION_LIMIT, DAILY_LIMIT_MESSAGE, DAILY_LIMIT_TITLE } from '~/rewards/daily-limit'
import { FIRST_STORE_BONUS_MILLI, STORE_ADDITION_REWARD_MILLI } from '~/rewards/receipt-reward'
import { STORE_TYPES, STORE_TYPE_LABELS } from '~/stores/stores'
import { FORM_SUBMISSION_ISSUE_MESSAGE, FORM_SUBMISSION_ISSUE_TITLE, storeSubmissionSchema } from '~/store-submissions/submissions'
import { createSubmission, listUserSubmissions } from '~/store-submissions/submissions.server'
import styles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { toastCookie, type Toast } from '~/utils/toast.server'
import { readFormData } from '~/utils/form.server'
import { getRateLimitRefusal, rateLimits } from '~/utils/rate-limit.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Add New Sustainable Store · ReCircle' }]

const SUBMITTED: Toast = {
  title: 'Store Submitted',
  description: `Thanks! Your store is pending review. You'll earn ${b3trText(STORE_ADDITION_REWARD_MILLI)} when it is approved.`,
  variant: 'success',
}
const LIMIT: Toast = { title: DAILY_LIMIT_TITLE, description: DAILY_LIMIT_MESSAGE, variant: 'destructive' }
// The spec's follow-up 'Please Contact Support' toast is part of this one: one toast at a time.
const ISSUE: Toast = {
  title: FORM_SUBMISSION_ISSUE_TITLE,
  description: `${FORM_SUBMISSION_ISSUE_MESSAGE}. If it keeps happening, please contact support (Help & Support).`,
  variant: 'destructive',
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const db = getDb()
  const [actionsToday, submissions] = await Promise.all([countActionsToday(db, user.id), listUserSubmissions(db, user.id, 5)])
  return json({ actionsToday, submissions, formUrl: getEnv().STORE_FORM_URL ?? null })
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const formData = await readFormData(request)
  const back = async (toast: Toast) => redirect('/add-store', { headers: { 'Set-Cookie': await toastCookie(request, toast) } })
  const limited = await getRateLimitRefusal(getDb(), [rateLimits.storeSubmissionByUser(user.id)])
  if (formData.get('intent') === 'external-form-completed') {
    if (limited) return back({ title: 'Too Many Requests', description: limited.message, variant: 'destructive' })
    try {
      const result = await createSubmission(getDb(), { userId: user.id, source: 'external_form' })
      return back(result.ok ? SUBMITTED : LIMIT)
    } catch (error) {
      console.error('[add-store] could not record the external form submission', error)
      return back(ISSUE)
    }
  }
  const submission = parseWithZod(formData, { schema: storeSubmissionSchema })
  if (submission.status !== 'success') return json(submission.reply(), { status: 400 })
  if (limited) return json(submission.reply({ formErrors: [limited.message] }), { status: limited.status, headers: limited.headers })
  const result = await createSubmission(getDb(), { userId: user.id, source: 'in_app', store: submission.value })
  if (!result.ok) return json(submission.reply({ formErrors: [`${DAILY_LIMIT_TITLE}. ${DAILY_LIMIT_MESSAGE}`] }), { status: 400 })
  return back(SUBMITTED)
}

export default function AddStore() {
  const { actionsToday, submissions, formUrl } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const navigation = useNavigation()
  const [params] = useSearchParams()
  const limitReached = actionsToday >= DAILY_ACTION_LIMIT
  const [form, fields] = useForm({
    id: 'store-form',
    lastResult,
    constraint: getZodConstraint(storeSubmissionSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: storeSubmissionSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  // A successful submission redirects back here with a new submission on top. Without JavaScript
  // that is a fresh, empty page; with it the same form stays mounted, so empty it (a native reset,
  // which conform follows).
  const latestSubmission = submissions[0]?.id ?? null
  const seenSubmission = useRef(latestSubmission)
  useEffect(() => {
    if (latestSubmission === seenSubmission.current) return
    seenSubmission.current = latestSubmission
    const element = document.getElementById(form.id)
    if (element instanceof HTMLFormElement) element.reset()
  }, [latestSubmission, form.id])
  const busy = navigation.state === 'submitting'
  const overlayOpen = !!formUrl && params.get('step') === 'form' && !limitReached

  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <h1>Add New Sustainable Store</h1>

      <section className="card row between">
        <div>
          <div style={{ fontWeight: 700 }}>Daily actions</div>
          <div className="small muted">Receipt scans and store additions</div>
        </div>
        <span className="counter" data-testid="daily-actions">
          {Math.min(actionsToday, DAILY_ACTION_LIMIT)}/{DAILY_ACTION_LIMIT}
        </span>
      </section>

      <div className="alert info">
        <strong>How it works.</strong> Tell us about a second-hand, thrift, repair or refill store. Our team reviews submissions
        weekly; an approved store earns you {b3trText(STORE_ADDITION_REWARD_MILLI)} (plus {b3trText(FIRST_STORE_BONUS_MILLI)} for your first store) and appears in the store list.
      </div>

      {limitReached ? (
        <div className="limit-box" role="alert">
          <strong>{DAILY_LIMIT_TITLE}</strong>
          {DAILY_LIMIT_MESSAGE}
        </div>
      ) : null}

      <div className="btn-pair">
        {limitReached ? (
          <button type="button" className="btn" disabled style={{ flex: 2 }}>
            Submit a New Sustainable Store
          </button>
        ) : (
          <Link
            to={formUrl ? '?step=form' : '#store-form'}
            className="btn"
            style={{ flex: 2 }}
            preventScrollReset
            onClick={() => {
              if (formUrl) window.open(formUrl, '_blank', 'noopener,noreferrer')
            }}
          >
            Submit a New Sustainable Store
          </Link>
        )}
        <Link to="/home" className="btn secondary" style={{ flex: 1 }}>
          Cancel
        </Link>
      </div>

      <section className="card stack" aria-labelledby="in-app-title">
        <h2 id="in-app-title" style={{ margin: 0 }}>
          {formUrl ? 'Or add the store here' : 'Store details'}
        </h2>
        <Form method="post" className="stack" {...getFormProps(form)}>
          <Field label="Store name" inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'organization' }} errors={fields.name.errors} />
          <Field label="Street address" inputProps={{ ...getInputProps(fields.address, { type: 'text' }), autoComplete: 'street-address' }} errors={fields.address.errors} />
          <div className="grid-2">
            <Field label="City" inputProps={{ ...getInputProps(fields.city, { type: 'text' }), autoComplete: 'address-level2' }} errors={fields.city.errors} />
            <Field label="State" inputProps={{ ...getInputProps(fields.state, { type: 'text' }), autoComplete: 'address-level1' }} errors={fields.state.errors} />
          </div>
          <div className="field">
            <label htmlFor={fields.storeType.id}>Store type</label>
            <select className="input" {...getSelectProps(fields.storeType)} defaultValue={fields.storeType.initialValue ?? ''}>
              <option value="" disabled>
                Choose a type
              </option>
              {STORE_TYPES.map((t) => (
                <option key={t} value={t}>
                  {STORE_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
            <ErrorList errors={fields.storeType.errors} />
          </div>
          <ErrorList errors={form.errors} />
          <button type="submit" name="intent" value="in-app" className="btn block" disabled={limitReached || busy}>
            {busy ? 'Submitting...' : 'Submit Store for Review'}
          </button>
        </Form>
      </section>

      {submissions.length > 0 ? (
        <section className="card" aria-labelledby="mine-title">
          <h2 id="mine-title">Your recent submissions</h2>
          <ul className="claim-list">
            {submissions.map((s) => (
              <li key={s.id}>
                <span>{s.name ?? 'External form submission'}</span>
                <span className={`badge ${s.status === 'approved' ? 'open' : s.status}`}>
                  {s.status === 'pending' ? 'Pending review' : s.status === 'approved' ? 'Approved' : 'Rejected'}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {overlayOpen && formUrl ? (
        <div className="dialog-backdrop">
          <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="form-dialog-title">
            <h2 id="form-dialog-title">Complete the store form</h2>
            <p className="muted" style={{ margin: 0 }}>
              The store form opened in a new tab. Fill it in, then come back and tell us you are done so the submission counts for
              your rewards.
            </p>
            <p className="small" style={{ margin: 0 }}>
              {`Our team reviews submissions weekly. An approved store earns you ${b3trText(STORE_ADDITION_REWARD_MILLI)} (${b3trText(FIRST_STORE_BONUS_MILLI)} more for your first). Completing the form counts as one of your ${DAILY_ACTION_LIMIT} daily actions.`}
            </p>
            <a href={formUrl} target="_blank" rel="noreferrer" className="btn secondary">
              Open form
            </a>
            <Form method="post" replace>
              <button type="submit" name="intent" value="external-form-completed" className="btn block" disabled={busy}>
                {busy ? 'Recording...' : "I've Completed The Form"}
              </button>
            </Form>
            <Link to="/add-store" replace className="btn ghost">
              Close
            </Link>
          </div>
        </div>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

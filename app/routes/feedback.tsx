import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation, useSearchParams } from '@remix-run/react'
import { getOptionalUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, Field, TextareaField } from '~/components/forms'
import { Icon } from '~/components/icons'
import { FEEDBACK_TYPES, feedbackSchema } from '~/feedback/feedback'
import { createFeedback } from '~/feedback/feedback.server'
import { getDb } from '~/utils/db.server'
import { toastCookie } from '~/utils/toast.server'
import { readFormData } from '~/utils/form.server'
import { clientIpFrom, getRateLimitRefusal, rateLimits } from '~/utils/rate-limit.server'

export const meta: MetaFunction = () => [{ title: 'Send Feedback · ReCircle' }]

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readFormData(request)
  const submission = parseWithZod(formData, { schema: feedbackSchema })
  if (submission.status !== 'success') return json(submission.reply(), { status: 400 })
  const user = await getOptionalUser(request)
  const limits = [rateLimits.feedbackByIp(clientIpFrom(context)), ...(user ? [rateLimits.feedbackByUser(user.id)] : [])]
  const limited = await getRateLimitRefusal(getDb(), limits)
  if (limited) return json(submission.reply({ formErrors: [limited.message] }), { status: limited.status, headers: limited.headers })
  await createFeedback(getDb(), {
    userId: user?.id ?? null,
    type: submission.value.type,
    text: submission.value.text,
    email: submission.value.email ?? null,
  })
  return redirect('/', {
    headers: {
      'Set-Cookie': await toastCookie(request, {
        title: 'Thank you!',
        description: 'Your feedback has been sent to the ReCircle team.',
        variant: 'success',
      }),
    },
  })
}

const TYPE_LABELS: Record<(typeof FEEDBACK_TYPES)[number], string> = {
  suggestion: 'Suggestion',
  issue: 'Issue',
  praise: 'Praise',
  other: 'Other',
}

export default function Feedback() {
  const lastResult = useActionData<typeof action>()
  const navigation = useNavigation()
  // Help's "Chat with Support" opens this form as an issue (?type=issue).
  const typeParam = useSearchParams()[0].get('type')
  const initialType = FEEDBACK_TYPES.find((t) => t === typeParam) ?? 'suggestion'
  const [form, fields] = useForm({
    id: 'feedback',
    lastResult,
    constraint: getZodConstraint(feedbackSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: feedbackSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: { type: initialType },
  })
  const submitting = navigation.state === 'submitting'
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <h1>Send Feedback</h1>
      <p className="muted">Tell us what works, what doesn't, and what you would like next.</p>
      <Form method="post" className="card stack" {...getFormProps(form)}>
        <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="label">Type</legend>
          <div className="radio-grid">
            {FEEDBACK_TYPES.map((type) => (
              <label key={type} className="radio-card">
                <input
                  type="radio"
                  name={fields.type.name}
                  value={type}
                  defaultChecked={(fields.type.initialValue ?? initialType) === type}
                />
                {TYPE_LABELS[type]}
              </label>
            ))}
          </div>
          <ErrorList errors={fields.type.errors} />
        </fieldset>
        <TextareaField
          label="Your feedback"
          textareaProps={{ ...getTextareaProps(fields.text), placeholder: 'What would you like to tell us?' }}
          errors={fields.text.errors}
        />
        <Field
          label="Email (optional)"
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
          errors={fields.email.errors}
          hint="Only if you would like an answer."
        />
        <ErrorList errors={form.errors} />
        <div className="btn-pair">
          <Link to="/" className="btn secondary" style={{ flex: 1 }}>
            Cancel
          </Link>
          <button type="submit" className="btn" style={{ flex: 1 }} disabled={submitting}>
            {submitting ? 'Sending...' : 'Send Feedback'}
          </button>
        </div>
      </Form>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { requireUser } from '~/auth/auth.server'
import { deviceEntrySchema } from '~/auth/device-code'
import { enterDeviceCode } from '~/auth/device-sign-in.server'
import { AskingBrowserCard, DeviceDecided } from '~/components/device-code'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, Field } from '~/components/forms'
import { getDb } from '~/utils/db.server'
import { readFormData } from '~/utils/form.server'
import { clientIpFrom } from '~/utils/rate-limit.server'

const DECISIONS = ['approved', 'denied'] as const

export const meta: MetaFunction = () => [{ title: 'Confirm a sign-in code · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  const param = new URL(request.url).searchParams.get('result')
  return json({ result: DECISIONS.find((d) => d === param) ?? null })
}

/** intent lookup shows who asks; approve and deny decide, once (issue 40). */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const submission = parseWithZod(await readFormData(request), { schema: deviceEntrySchema })
  if (submission.status !== 'success') return json({ reply: submission.reply(), asking: null }, { status: 400 })
  const { code, intent } = submission.value
  const entry = await enterDeviceCode(getDb(), { userId: user.id, ip: clientIpFrom(context), userCode: code, intent })
  if (!entry.ok) {
    const error = entry.field ? { fieldErrors: { code: [entry.message] } } : { formErrors: [entry.message] }
    return json({ reply: submission.reply(error), asking: null }, { status: entry.status, headers: entry.headers })
  }
  if ('decided' in entry) return redirect(`/device?result=${entry.decided}`)
  return json({ reply: submission.reply(), asking: entry.asking })
}

export default function Device() {
  const { result } = useLoaderData<typeof loader>()
  const data = useActionData<typeof action>()
  const [form, fields] = useForm({
    id: 'device-entry',
    lastResult: data?.reply,
    constraint: getZodConstraint(deviceEntrySchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deviceEntrySchema }),
    shouldValidate: 'onSubmit',
  })
  if (result && !data) return <DeviceDecided result={result} />
  if (data?.asking) return <AskingBrowserCard asking={data.asking} />
  return (
    <div className="stack device-page">
      <h1>Sign in another browser</h1>
      <p className="muted">
        Another browser shows a code and asks to sign in with your wallet. Enter that code here: you will see which browser asks before
        anything happens.
      </p>
      <Form method="post" className="card stack" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="lookup" />
        <Field
          label="Code"
          inputProps={{
            ...getInputProps(fields.code, { type: 'text' }),
            className: 'input user-code-input',
            autoComplete: 'off',
            autoCapitalize: 'characters',
            spellCheck: false,
            placeholder: 'XXXX-XXXX',
          }}
          errors={fields.code.errors}
        />
        <ErrorList errors={form.errors} />
        <button type="submit" className="btn block">
          Next
        </button>
      </Form>
      <Link to="/home" className="back-link">
        Back to Home
      </Link>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { getOptionalUser } from '~/auth/auth.server'
import { deviceCodeState, deviceContinueSchema, formatUserCode } from '~/auth/device-code'
import { clearDeviceSecretCookie, deviceSecretCookie, getDeviceCodeBySecret, readDeviceSecret } from '~/auth/device-code.server'
import { askForDeviceCode, continueDeviceSignIn } from '~/auth/device-sign-in.server'
import { AskForCode, ShownCode } from '~/components/device-code'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { getDb } from '~/utils/db.server'
import { readFormData } from '~/utils/form.server'
import { clientIpFrom } from '~/utils/rate-limit.server'
import { toastCookie } from '~/utils/toast.server'

export const meta: MetaFunction = () => [{ title: 'Sign in with a code · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOptionalUser(request)) throw redirect('/home')
  const secret = await readDeviceSecret(request)
  const code = secret ? await getDeviceCodeBySecret(getDb(), secret) : null
  const shown = code && {
    userCode: formatUserCode(code.userCode),
    state: deviceCodeState(code, new Date()),
    expiresAt: code.expiresAt,
    redirectTo: code.redirectTo,
  }
  return json({ code: shown, deviceUrl: `${new URL(request.url).origin}/device` }, { headers: { 'Cache-Control': 'no-store' } })
}

/** intent new: a code, its secret in this browser's cookie; intent continue: signed in once it is confirmed. */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: deviceContinueSchema })
  if (submission.status !== 'success') return json(submission.reply(), { status: 400 })
  const ip = clientIpFrom(context)
  if (submission.value.intent === 'new') {
    const asked = await askForDeviceCode(getDb(), {
      ip,
      userAgent: request.headers.get('User-Agent'),
      redirectTo: submission.value.redirectTo,
    })
    if (!asked.ok) return json(submission.reply({ formErrors: [asked.message] }), { status: asked.status, headers: asked.headers })
    return redirect('/connect-wallet/code', { headers: { 'Set-Cookie': await deviceSecretCookie(request, asked.secret) } })
  }
  const result = await continueDeviceSignIn(getDb(), request, { ip, secret: await readDeviceSecret(request) })
  if (!result.ok) return json(submission.reply({ formErrors: [result.message] }), { status: result.status, headers: result.headers })
  const headers = new Headers({ 'Set-Cookie': result.cookie })
  headers.append('Set-Cookie', await clearDeviceSecretCookie(request))
  const toast = {
    title: 'Wallet Connected',
    description: 'Signed in with a code from your wallet',
    variant: 'success',
    event: 'wallet-connected',
  } as const
  headers.append('Set-Cookie', await toastCookie(request, toast))
  return redirect(result.redirectTo, { headers })
}

export default function SignInWithCode() {
  const { code, deviceUrl } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const [params] = useSearchParams()
  const errors = reply?.error?.[''] ?? []
  return (
    <div className="stack device-page">
      <h1>Sign in with a code</h1>
      {code && (code.state === 'pending' || code.state === 'approved') ? (
        <ShownCode code={code.userCode} state={code.state} expiresAt={code.expiresAt} deviceUrl={deviceUrl} errors={errors} />
      ) : (
        <AskForCode state={code?.state ?? null} redirectTo={code?.redirectTo ?? params.get('redirectTo')} errors={errors} />
      )}
      <Link to="/connect-wallet" className="back-link">
        Back to Connect Wallet
      </Link>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { Link, useActionData } from '@remix-run/react'
import { signInRequest } from '~/auth/auth.server'
import { destroySession } from '~/auth/session.server'
import { safeRedirectTo } from '~/utils/redirect'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { getDb } from '~/utils/db.server'
import { toastCookie } from '~/utils/toast.server'
import { readFormData } from '~/utils/form.server'
import { certificateLimits, getRateLimitRefusal } from '~/utils/rate-limit.server'

export async function loader() {
  return redirect('/connect-wallet')
}

/** The wallet card's and the connect page's form: `intent` connect (with a signed certificate) or disconnect. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (intent === 'disconnect') {
    const cookie = await destroySession(getDb(), request)
    const headers = new Headers({ 'Set-Cookie': cookie })
    headers.append('Set-Cookie', await toastCookie(request, { title: 'Wallet Disconnected', description: 'Your wallet has been disconnected', variant: 'default' }))
    return redirect('/', { headers })
  }
  if (intent !== 'connect') return json({ error: 'Unknown action' }, { status: 400 })
  const raw = form.get('certificate')
  if (typeof raw !== 'string' || raw === '') {
    return json({ error: 'Connecting needs the VeWorld wallet (with JavaScript) to sign a certificate.' }, { status: 400 })
  }
  let certificate: unknown
  try {
    certificate = JSON.parse(raw)
  } catch {
    return json({ error: 'Invalid certificate' }, { status: 400 })
  }
  const limited = await getRateLimitRefusal(getDb(), certificateLimits(certificate, context))
  if (limited) return json({ error: limited.message }, { status: limited.status, headers: limited.headers })
  const result = await signInRequest(request, certificate)
  if (!result.ok) return json({ error: result.error }, { status: 401 })
  const headers = new Headers({ 'Set-Cookie': result.cookie })
  headers.append(
    'Set-Cookie',
    await toastCookie(request, {
      title: 'Wallet Connected',
      description: 'Your VeChain wallet has been connected successfully',
      variant: 'success',
      event: 'wallet-connected',
    }),
  )
  return redirect(safeRedirectTo(form.get('redirectTo')), { headers })
}

/** Only reached without JavaScript when connecting cannot work. */
export default function WalletActionResult() {
  const data = useActionData<typeof action>()
  return (
    <div className="gate">
      <h1>Wallet Connection Required</h1>
      <p className="muted">{data?.error ?? 'Open ReCircle in the VeWorld browser to connect your wallet.'}</p>
      <Link to="/connect-wallet" className="btn">
        Back
      </Link>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

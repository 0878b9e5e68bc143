import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useNavigate } from '@remix-run/react'
import { useEffect } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LogoMark } from '~/components/icons'
import { showToast } from '~/components/toaster'
import { wholeB3trText } from '~/rewards/money'
import { JOIN_REDIRECT_MS, REFERRAL_REWARD_B3TR } from '~/referrals/referrals'
import { getReferrerByCode, referralCookieHeader } from '~/referrals/referrals.server'
import styles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Join ReCircle' }]

/** Keeps a valid ?ref code in a cookie until the first sign-in attaches it (docs/decisions/040). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ref = new URL(request.url).searchParams.get('ref')
  const referrer = ref ? await getReferrerByCode(getDb(), ref) : null
  return json(
    { code: referrer?.code ?? null, invalid: !!ref && !referrer },
    { headers: referrer ? { 'Set-Cookie': await referralCookieHeader(request, referrer.code), 'Cache-Control': 'no-store' } : { 'Cache-Control': 'no-store' } },
  )
}

export default function Join() {
  const { code, invalid } = useLoaderData<typeof loader>()
  const navigate = useNavigate()
  useEffect(() => {
    if (code) showToast({ title: 'Welcome to ReCircle!', description: `Referral code ${code} saved. Connect your wallet to get started.`, variant: 'success' })
    const timer = setTimeout(() => navigate('/', { replace: true }), JOIN_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [code, navigate])
  return (
    <div className="gate stack" style={{ alignItems: 'center' }}>
      {/* Without JavaScript the browser follows this after 2 s (meta refresh has whole seconds). */}
      <noscript>
        <meta httpEquiv="refresh" content="2;url=/" />
      </noscript>
      <LogoMark className="mascot" />
      <h1>Welcome to ReCircle!</h1>
      {code ? (
        <p className="muted">
          You were invited with referral code <strong data-testid="join-code">{code}</strong>. Connect your wallet and scan your first
          receipt; your friend earns {wholeB3trText(REFERRAL_REWARD_B3TR)}.
        </p>
      ) : (
        <p className="muted">{invalid ? 'This invitation link is not valid, but you are still welcome!' : 'Earn B3TR tokens for sustainable rides.'}</p>
      )}
      <Link to="/" className="btn">
        Continue
      </Link>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

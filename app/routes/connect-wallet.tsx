import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useSearchParams } from '@remix-run/react'
import { getOptionalUser } from '~/auth/auth.server'
import { safeRedirectTo } from '~/utils/redirect'
import { CodeRequestForm } from '~/components/device-code'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { WalletCard } from '~/components/wallet-card'

export const meta: MetaFunction = () => [{ title: 'Connect Wallet · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  const redirectTo = new URL(request.url).searchParams.get('redirectTo')
  if (user) throw redirect(safeRedirectTo(redirectTo, '/'))
  return null
}

export default function ConnectWallet() {
  const [params] = useSearchParams()
  const redirectTo = params.get('redirectTo')
  const gated = !!redirectTo
  return (
    <div className="stack">
      {gated ? (
        <div className="gate" style={{ paddingBottom: 0 }}>
          <div className="icon-circle" aria-hidden="true">
            <Icon name="lock" width={32} height={32} />
          </div>
          <h1>Wallet Connection Required</h1>
          <p className="muted">You need to connect your wallet to access this feature.</p>
        </div>
      ) : (
        <h1>Connect Wallet</h1>
      )}
      <div className="connect-layout">
        <div className="stack">
          <WalletCard user={null} redirectTo={safeRedirectTo(redirectTo, '/')} connectLabel={gated ? 'Connect Wallet' : undefined} />
          {/* Issue 40: without a wallet in this browser (or without JavaScript), a code confirmed elsewhere. */}
          <section className="card stack" aria-labelledby="code-sign-in-title">
            <h2 id="code-sign-in-title" className="card-title">
              No wallet in this browser?
            </h2>
            <p className="muted small" style={{ margin: 0 }}>
              Get a short code and confirm it with your wallet on another device: VeWorld on your phone, or the extension.
            </p>
            <CodeRequestForm redirectTo={redirectTo} secondary />
          </section>
        </div>
        <section className="card marketing" aria-labelledby="marketing-title">
          <h2 id="marketing-title">Drive Change, Earn B3TR</h2>
          <ul>
            <li>
              <strong>Earn Tokens</strong>
              <span className="small">Get B3TR for every verified sustainable trip.</span>
            </li>
            <li>
              <strong>Boost Rewards</strong>
              <span className="small">Daily streaks multiply your rewards up to 1.5x.</span>
            </li>
            <li>
              <strong>Real Impact</strong>
              <span className="small">Track the CO2 your rides keep out of the air.</span>
            </li>
          </ul>
        </section>
      </div>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

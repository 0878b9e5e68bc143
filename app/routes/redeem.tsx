import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { requireUser } from '~/auth/auth.server'
import { getPayoutConfig } from '~/chain/chain.server'
import { explorerTxUrl, isRealTxHash, shortAddress } from '~/chain/networks'
import { NO_TOKENS_MESSAGE, NO_TOKENS_TITLE, claimAllTokens, listClaims } from '~/claims/claims.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { WithSupportLink } from '~/components/support-link'
import { claimState } from '~/payouts/labels'
import { getBalances } from '~/rewards/ledger.server'
import { maturingLine } from '~/rewards/maturing'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'
import { toastCookie, type Toast } from '~/utils/toast.server'
import { readFormData } from '~/utils/form.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Redeem Tokens · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const db = getDb()
  const [balances, claims] = await Promise.all([getBalances(db, user.id), listClaims(db, user.id)])
  return json({
    balanceMilli: balances.claimableMilli,
    // Issue 38: Claim All takes what has matured; what is still maturing waits for its time.
    maturing: maturingLine(balances.pendingMilli, balances.maturing),
    claims,
    walletAddress: user.walletAddress,
    payoutsConfigured: getPayoutConfig() !== null,
  })
}

const claimSchema = z.object({ intent: z.literal('claim_all_tokens'), amountMilli: z.coerce.number().int() })

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const parsed = claimSchema.safeParse(Object.fromEntries(await readFormData(request)))
  let toast: Toast
  if (!parsed.success) {
    toast = { title: 'Redemption failed', description: 'Failed to redeem tokens', variant: 'destructive' }
  } else {
    const result = await claimAllTokens(getDb(), { userId: user.id, amountMilli: parsed.data.amountMilli })
    toast = result.ok
      ? {
          title: 'Tokens Claimed',
          description: `${formatB3tr(result.amountMilli)} B3TR claimed. It shows as Confirmed once it is paid on-chain.`,
          variant: 'success',
        }
      : result.code === 'no_tokens'
        ? { title: NO_TOKENS_TITLE, description: NO_TOKENS_MESSAGE, variant: 'destructive' }
        : { title: 'Redemption failed', description: result.error, variant: 'destructive' }
  }
  return redirect('/redeem', { headers: { 'Set-Cookie': await toastCookie(request, toast) } })
}

export default function Redeem() {
  const { balanceMilli, maturing, claims, walletAddress, payoutsConfigured } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  const navigation = useNavigation()
  const processing = navigation.state !== 'idle' && navigation.formMethod === 'POST'
  const confirming = params.get('confirm') === '1' && balanceMilli > 0
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <h1>Redeem Tokens</h1>
      <section className="card hero">
        <div className="small">Available balance</div>
        <div className="big-balance" data-testid="redeem-balance">
          {formatB3tr(balanceMilli)} B3TR
        </div>
        {maturing ? (
          <div className="small" data-testid="redeem-maturing">
            {maturing}
          </div>
        ) : null}
      </section>

      <section className="card stack" aria-labelledby="claim-title">
        <h2 id="claim-title" style={{ margin: 0 }}>
          Claim All Tokens
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          Send your whole balance to your wallet {shortAddress(walletAddress)} through VeBetterDAO's rewards pool on the VeChain test
          network.
        </p>
        {balanceMilli > 0 ? (
          <Link to="?confirm=1" preventScrollReset className="btn block">
            <Icon name="wallet" /> Claim All Tokens
          </Link>
        ) : (
          <button type="button" className="btn block" disabled>
            <Icon name="wallet" /> Claim All Tokens
          </button>
        )}
      </section>

      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title">Redemption history</h2>
        {claims.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            No redemption history yet
          </p>
        ) : (
          <ul className="claim-list" data-testid="claim-history">
            {claims.map((c) => {
              const state = claimState({ status: c.status, payoutStatus: c.payoutStatus, error: c.payoutError })
              return (
                <li key={c.id} data-testid="claim-row">
                  <div>
                    <div style={{ fontWeight: 700 }}>-{formatB3tr(c.amountMilli)} B3TR</div>
                    <div className="small muted">
                      {new Date(c.createdAt).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}
                    </div>
                    {state.detail ? (
                      <div className="small" style={{ color: '#991b1b' }}>
                        <WithSupportLink text={state.detail} />
                      </div>
                    ) : null}
                  </div>
                  <div className="stack" style={{ gap: '0.25rem', alignItems: 'flex-end' }}>
                    <span className={`badge ${state.tone}`}>{state.label}</span>
                    {state.label === 'Confirmed' && isRealTxHash(c.txHash) ? (
                      <a href={explorerTxUrl(c.txHash)} target="_blank" rel="noreferrer" className="small">
                        View on VeChain
                      </a>
                    ) : null}
                  </div>
                </li>
              )
            })}
          </ul>
        )}
      </section>

      {confirming ? (
        <div className="dialog-backdrop">
          <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="confirm-title">
            <h2 id="confirm-title">Claim {formatB3tr(balanceMilli)} B3TR?</h2>
            <p className="muted" style={{ margin: 0 }}>
              Your whole balance goes to {shortAddress(walletAddress)}.{' '}
              {payoutsConfigured
                ? 'It is sent through VeBetterDAO’s rewards pool and shows as Confirmed once it is on-chain.'
                : 'Payouts are not switched on yet: the claim is recorded and shows as Awaiting payout until it is paid.'}
            </p>
            <Form method="post" replace className="stack" style={{ gap: '0.5rem' }}>
              <input type="hidden" name="amountMilli" value={balanceMilli} />
              <button type="submit" name="intent" value="claim_all_tokens" className="btn block" disabled={processing}>
                {processing ? 'Processing...' : 'Confirm Claim'}
              </button>
              <Link to="/redeem" replace preventScrollReset className="btn secondary block" aria-disabled={processing}>
                Cancel
              </Link>
            </Form>
          </div>
        </div>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import type { PayoutStatus } from '#db/schema'
import { requireAdmin } from '~/auth/auth.server'
import { getChainConfig, getPayoutConfig, getThor } from '~/chain/chain.server'
import { explorerTxUrl, isRealTxHash, shortAddress } from '~/chain/networks'
import { presentContractStatus, readContractStatus } from '~/chain/status.server'
import { AdminNav } from '~/components/admin-nav'
import { DistributorFacts } from '~/components/chain-status'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PAYOUT_STATUSES, PAYOUT_STATUS_LABELS } from '~/payouts/labels'
import { countPayoutsByStatus, listPayouts, retryPayout } from '~/payouts/payouts.server'
import { formatB3tr } from '~/rewards/money'
import styles from '~/styles/chain.css'
import communityStyles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'
import { readFormData } from '~/utils/form.server'
import { toastCookie, type Toast } from '~/utils/toast.server'
import { rowIdSchema } from '~/utils/ids'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: communityStyles },
  { rel: 'stylesheet', href: styles },
]
export const meta: MetaFunction = () => [{ title: 'Payouts · ReCircle Admin' }]

const statusParam = z.enum(PAYOUT_STATUSES as [PayoutStatus, ...PayoutStatus[]]).optional().catch(undefined)
const RETRYABLE: PayoutStatus[] = ['failed', 'reverted', 'expired', 'pending']

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const status = statusParam.parse(new URL(request.url).searchParams.get('status') ?? undefined)
  const db = getDb()
  const [payouts, counts, chain] = await Promise.all([
    listPayouts(db, { status }),
    countPayoutsByStatus(db),
    readContractStatus(db, getThor(), getChainConfig(), getPayoutConfig()),
  ])
  return json({ status: status ?? null, payouts, counts, chain: presentContractStatus(chain) }, { headers: { 'Cache-Control': 'no-store' } })
}

const retrySchema = z.object({ intent: z.literal('retry'), payoutId: rowIdSchema })

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  const parsed = retrySchema.safeParse(Object.fromEntries(await readFormData(request)))
  let toast: Toast
  if (!parsed.success) {
    toast = { title: 'Retry failed', description: 'Choose a payout to retry.', variant: 'destructive' }
  } else {
    const result = await retryPayout(getDb(), { payoutId: parsed.data.payoutId, adminUserId: admin.id })
    toast = result.ok ? { title: 'Payout queued', description: result.message, variant: 'success' } : { title: 'Retry failed', description: result.error, variant: 'destructive' }
  }
  const back = new URL(request.url)
  return redirect(`/admin/payouts${back.search}`, { headers: { 'Set-Cookie': await toastCookie(request, toast) } })
}

const TONE: Record<PayoutStatus, 'ok' | 'warn' | 'bad'> = {
  pending: 'warn',
  signed: 'warn',
  sent: 'warn',
  expired: 'warn',
  confirmed: 'ok',
  failed: 'bad',
  reverted: 'bad',
}

export default function AdminPayouts() {
  const { status, payouts, counts, chain } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const busyId = navigation.state === 'submitting' ? navigation.formData?.get('payoutId') : null
  return (
    <div className="stack">
      <h1 style={{ margin: 0 }}>Payouts</h1>
      <AdminNav />
      {!chain.payoutsConfigured ? (
        <div className="alert" role="status" data-testid="payouts-not-configured">
          Payouts are not configured: claims are recorded and wait ("Awaiting payout"). Set PAYOUT_PRIVATE_KEY (or PAYOUT_MNEMONIC) and
          VEBETTER_APP_ID to pay them through VeBetterDAO's rewards pool.
        </div>
      ) : null}
      {!chain.network.connected ? (
        <div className="alert" role="alert">
          The VeChain node cannot be read: {chain.network.error}
        </div>
      ) : null}

      <section className="card stack" aria-labelledby="distributor-title" style={{ gap: '0.6rem' }}>
        <div className="row between">
          <h2 id="distributor-title" style={{ margin: 0 }}>
            Distributor and budget
          </h2>
          <Link to="/contract-status" className="small">
            Contract status
          </Link>
        </div>
        <DistributorFacts status={chain} />
      </section>

      <nav aria-label="Payouts by status" className="count-grid">
        <Link to="/admin/payouts" aria-current={status === null ? 'page' : undefined}>
          <div className="stat">
            <div className="stat-value">{Object.values(counts).reduce((n, c) => n + c.count, 0)}</div>
            <div className="stat-label">All</div>
          </div>
        </Link>
        {PAYOUT_STATUSES.map((s) => (
          <Link key={s} to={`/admin/payouts?status=${s}`} aria-current={status === s ? 'page' : undefined}>
            <div className="stat">
              <div className="stat-value" data-testid={`count-${s}`}>
                {counts[s].count}
              </div>
              <div className="stat-label">{PAYOUT_STATUS_LABELS[s]}</div>
            </div>
          </Link>
        ))}
      </nav>

      {payouts.length === 0 ? (
        <div className="card center">
          <h2>{status ? `No ${PAYOUT_STATUS_LABELS[status].toLowerCase()} payouts` : 'No payouts yet'}</h2>
          <p className="muted">Claims from the Redeem page appear here as they are paid.</p>
        </div>
      ) : (
        payouts.map((p) => (
          <article key={p.id} className="card payout-card" data-testid="payout-row" aria-labelledby={`payout-${p.id}`}>
            <div className="row between">
              <h2 id={`payout-${p.id}`} style={{ margin: 0, fontSize: '1.05rem' }}>
                {formatB3tr(p.amountMilli)} B3TR
              </h2>
              <span className={`status-badge ${TONE[p.status]}`}>{PAYOUT_STATUS_LABELS[p.status]}</span>
            </div>
            <div className="small muted">
              Payout #{p.id} · claim #{p.claimId} · to <span className="mono">{shortAddress(p.walletAddress)}</span> ·{' '}
              {new Date(p.createdAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC
            </div>
            {p.txHash ? (
              <div className="small">
                Transaction{' '}
                {isRealTxHash(p.txHash) ? (
                  <a href={explorerTxUrl(p.txHash)} target="_blank" rel="noreferrer" className="mono">
                    {shortAddress(p.txHash, 10, 8)}
                  </a>
                ) : (
                  <span className="mono">{p.txHash}</span>
                )}
                {p.signings > 1 ? <span className="muted"> (signed {p.signings} times)</span> : null}
              </div>
            ) : null}
            {p.previousTxIds.length ? (
              <div className="small muted">
                Expired or replaced:{' '}
                {p.previousTxIds.map((id) => (
                  <span key={id} className="mono">
                    {shortAddress(id, 10, 8)}{' '}
                  </span>
                ))}
              </div>
            ) : null}
            {p.error ? <div className="error-text">{p.error}</div> : null}
            {p.nextAttemptAt && p.status !== 'confirmed' ? (
              <div className="small muted">
                Next attempt {new Date(p.nextAttemptAt).toLocaleString('en-US', { timeStyle: 'medium', dateStyle: 'short', timeZone: 'UTC' })} UTC
                {p.attempts ? ` · ${p.attempts} failed ${p.attempts === 1 ? 'attempt' : 'attempts'}` : ''}
              </div>
            ) : null}
            {RETRYABLE.includes(p.status) && (p.status !== 'pending' || p.error) ? (
              <Form method="post">
                <input type="hidden" name="payoutId" value={p.id} />
                <button type="submit" name="intent" value="retry" className="btn secondary block" disabled={busyId === String(p.id)}>
                  {busyId === String(p.id) ? 'Processing...' : p.status === 'pending' ? 'Retry now' : 'Retry payout'}
                </button>
              </Form>
            ) : null}
          </article>
        ))
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

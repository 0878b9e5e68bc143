import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { PASSPORT_EXPLAINED } from '~/receipts/standing'
import { Form, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { requireAdmin } from '~/auth/auth.server'
import { getChainConfig, getPayoutConfig, getThor } from '~/chain/chain.server'
import { explorerAccountUrl } from '~/chain/networks'
import { presentContractStatus, readContractStatus } from '~/chain/status.server'
import { AdminNav } from '~/components/admin-nav'
import { DistributorFacts, NetworkCard, ReadValue, formatCheckedAt } from '~/components/chain-status'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import styles from '~/styles/chain.css'
import communityStyles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: communityStyles },
  { rel: 'stylesheet', href: styles },
]
export const meta: MetaFunction = () => [{ title: 'Smart Contract Status · ReCircle Admin' }]

const REFRESH_MS = 15_000

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const status = await readContractStatus(getDb(), getThor(), getChainConfig(), getPayoutConfig())
  return json({ status: presentContractStatus(status) }, { headers: { 'Cache-Control': 'no-store' } })
}

export default function ContractStatus() {
  const { status } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const revalidator = useRevalidator()
  const refreshing = navigation.state === 'loading' || revalidator.state === 'loading'
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle') revalidator.revalidate()
    }, REFRESH_MS)
    return () => clearInterval(timer)
  }, [revalidator])

  const badge = !status.network.connected ? ['bad', 'Network Unavailable'] : status.ready ? ['ok', 'Ready'] : ['warn', 'Needs configuration']
  return (
    <div className="stack">
      <div className="row between wrap">
        <h1 style={{ margin: 0 }}>Smart Contract Status</h1>
        <Form method="get" replace>
          <button type="submit" className="btn secondary" disabled={refreshing} aria-label="Refresh status">
            {refreshing ? <span className="spinner" aria-hidden="true" /> : null} {refreshing ? 'Refreshing...' : 'Refresh'}
          </button>
        </Form>
      </div>
      <AdminNav />

      <section className="card stack" aria-labelledby="pool-title" style={{ gap: '0.6rem' }}>
        <div className="row between">
          <h2 id="pool-title" style={{ margin: 0 }}>
            VeBetterDAO rewards pool
          </h2>
          <span className={`status-badge ${badge[0]}`} data-testid="contract-badge">
            {badge[1]}
          </span>
        </div>
        <p className="small muted" style={{ margin: 0 }}>
          ReCircle deploys no contract of its own: it pays through VeBetterDAO's X2EarnRewardsPool as a registered app.
        </p>
        <dl className="kv">
          <dt>Rewards pool</dt>
          <dd className="mono">
            <a href={explorerAccountUrl(status.poolAddress)} target="_blank" rel="noreferrer">
              {status.poolAddress}
            </a>
          </dd>
          <dt>Pool version</dt>
          <dd data-testid="pool-version">
            <ReadValue read={status.poolVersion} render={(v) => v} />
          </dd>
          <dt>App ID</dt>
          <dd className="mono">{status.appId ?? <span className="muted">VEBETTER_APP_ID is not set</span>}</dd>
          <dt>App registered</dt>
          <dd>
            <ReadValue read={status.appExists} render={(v) => (v ? 'Yes' : 'No')} missing="Needs the app id" />
          </dd>
          <dt>Distribution</dt>
          <dd>
            <ReadValue read={status.distributionPaused} render={(v) => (v ? 'Paused' : 'Active')} missing="Needs the app id" />
          </dd>
          <dt>Pool B3TR</dt>
          <dd>
            <ReadValue read={status.poolB3tr} render={(v) => `${v} B3TR`} />
          </dd>
          <dt>App allocation available</dt>
          <dd>
            <ReadValue read={status.availableFundsB3tr} render={(v) => `${v} B3TR`} missing="Needs the app id" />
          </dd>
          <dt>App rewards pool</dt>
          <dd data-testid="rewards-pool-balance">
            <ReadValue read={status.rewardsPoolBalanceB3tr} render={(v) => `${v} B3TR`} missing="Needs the app id" />
          </dd>
          <dt>VeBetter Passport</dt>
          <dd className="mono">
            <a href={explorerAccountUrl(status.passportAddress)} target="_blank" rel="noreferrer" data-testid="passport-address">
              {status.passportAddress}
            </a>
            <span className="small muted" style={{ display: 'block' }}>
              {PASSPORT_EXPLAINED}
            </span>
          </dd>
          <dt>Payouts</dt>
          <dd>{status.payoutsConfigured ? 'Configured' : 'Not configured: claims are recorded and wait'}</dd>
          <dt>Last checked</dt>
          <dd>{formatCheckedAt(status.network.checkedAt)}</dd>
        </dl>
      </section>

      {status.fundingAdvice ? (
        <div className="alert warn" role="status" data-testid="funding-advice">
          <strong>Payouts will fail until the rewards pool is funded</strong>
          <p style={{ margin: '0.25rem 0 0', overflowWrap: 'anywhere' }}>{status.fundingAdvice}</p>
        </div>
      ) : null}

      <NetworkCard status={status} />

      <section className="card stack" aria-labelledby="fees-title" style={{ gap: '0.6rem' }}>
        <h2 id="fees-title" style={{ margin: 0 }}>
          Fees
        </h2>
        <p className="small muted" style={{ margin: 0 }}>
          Payouts are dynamic-fee transactions: the fee cap is twice the best block&apos;s base fee plus the node&apos;s suggested tip, raised after an expiry.
        </p>
        <dl className="kv" data-testid="fees">
          <dt>Base fee</dt>
          <dd>
            <ReadValue read={status.fees} render={(f) => `${f.baseFeePerGas} wei/gas`} />
          </dd>
          <dt>Tip</dt>
          <dd>
            <ReadValue read={status.fees} render={(f) => `${f.priorityFeePerGas} wei/gas`} />
          </dd>
          <dt>Fee cap</dt>
          <dd>
            <ReadValue read={status.fees} render={(f) => `${f.maxFeePerGas} wei/gas`} />
          </dd>
          <dt>One payout</dt>
          <dd>
            <ReadValue read={status.fees} render={(f) => `about ${f.payoutVtho} VTHO (at most ${f.payoutMaxVtho})`} />
          </dd>
        </dl>
      </section>

      <section className="card stack" aria-labelledby="distributor-title" style={{ gap: '0.6rem' }}>
        <h2 id="distributor-title" style={{ margin: 0 }}>
          Distributor
        </h2>
        <DistributorFacts status={status} />
      </section>

      <section className="card stack" aria-labelledby="checklist-title" style={{ gap: '0.6rem' }}>
        <h2 id="checklist-title" style={{ margin: 0 }}>
          Integration checklist
        </h2>
        <ul className="status-list" data-testid="checklist">
          {status.checklist.map((item) => (
            <li key={item.label}>
              <span className={item.done ? 'tick' : 'wait'} aria-hidden="true">
                {item.done ? '✓' : '…'}
              </span>
              <div>
                <div style={{ fontWeight: 700 }}>
                  {item.label} <span className="sr-only">{item.done ? '(done)' : '(waiting)'}</span>
                </div>
                <div className="small muted">{item.detail}</div>
              </div>
            </li>
          ))}
        </ul>
        <Form method="get" replace>
          <button type="submit" className="btn block" disabled={refreshing || !status.network.connected}>
            Check configuration
          </button>
        </Form>
        <p className="small muted" style={{ margin: 0 }}>
          {status.network.connected ? 'Reads the node and the contracts again.' : 'Waiting for VeChain testnet connectivity...'} How to register the app, add the
          distributor and fund the pool: see the README, "Real payouts on the test network".
        </p>
      </section>
      {status.lastWorkerCheck ? (
        <p className="small muted" style={{ margin: 0 }}>
          Payout worker: {status.lastWorkerCheck.ok ? 'running' : status.lastWorkerCheck.error} (reported {formatCheckedAt(status.lastWorkerCheck.checkedAt)})
        </p>
      ) : null}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

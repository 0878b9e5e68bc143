import type { ContractStatusView, ReadView } from '~/chain/status.server'
import { explorerAccountUrl } from '~/chain/networks'

/** A value read from the chain, or why it could not be read. */
export function ReadValue<T>({ read, render, missing = 'Not configured' }: { read: ReadView<T> | null; render: (v: T) => React.ReactNode; missing?: string }) {
  if (read === null) return <span className="muted">{missing}</span>
  if (!read.ok) return <span className="muted" title={read.error}>Unavailable</span>
  return <>{render(read.value)}</>
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No')

export function formatCheckedAt(iso: string | null | undefined) {
  if (!iso) return 'Never'
  return `${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })} UTC`
}

export function NetworkCard({ status }: { status: ContractStatusView }) {
  const { network } = status
  return (
    <section className="card stack" aria-labelledby="network-title" style={{ gap: '0.6rem' }}>
      <div className="row between">
        <h2 id="network-title" style={{ margin: 0 }}>
          Network
        </h2>
        <span className={`status-badge ${network.connected && network.genesisOk ? 'ok' : 'bad'}`} data-testid="network-badge">
          {network.connected ? 'Connected' : 'Disconnected'}
        </span>
      </div>
      <dl className="kv">
        <dt>Network</dt>
        <dd>{network.network === 'testnet' ? 'VeChain testnet' : network.network === 'mainnet' ? 'VeChain mainnet' : 'Unknown'}</dd>
        <dt>RPC address</dt>
        <dd className="mono">{network.nodeUrl}</dd>
        <dt>Latest block</dt>
        <dd data-testid="best-block">{network.bestBlock ? network.bestBlock.number.toLocaleString('en-US') : '—'}</dd>
        <dt>Last checked</dt>
        <dd>{formatCheckedAt(network.checkedAt)}</dd>
      </dl>
      {network.error ? (
        <div className="alert" role="alert">
          {network.error}
        </div>
      ) : null}
    </section>
  )
}

export function DistributorFacts({ status }: { status: ContractStatusView }) {
  return (
    <dl className="kv">
      <dt>Distributor</dt>
      <dd className="mono">{status.distributor ? <a href={explorerAccountUrl(status.distributor)} target="_blank" rel="noreferrer">{status.distributor}</a> : <span className="muted">No payout key configured</span>}</dd>
      <dt>Reward distributor</dt>
      <dd>
        <ReadValue read={status.isRewardDistributor} render={yesNo} />
      </dd>
      <dt>VET</dt>
      <dd>
        <ReadValue read={status.distributorVet} render={(v) => `${v} VET`} />
      </dd>
      <dt>VTHO (gas)</dt>
      <dd>
        <ReadValue read={status.distributorVtho} render={(v) => `${v} VTHO`} />
      </dd>
      <dt>App budget</dt>
      <dd data-testid="app-budget">
        <ReadValue read={status.budgetB3tr} render={(v) => `${v} B3TR`} missing="Needs the app id" />
        {status.rewardsPoolEnabled?.ok ? <span className="small muted"> ({status.rewardsPoolEnabled.value ? 'rewards pool balance' : 'available funds'})</span> : null}
      </dd>
    </dl>
  )
}

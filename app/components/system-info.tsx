import { useEffect, useState } from 'react'
import { networkFromGenesisId } from '~/chain/networks'

type Info = { label: string; value: string }

/** What a provider object offers: its own keys with their kinds, never their values' secrets. */
function describeProvider(provider: unknown): string {
  if (!provider || typeof provider !== 'object') return 'no'
  const keys = Object.keys(provider as object)
  if (keys.length === 0) return 'yes (no own properties)'
  const parts = keys.slice(0, 12).map((k) => `${k}: ${typeof (provider as Record<string, unknown>)[k]}`)
  return `yes (${parts.join(', ')}${keys.length > 12 ? ', …' : ''})`
}

function readInfo(production: boolean): Info[] {
  const genesisId = window.connex?.thor?.genesis?.id
  return [
    { label: 'URL', value: location.href },
    { label: 'Host', value: location.host },
    { label: 'User agent', value: navigator.userAgent },
    { label: 'Production server', value: production ? 'yes' : 'no' },
    { label: 'window.vechain', value: describeProvider(window.vechain) },
    { label: 'window.connex', value: describeProvider(window.connex) },
    {
      label: 'Wallet genesis id',
      value: genesisId ? `${genesisId} (${networkFromGenesisId(genesisId)})` : 'not reported',
    },
  ]
}

/** Read in the browser after hydration; the server render says that it needs JavaScript. */
export function SystemInfo({ production }: { production: boolean }) {
  const [info, setInfo] = useState<Info[] | null>(null)
  useEffect(() => setInfo(readInfo(production)), [production])
  if (!info) {
    return (
      <p className="small muted" style={{ margin: 0 }}>
        System information is read in this browser and needs JavaScript. Production server: {production ? 'yes' : 'no'}.
      </p>
    )
  }
  return (
    <dl className="kv" data-testid="system-info">
      {info.map((i) => (
        <div key={i.label} style={{ display: 'contents' }}>
          <dt>{i.label}</dt>
          <dd className="mono">{i.value}</dd>
        </div>
      ))}
    </dl>
  )
}

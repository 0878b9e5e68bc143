import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { showToast } from '~/components/toaster'
import {
  WEEKDAYS,
  bannerHue,
  coordinateParams,
  coordinatesFromParams,
  directionsUrl,
  formatDayHours,
  formatDistance,
  isStoreOpen,
  localTimeIn,
  storeDistance,
  storeHours,
  storeTimeZone,
  storeKindPhrase,
  storeTypeLabel,
} from '~/stores/stores'
import { getStore } from '~/stores/stores.server'
import { SECOND_HAND_RULE, WHAT_EARNS } from '~/rewards/earning-rule'
import styles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'
import { parseRowId } from '~/utils/ids'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]

const TABS = ['details', 'hours', 'rewards'] as const
type Tab = (typeof TABS)[number]

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request)
  const store = await getStore(getDb(), parseRowId(params.id) ?? 0)
  if (!store) throw json({ error: "We couldn't find the store you're looking for." }, { status: 404 })
  const search = new URL(request.url).searchParams
  const from = coordinatesFromParams(search)
  const tab: Tab = (TABS as readonly string[]).includes(search.get('tab') ?? '') ? (search.get('tab') as Tab) : 'details'
  const now = new Date()
  return json({
    store,
    tab,
    location: from ? { ...coordinateParams(from), ...(search.get('loc') === 'default' ? { loc: 'default' } : {}) } : null,
    distanceMiles: storeDistance(store, from),
    open: isStoreOpen(store, now),
    hours: storeHours(store.id),
    today: localTimeIn(storeTimeZone(store.state), now).day,
    directions: directionsUrl(store),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.store.name ?? 'Store Not Found'} · ReCircle` }]

function ShareButton({ name }: { name: string }) {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  if (!hydrated) return null
  async function share() {
    const url = window.location.href.split('?')[0] ?? window.location.href
    try {
      if (navigator.share) {
        await navigator.share({ title: name, text: `${name} on ReCircle`, url })
      } else {
        await navigator.clipboard?.writeText(url)
        showToast({ title: 'Link copied', description: url })
      }
    } catch (error) {
      if ((error as Error).name === 'AbortError') return
      showToast({ title: "Couldn't share", description: 'There was an error sharing this store', variant: 'destructive' })
    }
  }
  return (
    <button type="button" className="round" onClick={share} aria-label="Share this store">
      <Icon name="share" />
    </button>
  )
}

export default function StoreDetail() {
  const { store, tab, location, distanceMiles, open, hours, today, directions } = useLoaderData<typeof loader>()
  const keep: Record<string, string> = location ?? {}
  const tabLink = (t: Tab) => `?${new URLSearchParams({ ...keep, tab: t })}`
  const back = `/stores${location ? `?${new URLSearchParams(keep)}` : ''}`
  return (
    <div className="stack">
      <div className="store-banner" style={{ background: `linear-gradient(135deg, hsl(${bannerHue(store.id)} 55% 30%), hsl(${(bannerHue(store.id) + 40) % 360} 60% 36%))` }}>
        <div className="banner-actions">
          <Link to={back} className="round" aria-label="Back to Stores">
            <Icon name="arrowLeft" />
          </Link>
          <ShareButton name={store.name} />
        </div>
        <span aria-hidden="true">{store.name.charAt(0).toUpperCase()}</span>
      </div>

      <section>
        <h1 style={{ marginBottom: 4 }}>{store.name}</h1>
        <div className="muted">
          {store.address}, {store.city}, {store.state}
        </div>
        <div className="badge-row">
          <span className="badge type">{storeTypeLabel(store.storeType)}</span>
          <span className="badge">{formatDistance(distanceMiles)}</span>
          <span className={`badge ${open ? 'open' : 'closed'}`} data-testid="open-status">
            {open ? 'Open Now' : 'Closed'}
          </span>
          {store.isDemo ? <span className="badge demo">Demo listing</span> : null}
        </div>
        {store.addedBy !== null ? (
          <p className="small muted" style={{ marginTop: '0.5rem' }}>
            <Icon name="users" width={16} height={16} /> Community contributed store
          </p>
        ) : null}
      </section>

      <nav className="tabs" aria-label="Store information">
        {TABS.map((t) => (
          <Link key={t} to={tabLink(t)} replace preventScrollReset aria-current={tab === t ? 'page' : undefined}>
            {t === 'details' ? 'Details' : t === 'hours' ? 'Hours' : 'Rewards'}
          </Link>
        ))}
      </nav>

      <section className="card stack" style={{ gap: '0.5rem' }}>
        {tab === 'details' ? (
          <>
            <p style={{ margin: 0 }}>
              {storeKindPhrase(store.storeType)}: second-hand, repair or refill shopping that keeps
              goods in use and out of landfill.
            </p>
            <div className="small muted">Phone: not listed · Website: not listed</div>
            {store.verified ? (
              <div className="row small" style={{ color: 'var(--green-700)', fontWeight: 700 }}>
                <Icon name="check" width={16} height={16} /> Verified Store
              </div>
            ) : null}
          </>
        ) : tab === 'hours' ? (
          <>
            <h2 style={{ margin: 0 }}>Typical hours</h2>
            <table className="hours-table">
              <tbody>
                {WEEKDAYS.map((day, i) => (
                  <tr key={day} aria-current={i === today ? 'date' : undefined}>
                    <td>{day}</td>
                    <td>{formatDayHours(hours[i] ?? null)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="small muted" style={{ margin: 0 }}>
              Hours are typical and may differ; check with the store before you go.
            </p>
          </>
        ) : (
          <>
            <h2 style={{ margin: 0 }}>Rewards</h2>
            {/* Issue 40: no amount the rules would not pay for this store's receipts. */}
            <p style={{ margin: 0 }} data-testid="store-rule">
              {SECOND_HAND_RULE}
            </p>
            <p className="small muted" style={{ margin: 0 }}>
              {WHAT_EARNS}
            </p>
          </>
        )}
      </section>

      <div className="btn-pair">
        <a href={directions} target="_blank" rel="noreferrer" className="btn secondary" style={{ flex: 1 }}>
          <Icon name="globe" /> Directions
        </a>
        <Link to="/scan" className="btn" style={{ flex: 1 }}>
          <Icon name="camera" /> Scan Receipt
        </Link>
      </div>
    </div>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="gate">
        <h1>Store Not Found</h1>
        <p className="muted">We couldn't find the store you're looking for.</p>
        <Link to="/stores" className="btn">
          Back to Stores
        </Link>
      </div>
    )
  }
  return <GeneralErrorBoundary />
}

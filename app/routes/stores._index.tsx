import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigate, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { showToast } from '~/components/toaster'
import { locate } from '~/stores/locate.client'
import {
  DEFAULT_LOCATION,
  bannerHue,
  coordinateParams,
  coordinatesFromParams,
  filterStores,
  formatDistance,
  normalizeQuery,
  sortByDistance,
  storeTypeLabel,
} from '~/stores/stores'
import { listStores } from '~/stores/stores.server'
import { transportReceiptRewardRange } from '~/rewards/rules'
import styles from '~/styles/community.css'
import { getDb } from '~/utils/db.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Sustainable Stores · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  const params = new URL(request.url).searchParams
  const q = normalizeQuery(params.get('q'))
  // Without JavaScript "Use My Location" cannot ask the browser: it uses the default city.
  const from = coordinatesFromParams(params) ?? (params.has('locate') ? DEFAULT_LOCATION : null)
  const isDefault = from !== null && (params.get('loc') === 'default' || !coordinatesFromParams(params))
  // ?locate=1 without coordinates is the button's plain GET: the browser ran no JavaScript to ask.
  const withoutJs = params.has('locate') && !coordinatesFromParams(params)
  const stores = sortByDistance(filterStores(await listStores(getDb()), q), from)
  return json({
    q,
    stores,
    location: from
      ? {
          ...coordinateParams(from),
          isDefault,
          label: isDefault ? `${DEFAULT_LOCATION.name} (default location)` : 'your location',
          needsJs: withoutJs,
        }
      : null,
  })
}

// What a verified receipt pays after the first, from the reward rules (decision 100): "9-14 tokens".
const range = transportReceiptRewardRange()
const rewardChip = `${range.min}-${range.max} tokens`

function StoreListSkeleton() {
  return (
    <div className="stack" aria-busy="true" aria-label="Loading store">
      <div className="skeleton" style={{ height: 140 }} />
      <div className="skeleton" style={{ height: 28, width: '60%' }} />
      <div className="skeleton" style={{ height: 18, width: '80%' }} />
      <div className="skeleton" style={{ height: 120 }} />
    </div>
  )
}

export default function Stores() {
  const { q, stores, location } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const navigate = useNavigate()
  const [locating, setLocating] = useState(false)
  const locationParams: Record<string, string> = location
    ? { lat: location.lat, lng: location.lng, ...(location.isDefault ? { loc: 'default' } : {}) }
    : {}
  const locationSearch = location ? `?${new URLSearchParams(locationParams)}` : ''

  if (navigation.state === 'loading' && /^\/stores\/\d+/.test(navigation.location.pathname)) return <StoreListSkeleton />

  async function handleLocate(event: React.MouseEvent) {
    event.preventDefault()
    setLocating(true)
    const { location: at, failed } = await locate({ force: true })
    setLocating(false)
    if (failed) showToast({ title: 'Location error', description: 'Could not access your location. Please check permissions.', variant: 'destructive' })
    const params = new URLSearchParams({ ...(q ? { q } : {}), ...coordinateParams(at), ...(at.isActualLocation ? {} : { loc: 'default' }) })
    navigate(`/stores?${params}`, { replace: true, preventScrollReset: true })
  }

  return (
    <div className="stack">
      <h1>Sustainable Stores</h1>
      <Form method="get" className="search-form" role="search">
        <label htmlFor="store-search" className="sr-only">
          Search stores by name, city, state or address
        </label>
        <input id="store-search" type="search" name="q" defaultValue={q} className="input" placeholder="Name, city or address" />
        {Object.entries(locationParams).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="btn secondary">
          Search
        </button>
      </Form>
      <div className="btn-pair">
        <Form method="get">
          {q ? <input type="hidden" name="q" value={q} /> : null}
          <button type="submit" name="locate" value="1" className="btn secondary block" onClick={handleLocate} disabled={locating}>
            <Icon name="globe" /> {locating ? 'Locating...' : 'Use My Location'}
          </button>
        </Form>
        <Link to="/add-store" className="btn" style={{ flex: 1 }}>
          <Icon name="plus" /> Add Store
        </Link>
      </div>
      <noscript>
        <p className="small muted" style={{ margin: 0 }}>
          Finding your location needs JavaScript: without it, Use My Location measures from {DEFAULT_LOCATION.name}.
        </p>
      </noscript>
      {location?.needsJs ? (
        <p className="small" role="status" style={{ margin: 0 }}>
          Your location needs JavaScript, which is off, so the default city is used.
        </p>
      ) : null}
      {location ? <p className="small muted" style={{ margin: 0 }}>Distances in miles from {location.label}.</p> : null}

      {stores.length === 0 ? (
        <div className="card center stack" style={{ alignItems: 'center' }}>
          <div className="action-icon">
            <Icon name="store" />
          </div>
          <h2>No Stores Found</h2>
          <p className="muted">{q ? `No stores match "${q}".` : 'There are no sustainable stores in the database yet.'}</p>
          <Link to="/add-store" className="btn">
            Add a Sustainable Store
          </Link>
        </div>
      ) : (
        <ul className="store-list" aria-label="Stores">
          {stores.map((store) => (
            <li key={store.id}>
              <Link to={`/stores/${store.id}${locationSearch}`} className="store-card">
                <span className="store-initial" aria-hidden="true" style={{ background: `hsl(${bannerHue(store.id)} 55% 34%)` }}>
                  {store.name.charAt(0).toUpperCase()}
                </span>
                <div style={{ minWidth: 0, flex: 1 }}>
                  <h2>{store.name}</h2>
                  <div className="small muted">
                    {store.address}, {store.city}, {store.state}
                  </div>
                  <div className="badge-row">
                    <span className="badge type">{storeTypeLabel(store.storeType)}</span>
                    <span className="badge" data-testid="store-distance">
                      {formatDistance(store.distanceMiles)}
                    </span>
                    <span className="chip">{rewardChip}</span>
                    {store.isDemo ? <span className="badge demo">Demo listing</span> : null}
                  </div>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

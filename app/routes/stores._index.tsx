import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigate, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { requireUser } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { showToast } from '~/components/toaster'
import { cachedLocation, locate } from '~/stores/locate.client'
import {
  DEFAULT_LOCATION,
  bannerHue,
  coordinateParams,
  coordinatesFromParams,
  filterStores,
  formatDistance,
  normalizeQuery,
  sortByDistance,
  type NamedLocation,
  storeTypeLabel,
} from '~/stores/stores'
import { listStores } from '~/stores/stores.server'
import { SECOND_HAND_CHIP } from '~/rewards/earning-rule'
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

// Issue 40: a second-hand store's receipt is checked by staff, so the list promises no amount
// (it showed "9-14 tokens", the transport range) and says the rule instead.
const rewardChip = SECOND_HAND_CHIP

function StoreListSkeleton() {
  return (
    <div className="stack" role="status" aria-busy="true" aria-label="Loading store">
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

  function showDistancesFrom(at: NamedLocation) {
    const params = new URLSearchParams({ ...(q ? { q } : {}), ...coordinateParams(at), ...(at.isActualLocation ? {} : { loc: 'default' }) })
    navigate(`/stores?${params}`, { replace: true, preventScrollReset: true })
  }

  // Spec 2 §4: a position cached this session is used on load.
  useEffect(() => {
    if (location) return
    const cached = cachedLocation()
    if (cached) showDistancesFrom(cached)
    // Runs again only when the page's data changes (showDistancesFrom depends on q alone).
  }, [location, q])

  /** "Use My Location" asks afresh; "Get distance" takes the cached position, else asks. */
  async function handleLocate(event: React.MouseEvent, force: boolean) {
    event.preventDefault()
    setLocating(true)
    const { location: at, failed } = await locate({ force })
    setLocating(false)
    if (failed) showToast({ title: 'Location error', description: 'Could not access your location. Please check permissions.', variant: 'destructive' })
    showDistancesFrom(at)
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
          <button type="submit" name="locate" value="1" className="btn secondary block" onClick={(event) => void handleLocate(event, true)} disabled={locating}>
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
            <li key={store.id} className="store-item">
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
                    {store.distanceMiles !== null ? (
                      <span className="badge" data-testid="store-distance">
                        {formatDistance(store.distanceMiles)}
                      </span>
                    ) : null}
                    <span className="chip">{rewardChip}</span>
                    {store.isDemo ? <span className="badge demo">Demo listing</span> : null}
                  </div>
                </div>
              </Link>
              {store.distanceMiles === null ? (
                // "Get distance" is an action (spec 2 §2): it asks for the location; without
                // JavaScript it is Use My Location's GET (the default city).
                <Form method="get" className="store-distance-action">
                  {q ? <input type="hidden" name="q" value={q} /> : null}
                  <button
                    type="submit"
                    name="locate"
                    value="1"
                    className="badge distance-button"
                    data-testid="store-distance"
                    aria-label={`Get distance to ${store.name}`}
                    onClick={(event) => void handleLocate(event, false)}
                    disabled={locating}
                  >
                    <Icon name="globe" width={14} height={14} />
                    {formatDistance(null)}
                  </button>
                </Form>
              ) : null}
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

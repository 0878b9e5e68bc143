import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { filterStores, normalizeQuery } from '~/stores/stores'
import { listStores } from '~/stores/stores.server'
import { getDb } from '~/utils/db.server'

/** The public store directory (spec 2 §7); `?q=` filters on name, city, state or address. */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = normalizeQuery(new URL(request.url).searchParams.get('q'))
  return json(filterStores(await listStores(getDb()), q))
}

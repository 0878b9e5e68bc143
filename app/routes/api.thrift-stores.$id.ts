import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { getStore } from '~/stores/stores.server'
import { getDb } from '~/utils/db.server'
import { parseRowId } from '~/utils/ids'

export async function loader({ params }: LoaderFunctionArgs) {
  const store = await getStore(getDb(), parseRowId(params.id) ?? 0)
  if (!store) return json({ error: 'Store Not Found', message: "We couldn't find the store you're looking for." }, { status: 404 })
  return json(store)
}

import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { getStore } from '~/stores/stores.server'
import { getDb } from '~/utils/db.server'

export async function loader({ params }: LoaderFunctionArgs) {
  const store = await getStore(getDb(), Number(params.id))
  if (!store) return json({ error: 'Store Not Found', message: "We couldn't find the store you're looking for." }, { status: 404 })
  return json(store)
}

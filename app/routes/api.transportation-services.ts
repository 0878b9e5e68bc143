import { json } from '@remix-run/node'
import { listTransportationServices } from '~/receipts/services.server'
import { getDb } from '~/utils/db.server'

export async function loader() {
  return json(await listTransportationServices(getDb()), { headers: { 'Cache-Control': 'public, max-age=300' } })
}

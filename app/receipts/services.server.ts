import type { DB } from '#db/db.server'

/** The transportation services a user may name on the receipt form (it decides nothing). */
export async function listTransportationServices(db: DB) {
  return db.selectFrom('transportation_services').select(['id', 'name', 'category']).orderBy('id').execute()
}

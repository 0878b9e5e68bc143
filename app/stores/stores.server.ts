import type { Kysely } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database, StoreRow } from '#db/schema'
import type { Store } from './stores'

export function toStore(row: StoreRow): Store {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    city: row.city,
    state: row.state,
    latitude: row.latitude,
    longitude: row.longitude,
    storeType: row.store_type,
    // A demo listing is made up for the directory, so it is never a verified store (issue 32).
    verified: row.verified === 1 && row.is_demo !== 1,
    addedBy: row.added_by_user_id,
    isDemo: row.is_demo === 1,
  }
}

/** Every published store, alphabetically (the directory is small; search runs on the list). */
export async function listStores(db: DB): Promise<Store[]> {
  const rows = await db.selectFrom('stores').selectAll().orderBy('name').orderBy('id').execute()
  return rows.map(toStore)
}

export async function getStore(db: DB, id: number): Promise<Store | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null
  const row = await db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst()
  return row ? toStore(row) : null
}

/**
 * Publish a store from an approved submission inside the caller's transaction. The same store
 * (name + address + city) submitted twice is published once; the existing row's id is returned.
 */
export async function publishStore(
  trx: Kysely<Database>,
  input: { name: string; address: string; city: string; state: string; storeType: string; addedByUserId: number; now: Date },
): Promise<number> {
  const inserted = await trx
    .insertInto('stores')
    .values({
      name: input.name,
      address: input.address,
      city: input.city,
      state: input.state,
      store_type: input.storeType,
      latitude: null,
      longitude: null,
      verified: 1,
      added_by_user_id: input.addedByUserId,
      is_demo: 0,
      created_at: input.now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['name', 'address', 'city']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) return inserted.id
  const existing = await trx
    .selectFrom('stores')
    .select('id')
    .where('name', '=', input.name)
    .where('address', '=', input.address)
    .where('city', '=', input.city)
    .executeTakeFirstOrThrow()
  return existing.id
}

import type { Kysely } from 'kysely'
import type { Database } from './schema'

export const TRANSPORTATION_SERVICES: { name: string; category: string }[] = [
  { name: 'Uber', category: 'ride_share' },
  { name: 'Lyft', category: 'ride_share' },
  { name: 'Waymo', category: 'ride_share' },
  { name: 'Via', category: 'ride_share' },
  { name: 'Curb', category: 'ride_share' },
  { name: 'Bolt', category: 'ride_share' },
  { name: 'MTA / OMNY', category: 'public_transit' },
  { name: 'BART / Clipper', category: 'public_transit' },
  { name: 'CTA / Ventra', category: 'public_transit' },
  { name: 'TriMet', category: 'public_transit' },
  { name: 'WMATA / SmarTrip', category: 'public_transit' },
  { name: 'Amtrak', category: 'public_transit' },
  { name: 'Valley Metro', category: 'public_transit' },
  { name: 'Other Public Transit', category: 'public_transit' },
  { name: 'Tesla', category: 'electric_vehicle' },
  { name: 'Hertz', category: 'electric_vehicle' },
  { name: 'Enterprise', category: 'electric_vehicle' },
  { name: 'Zipcar', category: 'electric_vehicle' },
  { name: 'Turo', category: 'electric_vehicle' },
  { name: 'Lime', category: 'scooter_bike' },
  { name: 'Bird', category: 'scooter_bike' },
  { name: 'Spin', category: 'scooter_bike' },
  { name: 'Citi Bike', category: 'scooter_bike' },
  { name: 'Divvy', category: 'scooter_bike' },
  { name: 'Bay Wheels', category: 'scooter_bike' },
]

/** Demo directory (is_demo = 1): plausible sustainable stores, not an endorsement of real businesses. */
export const DEMO_STORES: {
  name: string
  address: string
  city: string
  state: string
  latitude: number
  longitude: number
  store_type: string
  verified: number
}[] = [
  { name: 'Desert Threads Thrift', address: '1420 N 7th St', city: 'Phoenix', state: 'AZ', latitude: 33.4628, longitude: -112.0648, store_type: 'clothing', verified: 1 },
  { name: 'Roosevelt Row Repair Café', address: '905 N 5th St', city: 'Phoenix', state: 'AZ', latitude: 33.4582, longitude: -112.0669, store_type: 'other', verified: 1 },
  { name: 'Camelback Second Chapter Books', address: '4302 N Central Ave', city: 'Phoenix', state: 'AZ', latitude: 33.4997, longitude: -112.0738, store_type: 'books', verified: 0 },
  { name: 'Sonoran Refill Station', address: '2025 E Indian School Rd', city: 'Phoenix', state: 'AZ', latitude: 33.4946, longitude: -112.0384, store_type: 'general', verified: 1 },
  { name: 'Mesa Reclaimed Furniture', address: '130 W Main St', city: 'Mesa', state: 'AZ', latitude: 33.4152, longitude: -111.8365, store_type: 'furniture', verified: 0 },
  { name: 'Bowery Second Look', address: '245 Bowery', city: 'New York', state: 'NY', latitude: 40.7222, longitude: -73.9929, store_type: 'clothing', verified: 1 },
  { name: 'Brooklyn Fix-It Collective', address: '88 N 6th St', city: 'Brooklyn', state: 'NY', latitude: 40.7188, longitude: -73.9594, store_type: 'other', verified: 1 },
  { name: 'Harlem Used Books & Records', address: '2150 Frederick Douglass Blvd', city: 'New York', state: 'NY', latitude: 40.8043, longitude: -73.9556, store_type: 'books', verified: 0 },
  { name: 'Chelsea Zero-Waste Pantry', address: '301 W 22nd St', city: 'New York', state: 'NY', latitude: 40.7455, longitude: -73.9989, store_type: 'general', verified: 1 },
  { name: 'Mission Vintage Exchange', address: '2470 Mission St', city: 'San Francisco', state: 'CA', latitude: 37.7577, longitude: -122.4188, store_type: 'clothing', verified: 1 },
  { name: 'Sunset Reuse Furniture', address: '1820 Irving St', city: 'San Francisco', state: 'CA', latitude: 37.7637, longitude: -122.4779, store_type: 'furniture', verified: 0 },
  { name: 'Haight Refill & Repair', address: '1550 Haight St', city: 'San Francisco', state: 'CA', latitude: 37.7699, longitude: -122.4473, store_type: 'general', verified: 1 },
]

/** Idempotent: existing rows (by unique name / name+address) are left alone. */
export async function seed(db: Kysely<Database>, now = new Date()) {
  const created_at = now.toISOString()
  let services = 0
  for (const service of TRANSPORTATION_SERVICES) {
    const r = await db
      .insertInto('transportation_services')
      .values(service)
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst()
    services += Number(r.numInsertedOrUpdatedRows ?? 0)
  }
  let stores = 0
  for (const store of DEMO_STORES) {
    const r = await db
      .insertInto('stores')
      .values({ ...store, is_demo: 1, created_at })
      .onConflict((oc) => oc.columns(['name', 'address', 'city']).doNothing())
      .executeTakeFirst()
    stores += Number(r.numInsertedOrUpdatedRows ?? 0)
  }
  return { services, stores }
}

export async function isEmpty(db: Kysely<Database>) {
  const row = await db.selectFrom('transportation_services').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n) === 0
}

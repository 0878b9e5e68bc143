// The transport categories a receipt can belong to, and their labels. Pure.
import { humanizeKey } from '~/utils/text'

export const TRANSPORT_CATEGORIES = [
  'ride_share',
  'public_transit',
  'electric_vehicle',
  'scooter_bike',
] as const

export type TransportCategory = (typeof TRANSPORT_CATEGORIES)[number]

export const CATEGORY_LABELS: Record<TransportCategory, string> = {
  ride_share: 'Rideshare',
  public_transit: 'Public Transit',
  electric_vehicle: 'Electric Vehicle',
  scooter_bike: 'E-Scooter / Bike',
}

export function isTransportCategory(value: unknown): value is TransportCategory {
  return typeof value === 'string' && (TRANSPORT_CATEGORIES as readonly string[]).includes(value)
}

/** What people read for a stored category: its label, else the words of an unknown key ('—' for none). */
export function categoryLabel(category: string | null | undefined): string {
  if (!category) return '—'
  return isTransportCategory(category) ? CATEGORY_LABELS[category] : humanizeKey(category)
}

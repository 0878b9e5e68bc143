/**
 * Pure: the review queue's receipts from wallets without standing, grouped by what ties wallets
 * together (issues 31 and 38). Staff then approve or reject a group at once, as fraud too, so only
 * strong links join a group. Receipts of one wallet are always in one group; two wallets join when:
 *   - they share a browser install (hashed first-party id);
 *   - one invited the other, or one wallet invited both (a chain joins link by link; the referrer
 *     need not have anything waiting, and is named);
 *   - they sent the same vendor, total and date, with a trip number missing on either or two
 *     different numbers (two equal numbers are the same receipt, which the duplicate checks hold).
 * The same client address (hashed) within 24 hours is weak: a campus or a carrier puts honest
 * riders behind one. Such wallets stay in their own groups and are listed beside each other
 * (addressTies), for staff to decide one by one.
 * Established wallets are never grouped: a shared address holds nothing back.
 */
export type GroupableReceipt = {
  id: number
  userId: number
  referredByUserId: number | null
  installHash: string | null
  addressHash: string | null
  createdAt: string
  storeName: string | null
  amountCents: number | null
  purchaseDate: string | null
  referenceNumber: string | null
}

export type LinkKind = 'install' | 'referral' | 'same_referrer' | 'same_trip'

export const LINK_LABELS: Record<LinkKind, string> = {
  install: 'Same browser install',
  referral: 'Invited one another',
  same_referrer: 'Invited by the same wallet',
  same_trip: 'The same vendor, total and date from several wallets',
}

export const ADDRESS_TIE_LABEL = 'Same address within 24 hours'

export type ReviewGroup = {
  key: string
  receiptIds: number[]
  userIds: number[]
  links: LinkKind[]
  /** Who invited the group's wallets (waiting or not). */
  referrerIds: number[]
  /** Wallets of other groups seen from one of this group's addresses within 24 hours: decided one by one. */
  addressTies: number[]
}

const DAY_MS = 24 * 60 * 60 * 1000

export function groupReceipts(receipts: GroupableReceipt[]): ReviewGroup[] {
  const parent = new Map<number, number>()
  const find = (u: number): number => {
    let root = u
    while (parent.get(root) !== root) root = parent.get(root)!
    parent.set(u, root)
    return root
  }
  const links = new Map<string, LinkKind>()
  const union = (a: number, b: number, kind: LinkKind) => {
    if (a === b) return
    links.set(`${Math.min(a, b)}:${Math.max(a, b)}:${kind}`, kind)
    const ra = find(a)
    const rb = find(b)
    if (ra !== rb) parent.set(ra, rb)
  }
  for (const r of receipts) parent.set(r.userId, r.userId)

  const byKey = (key: (r: GroupableReceipt) => string | null) => {
    const out = new Map<string, GroupableReceipt[]>()
    for (const r of receipts) {
      const k = key(r)
      if (k === null) continue
      const list = out.get(k)
      if (list) list.push(r)
      else out.set(k, [r])
    }
    return out.values()
  }
  for (const same of byKey((r) => r.installHash)) for (const r of same) union(same[0]!.userId, r.userId, 'install')
  for (const r of receipts) if (r.referredByUserId !== null && parent.has(r.referredByUserId)) union(r.userId, r.referredByUserId, 'referral')
  for (const invitees of byKey((r) => (r.referredByUserId === null ? null : String(r.referredByUserId)))) {
    for (const r of invitees) union(invitees[0]!.userId, r.userId, 'same_referrer')
  }
  for (const same of byKey((r) => (r.storeName && r.amountCents !== null && r.purchaseDate ? `${r.storeName}|${r.amountCents}|${r.purchaseDate}` : null))) {
    for (const a of same) for (const b of same) if (!(a.referenceNumber && a.referenceNumber === b.referenceNumber)) union(a.userId, b.userId, 'same_trip')
  }
  // Weak: recorded, never joined.
  const addressTies: Array<[number, number]> = []
  for (const same of byKey((r) => r.addressHash)) {
    const sorted = [...same].sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && Date.parse(sorted[j]!.createdAt) - Date.parse(sorted[i]!.createdAt) <= DAY_MS; j++) {
        if (sorted[i]!.userId !== sorted[j]!.userId) addressTies.push([sorted[i]!.userId, sorted[j]!.userId])
      }
    }
  }

  const groups = new Map<number, ReviewGroup>()
  for (const r of receipts) {
    const root = find(r.userId)
    const g = groups.get(root) ?? { key: '', receiptIds: [], userIds: [], links: [], referrerIds: [], addressTies: [] }
    g.receiptIds.push(r.id)
    if (!g.userIds.includes(r.userId)) g.userIds.push(r.userId)
    if (r.referredByUserId !== null && !g.referrerIds.includes(r.referredByUserId)) g.referrerIds.push(r.referredByUserId)
    groups.set(root, g)
  }
  for (const [a, b] of addressTies) {
    if (find(a) === find(b)) continue
    const ga = groups.get(find(a))!
    const gb = groups.get(find(b))!
    if (!ga.addressTies.includes(b)) ga.addressTies.push(b)
    if (!gb.addressTies.includes(a)) gb.addressTies.push(a)
  }
  for (const [key, kind] of links) {
    const g = groups.get(find(Number(key.split(':')[0])))!
    if (!g.links.includes(kind)) g.links.push(kind)
  }
  // Largest first: a farm is the first thing staff see.
  return [...groups.values()]
    .map((g) => ({
      ...g,
      key: `wallets-${[...g.userIds].sort((a, b) => a - b).join('-')}`,
      receiptIds: g.receiptIds.sort((a, b) => a - b),
      referrerIds: g.referrerIds.sort((a, b) => a - b),
      addressTies: g.addressTies.sort((a, b) => a - b),
    }))
    .sort((a, b) => b.userIds.length - a.userIds.length || b.receiptIds.length - a.receiptIds.length || a.receiptIds[0]! - b.receiptIds[0]!)
}

/**
 * Pure: the review queue's receipts from wallets without standing, grouped by what ties wallets
 * together (issue 31). Staff then approve or reject a group at once. Receipts of one wallet are
 * always in one group; two wallets join when any link holds:
 *   - the same browser install (hashed first-party id);
 *   - the same client address (hashed) within 24 hours;
 *   - one invited the other (a chain of referrals joins link by link);
 *   - receipts with the same vendor, total and date under different trip numbers.
 * Established wallets are never grouped: a shared address (a campus, a carrier) holds nothing back.
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

export type LinkKind = 'install' | 'address' | 'referral' | 'same_trip'

export const LINK_LABELS: Record<LinkKind, string> = {
  install: 'Same browser install',
  address: 'Same address within 24 hours',
  referral: 'Invited one another',
  same_trip: 'Same vendor, total and date under different trip numbers',
}

export type ReviewGroup = { key: string; receiptIds: number[]; userIds: number[]; links: LinkKind[] }

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
      if (k !== null) out.set(k, [...(out.get(k) ?? []), r])
    }
    return out.values()
  }
  for (const same of byKey((r) => r.installHash)) for (const r of same) union(same[0]!.userId, r.userId, 'install')
  for (const same of byKey((r) => r.addressHash)) {
    const sorted = [...same].sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && Date.parse(sorted[j]!.createdAt) - Date.parse(sorted[i]!.createdAt) <= DAY_MS; j++) {
        union(sorted[i]!.userId, sorted[j]!.userId, 'address')
      }
    }
  }
  for (const r of receipts) if (r.referredByUserId !== null && parent.has(r.referredByUserId)) union(r.userId, r.referredByUserId, 'referral')
  for (const same of byKey((r) => (r.storeName && r.amountCents !== null && r.purchaseDate ? `${r.storeName}|${r.amountCents}|${r.purchaseDate}` : null))) {
    for (const a of same) for (const b of same) if (a.referenceNumber !== b.referenceNumber) union(a.userId, b.userId, 'same_trip')
  }

  const groups = new Map<number, ReviewGroup>()
  for (const r of receipts) {
    const root = find(r.userId)
    const g = groups.get(root) ?? { key: '', receiptIds: [], userIds: [], links: [] }
    g.receiptIds.push(r.id)
    if (!g.userIds.includes(r.userId)) g.userIds.push(r.userId)
    groups.set(root, g)
  }
  for (const [key, kind] of links) {
    const g = groups.get(find(Number(key.split(':')[0])))!
    if (!g.links.includes(kind)) g.links.push(kind)
  }
  // Largest first: a farm is the first thing staff see.
  return [...groups.values()]
    .map((g) => ({ ...g, key: `wallets-${[...g.userIds].sort((a, b) => a - b).join('-')}`, receiptIds: g.receiptIds.sort((a, b) => a - b) }))
    .sort((a, b) => b.userIds.length - a.userIds.length || b.receiptIds.length - a.receiptIds.length || a.receiptIds[0]! - b.receiptIds[0]!)
}

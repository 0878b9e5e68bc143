import type { SerializeFrom } from '@remix-run/node'
import { listAudits } from '~/receipts/audits.server'
import { ADDRESS_TIE_LABEL, LINK_LABELS } from '~/receipts/review-groups'
import { listReviewRows, passportSeenBy, reviewQueueWithStanding } from '~/receipts/review.server'
import { describeSignals, parseSignals } from '~/receipts/signals'
import { STANDING_LABELS, type Standing } from '~/receipts/standing'
import { getStandings } from '~/receipts/standing.server'
import type { ReaderName } from '~/analysis/stored-analysis'
import { categoryLabel } from '~/analysis/categories'
import { formatClaimableAt } from '~/rewards/maturing'
import { getDb } from '~/utils/db.server'

const READER_LABELS: Record<ReaderName, string> = { tesseract: 'Tesseract', paddleocr: 'PaddleOCR', email: 'the signed e-mail' }

/** Audits listed per page (issue 38). */
export const AUDIT_PAGE_SIZE = 20

type Row = Awaited<ReturnType<typeof listReviewRows>>[number] & { standing: Standing }

function toItem(r: Row) {
  const analysis = r.analysis
  return {
    id: r.id,
    wallet: r.wallet_address,
    createdAt: r.created_at,
    standing: r.standing,
    standingLabel: STANDING_LABELS[r.standing.reason],
    read: { storeName: r.store_name, category: categoryLabel(r.category), amountCents: r.amount_cents, purchaseDate: r.purchase_date, confidence: analysis.confidence ?? 0 },
    /** The receipt's ISO 4217 currency: both amounts are shown in it, never converted. */
    currency: analysis.currency ?? null,
    entered: { storeName: r.user_service_name, category: categoryLabel(r.user_category), amountCents: r.user_amount_cents, purchaseDate: r.user_purchase_date },
    reasons: r.reasons,
    signals: describeSignals(parseSignals(r.review_signals_json), r.reference_number),
    ocrText: analysis.ocrText ?? '',
    // Analyses stored before issue 13 were all read by tesseract.
    reader: analysis.inlineForward ? 'the text of an inline forward' : READER_LABELS[analysis.reader ?? 'tesseract'],
    otherReading: analysis.otherReading ? { reader: READER_LABELS[analysis.otherReading.reader], ocrText: analysis.otherReading.ocrText } : null,
    verifiedSender: r.verified_sender,
    // Issue 39: the quoted text of a phone's forward, its sender unverified; no picture to show.
    inlineForward: analysis.inlineForward === true,
    email: analysis.ereceipt ? { subject: analysis.ereceipt.subject, from: analysis.ereceipt.from, expired: analysis.ereceipt.signatureExpired } : null,
  }
}

/** A 1-based page number from the query string; anything else is page 1. */
export function pageParam(value: string | null): number {
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 1 ? n : 1
}

/** The review page: the waiting receipts (counted, one page of them) with the new wallets' groups, and the audits. */
export async function reviewPageData(opts: { page: number; auditPage: number }) {
  const db = getDb()
  const [q, audits] = await Promise.all([reviewQueueWithStanding(db, { page: opts.page }), auditData(opts.auditPage)])
  const wallet = (id: number) => ({ userId: id, wallet: q.wallets.get(id) ?? '' })
  return {
    total: q.total,
    page: q.page,
    pageCount: q.pageCount,
    queue: q.rows.map(toItem),
    /** Receipts of wallets without standing, grouped (issues 31, 38); the rest are reviewed one by one. */
    newWallets: q.groups.map((g) => ({
      key: g.key,
      receiptIds: g.receiptIds,
      wallets: g.userIds.map((id) => q.wallets.get(id) ?? ''),
      links: g.links.map((kind) => LINK_LABELS[kind]),
      referrers: g.referrerIds.map(wallet),
      addressTies: g.addressTies.map(wallet),
      addressTieLabel: ADDRESS_TIE_LABEL,
    })),
    audits,
  }
}

/** Automatic photo approvals sampled for staff, and photos held for a verified e-receipt (issue 38). */
async function auditData(requestedPage: number) {
  const db = getDb()
  let { total, rows } = await listAudits(db, { offset: (requestedPage - 1) * AUDIT_PAGE_SIZE, limit: AUDIT_PAGE_SIZE })
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE))
  const page = Math.min(requestedPage, pages)
  // Past the last page (the list shrank meanwhile): the last page.
  if (page !== requestedPage) ({ total, rows } = await listAudits(db, { offset: (page - 1) * AUDIT_PAGE_SIZE, limit: AUDIT_PAGE_SIZE }))
  const details = new Map((await listReviewRows(db, rows.map((r) => r.id))).map((r) => [r.id, r]))
  const standings = await getStandings(db, rows.map((r) => ({ userId: r.user_id, passport: passportSeenBy(details.get(r.id)?.review_signals_json ?? null) })))
  const now = new Date().toISOString()
  const items = rows.flatMap((a) => {
    const row = details.get(a.id)
    if (!row) return []
    const claimableAt = typeof a.claimable_at === 'string' ? a.claimable_at : null
    return [
      {
        ...toItem({ ...row, standing: standings.get(a.user_id)! }),
        auditReason: a.audit_reason ?? '',
        held: a.status === 'rejected',
        maturing: claimableAt
          ? claimableAt > now
            ? `Maturing: claimable from ${formatClaimableAt(claimableAt)}. Rejecting it as fraud before then takes back every maturing photo credit of the wallet.`
            : `Matured ${formatClaimableAt(claimableAt)}: rejecting it as fraud takes back only what the wallet has not claimed.`
          : null,
      },
    ]
  })
  return { total, page, pageCount: pages, items }
}

export type ReviewPageData = SerializeFrom<typeof reviewPageData>
export type ReviewItem = ReviewPageData['queue'][number]
export type ReviewGroupView = ReviewPageData['newWallets'][number]
export type AuditItem = ReviewPageData['audits']['items'][number]

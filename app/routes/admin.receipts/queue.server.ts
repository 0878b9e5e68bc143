import type { SerializeFrom } from '@remix-run/node'
import { LINK_LABELS } from '~/receipts/review-groups'
import { reviewQueueWithStanding } from '~/receipts/review.server'
import { describeSignals, parseSignals } from '~/receipts/signals'
import { STANDING_LABELS } from '~/receipts/standing'
import type { ReaderName } from '~/analysis/stored-analysis'
import { categoryLabel } from '~/analysis/categories'
import { getDb } from '~/utils/db.server'

const READER_LABELS: Record<ReaderName, string> = { tesseract: 'Tesseract', paddleocr: 'PaddleOCR', email: 'the signed e-mail' }

/** The review page: every waiting receipt with its wallet's standing, and the new wallets' groups. */
export async function reviewPageData() {
  const { rows, groups } = await reviewQueueWithStanding(getDb())
  const queue = rows.map((r) => {
    const analysis = r.analysis
    return {
      id: r.id,
      wallet: r.wallet_address,
      createdAt: r.created_at,
      standing: r.standing,
      standingLabel: STANDING_LABELS[r.standing.reason],
      read: { storeName: r.store_name, category: categoryLabel(r.category), amountCents: r.amount_cents, purchaseDate: r.purchase_date, confidence: analysis.confidence ?? 0 },
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
  })
  const walletOf = new Map(rows.map((r) => [r.user_id, r.wallet_address]))
  return {
    queue,
    /** Receipts of wallets without standing, grouped (issue 31); the rest are reviewed one by one. */
    newWallets: groups.map((g) => ({
      key: g.key,
      receiptIds: g.receiptIds,
      wallets: g.userIds.map((id) => walletOf.get(id)!),
      links: g.links.map((kind) => LINK_LABELS[kind]),
    })),
  }
}

export type ReviewPageData = SerializeFrom<typeof reviewPageData>
export type ReviewItem = ReviewPageData['queue'][number]
export type ReviewGroupView = ReviewPageData['newWallets'][number]

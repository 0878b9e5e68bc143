import { RECEIPT_STATUS_LABELS, type ReceiptStatusName } from '~/receipts/status'

/** The receipt's status chip: Verified, In review or Rejected, the same words on every screen. */
export function ReceiptStatusChip({ status }: { status: ReceiptStatusName }) {
  const tone = status === 'approved' ? 'approved' : status === 'pending_review' ? 'pending' : 'rejected'
  return (
    <span className={`status-chip ${tone}`} data-testid="receipt-status">
      {RECEIPT_STATUS_LABELS[status]}
    </span>
  )
}

import { Form, useNavigation } from '@remix-run/react'
import { shortAddress } from '~/chain/networks'
import { VerifiedSender } from '~/components/ereceipt'
import { formatCents as money } from '~/utils/money-format'
import type { ReviewItem } from './queue.server'

/** One waiting receipt: what was read and entered, why it waits, its wallet's standing, and the decision. */
export function ReceiptCard({ r }: { r: ReviewItem }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('receiptId') === String(r.id)
  return (
    <article className="card stack queue-card" aria-labelledby={`receipt-${r.id}`}>
      <div className="row between">
        <h2 id={`receipt-${r.id}`} style={{ margin: 0 }}>
          Receipt #{r.id}
        </h2>
        <span className="small muted">{shortAddress(r.wallet)}</span>
      </div>
      <p className={`small standing ${r.standing.established ? 'established' : 'new'}`} data-testid="review-standing">
        {r.standingLabel}
      </p>
      {r.verifiedSender ? (
        <div className="stack" style={{ gap: '0.25rem' }} data-testid="review-ereceipt">
          <VerifiedSender domain={r.verifiedSender} />
          <p className="small muted" style={{ margin: 0 }}>
            From {r.email?.from ?? '—'}: &ldquo;{r.email?.subject ?? 'no subject'}&rdquo;
            {r.email?.expired ? ' (the signature had expired; its cryptography verified)' : ''}
          </p>
        </div>
      ) : r.inlineForward ? (
        <p className="small" style={{ margin: 0 }} data-testid="review-inline-forward">
          Forwarded inline: its sender could not be verified. Judge it like a photo; the quoted text is below.
        </p>
      ) : (
        <img src={`/admin/receipts/${r.id}/image`} alt={`Receipt #${r.id}`} loading="lazy" />
      )}
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Read by analysis</th>
            <th scope="col">Entered by user</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Vendor</th>
            <td>{r.read.storeName ?? '—'}</td>
            <td>{r.entered.storeName ?? '—'}</td>
          </tr>
          <tr>
            <th scope="row">Category</th>
            <td>{r.read.category}</td>
            <td>{r.entered.category}</td>
          </tr>
          <tr>
            <th scope="row">Total</th>
            <td>{money(r.read.amountCents, r.currency)}</td>
            <td>{money(r.entered.amountCents, r.currency)}</td>
          </tr>
          <tr>
            <th scope="row">Date</th>
            <td>{r.read.purchaseDate ?? '—'}</td>
            <td>{r.entered.purchaseDate ?? '—'}</td>
          </tr>
        </tbody>
      </table>
      <p className="small">Confidence {Math.round(r.read.confidence * 100)}%</p>
      {r.reasons.length ? (
        <ul className="review-list small">
          {r.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
      {r.signals.length ? (
        <div className="small" data-testid="review-signals">
          <strong>Signals</strong>
          <ul className="review-list">
            {r.signals.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="small muted" data-testid="review-reader">
        Read by {r.reader}
        {r.otherReading ? ` (also read by ${r.otherReading.reader})` : ''}
      </p>
      {r.ocrText ? (
        <details open={!!r.verifiedSender || r.inlineForward}>
          <summary>Text read by {r.reader}</summary>
          <pre style={{ whiteSpace: 'pre-wrap', fontSize: '0.8rem' }}>{r.ocrText}</pre>
        </details>
      ) : null}
      {r.otherReading ? (
        <details>
          <summary>Text read by {r.otherReading.reader}</summary>
          <pre style={{ whiteSpace: 'pre-wrap', fontSize: '0.8rem' }}>{r.otherReading.ocrText}</pre>
        </details>
      ) : null}
      <Form method="post">
        <input type="hidden" name="receiptId" value={r.id} />
        <button type="submit" name="intent" value="approve" className="btn block" disabled={busy}>
          Approve
        </button>
      </Form>
      <Form method="post" className="stack" style={{ gap: '0.5rem' }}>
        <input type="hidden" name="receiptId" value={r.id} />
        <label htmlFor={`reason-${r.id}`} className="label">
          Reason for rejecting
        </label>
        <input id={`reason-${r.id}`} name="reason" className="input" required minLength={3} maxLength={300} placeholder="e.g. The total is not readable" />
        <label className="small row" style={{ gap: '0.4rem', alignItems: 'center' }}>
          <input type="checkbox" name="fraud" value="on" /> Rejected as fraud: the wallet loses its standing
        </label>
        <label className="small row" style={{ gap: '0.4rem', alignItems: 'center' }}>
          <input type="checkbox" name="signal" value="on" /> Confirmed fraud: also signal this wallet on VeBetter Passport
        </label>
        <button type="submit" name="intent" value="reject" className="btn danger block" disabled={busy}>
          Reject
        </button>
      </Form>
    </article>
  )
}

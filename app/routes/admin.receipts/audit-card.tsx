import { Form, useNavigation } from '@remix-run/react'
import { shortAddress } from '~/chain/networks'
import { formatCents as money } from '~/utils/money-format'
import type { AuditItem } from './queue.server'

/**
 * One audited automatic photo approval (issue 38): why it is here, when its credit matures, and
 * the two decisions. Rejecting it as fraud takes back the wallet's maturing photo credits.
 */
export function AuditCard({ a }: { a: AuditItem }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('receiptId') === String(a.id)
  return (
    <article className="card stack queue-card" aria-labelledby={`audit-${a.id}`} data-testid="audit-item">
      <div className="row between">
        <h3 id={`audit-${a.id}`} style={{ margin: 0 }}>
          Receipt #{a.id}
          {a.held ? ' (credit held)' : ''}
        </h3>
        <span className="small muted">{shortAddress(a.wallet)}</span>
      </div>
      <p className="small" style={{ margin: 0 }} data-testid="audit-reason">
        {a.auditReason}
      </p>
      {a.maturing ? (
        <p className="small muted" style={{ margin: 0 }} data-testid="audit-maturing">
          {a.maturing}
        </p>
      ) : null}
      <p className={`small standing ${a.standing.established ? 'established' : 'new'}`} style={{ margin: 0 }}>
        {a.standingLabel}
      </p>
      <img src={`/admin/receipts/${a.id}/image`} alt={`Receipt #${a.id}`} loading="lazy" />
      <p className="small" style={{ margin: 0 }}>
        Read: {a.read.storeName ?? '—'} · {money(a.read.amountCents, a.currency)} · {a.read.purchaseDate ?? '—'} · confidence {Math.round(a.read.confidence * 100)}%
      </p>
      {a.signals.length ? (
        <ul className="review-list small">
          {a.signals.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      <Form method="post">
        <input type="hidden" name="receiptId" value={a.id} />
        <button type="submit" name="intent" value="audit-clear" className="btn secondary block" disabled={busy}>
          Looks right
        </button>
      </Form>
      <Form method="post" className="stack" style={{ gap: '0.5rem' }}>
        <input type="hidden" name="receiptId" value={a.id} />
        <label htmlFor={`audit-reason-${a.id}`} className="label">
          Reason for rejecting as fraud
        </label>
        <input id={`audit-reason-${a.id}`} name="reason" className="input" required minLength={3} maxLength={300} placeholder="e.g. Drawn receipt" />
        <label className="small row" style={{ gap: '0.4rem', alignItems: 'center' }}>
          <input type="checkbox" name="signal" value="on" /> Also signal this wallet on VeBetter Passport
        </label>
        <button type="submit" name="intent" value="audit-reject" className="btn danger block" disabled={busy}>
          Reject as fraud
        </button>
      </Form>
    </article>
  )
}

import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { requireAdmin } from '~/auth/auth.server'
import { describeSignals, parseSignals } from '~/receipts/signals'
import { categoryLabel } from '~/rewards/rules'
import { shortAddress } from '~/chain/networks'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { approveReceipt, listReviewQueue, rejectReceipt } from '~/receipts/receipts.server'
import type { ReaderName } from '~/receipts/types'
import { getDb } from '~/utils/db.server'
import { toastCookie } from '~/utils/toast.server'
import styles from '~/styles/scan.css'
import { readFormData } from '~/utils/form.server'
import { rowIdSchema } from '~/utils/ids'

const READER_LABELS: Record<ReaderName, string> = { tesseract: 'Tesseract', paddleocr: 'PaddleOCR', email: 'the signed e-mail' }

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]

export const meta: MetaFunction = () => [{ title: 'Receipt Review · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const rows = await listReviewQueue(getDb())
  return json({
    queue: rows.map((r) => {
      const analysis = JSON.parse(r.analysis_json) as {
        confidence?: number
        reasons?: string[]
        ocrText?: string
        reader?: ReaderName
        otherReading?: { reader: ReaderName; ocrText: string } | null
      }
      return {
        id: r.id,
        wallet: r.wallet_address,
        createdAt: r.created_at,
        read: { storeName: r.store_name, category: categoryLabel(r.category), amountCents: r.amount_cents, purchaseDate: r.purchase_date, confidence: analysis.confidence ?? 0 },
        entered: { storeName: r.user_service_name, category: categoryLabel(r.user_category), amountCents: r.user_amount_cents, purchaseDate: r.user_purchase_date },
        reasons: r.review_reasons_json ? (JSON.parse(r.review_reasons_json) as string[]) : [],
        signals: describeSignals(parseSignals(r.review_signals_json), r.reference_number),
        ocrText: analysis.ocrText ?? '',
        // Analyses stored before issue 13 were all read by tesseract.
        reader: READER_LABELS[analysis.reader ?? 'tesseract'],
        otherReading: analysis.otherReading ? { reader: READER_LABELS[analysis.otherReading.reader], ocrText: analysis.otherReading.ocrText } : null,
      }
    }),
  })
}

const decisionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('approve'), receiptId: rowIdSchema }),
  z.object({
    intent: z.literal('reject'),
    receiptId: rowIdSchema,
    reason: z.string().trim().min(3, 'Give the user a reason (at least 3 characters)').max(300),
  }),
])

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  const parsed = decisionSchema.safeParse(Object.fromEntries(await readFormData(request)))
  if (!parsed.success) return json({ error: parsed.error.issues[0]?.message ?? 'Invalid decision' }, { status: 400 })
  const input = parsed.data
  const result =
    input.intent === 'approve'
      ? await approveReceipt(getDb(), { adminUserId: admin.id, receiptId: input.receiptId })
      : await rejectReceipt(getDb(), { adminUserId: admin.id, receiptId: input.receiptId, reason: input.reason })
  if (!result.ok) return json({ error: result.error }, { status: result.status })
  return redirect('/admin/receipts', {
    headers: {
      'Set-Cookie': await toastCookie(request, {
        title: input.intent === 'approve' ? 'Receipt approved' : 'Receipt rejected',
        description: input.intent === 'approve' ? 'The reward has been credited.' : 'The user will see your reason.',
        variant: 'success',
      }),
    },
  })
}

function money(cents: number | null) {
  return cents === null ? '—' : `$${(cents / 100).toFixed(2)}`
}

export default function AdminReceipts() {
  const { queue } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  return (
    <div className="stack">
      <h1>Receipt Review</h1>
      <AdminNav />
      <p className="muted">Receipts the analysis could not approve on its own. Approving credits the reward once.</p>
      {actionData && 'error' in actionData ? (
        <div className="alert" role="alert">
          {actionData.error}
        </div>
      ) : null}
      {queue.length === 0 ? (
        <div className="card center">
          <h2>All Receipts Reviewed</h2>
          <p className="muted">New receipts that need a human check will appear here.</p>
        </div>
      ) : (
        queue.map((r) => {
          const busy = navigation.state !== 'idle' && navigation.formData?.get('receiptId') === String(r.id)
          return (
            <article key={r.id} className="card stack queue-card" aria-labelledby={`receipt-${r.id}`}>
              <div className="row between">
                <h2 id={`receipt-${r.id}`} style={{ margin: 0 }}>
                  Receipt #{r.id}
                </h2>
                <span className="small muted">{shortAddress(r.wallet)}</span>
              </div>
              <img src={`/admin/receipts/${r.id}/image`} alt={`Receipt #${r.id}`} loading="lazy" />
              <table className="simple">
                <thead>
                  <tr>
                    <th scope="col" />
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
                    <td>{money(r.read.amountCents)}</td>
                    <td>{money(r.entered.amountCents)}</td>
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
                <details>
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
                <button type="submit" name="intent" value="reject" className="btn danger block" disabled={busy}>
                  Reject
                </button>
              </Form>
            </article>
          )
        })
      )}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

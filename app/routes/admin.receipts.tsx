import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { requireAdmin } from '~/auth/auth.server'
import { describeSignals, parseSignals } from '~/receipts/signals'
import { categoryLabel } from '~/rewards/rules'
import { shortAddress } from '~/chain/networks'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { approveReceipt, listReviewQueue, rejectReceipt } from '~/receipts/review.server'
import type { ReaderName } from '~/receipts/stored-analysis'
import { getDb } from '~/utils/db.server'
import { toastCookie } from '~/utils/toast.server'
import styles from '~/styles/scan.css'
import { readFormData } from '~/utils/form.server'
import { rowIdSchema } from '~/utils/ids'
import { VerifiedSender } from '~/components/ereceipt'
import { rebindMailbox } from '~/receipts/email-keys.server'
import { mailboxHash } from '~/ereceipts/read.server'
import { getUserByWallet } from '~/users/users.server'
import { signalReceiptOwner } from '~/receipts/review.server'

const READER_LABELS: Record<ReaderName, string> = { tesseract: 'Tesseract', paddleocr: 'PaddleOCR', email: 'the signed e-mail' }

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]

export const meta: MetaFunction = () => [{ title: 'Receipt Review · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const rows = await listReviewQueue(getDb())
  return json({
    queue: rows.map((r) => {
      const analysis = r.analysis
      return {
        id: r.id,
        wallet: r.wallet_address,
        createdAt: r.created_at,
        read: { storeName: r.store_name, category: categoryLabel(r.category), amountCents: r.amount_cents, purchaseDate: r.purchase_date, confidence: analysis.confidence ?? 0 },
        entered: { storeName: r.user_service_name, category: categoryLabel(r.user_category), amountCents: r.user_amount_cents, purchaseDate: r.user_purchase_date },
        reasons: r.reasons,
        signals: describeSignals(parseSignals(r.review_signals_json), r.reference_number),
        ocrText: analysis.ocrText ?? '',
        // Analyses stored before issue 13 were all read by tesseract.
        reader: READER_LABELS[analysis.reader ?? 'tesseract'],
        otherReading: analysis.otherReading ? { reader: READER_LABELS[analysis.otherReading.reader], ocrText: analysis.otherReading.ocrText } : null,
        verifiedSender: r.verified_sender,
        email: analysis.ereceipt ? { subject: analysis.ereceipt.subject, from: analysis.ereceipt.from, expired: analysis.ereceipt.signatureExpired } : null,
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
    // Issue 22: staff confirm fraud, and the wallet is signalled on VeBetter Passport.
    signal: z.literal('on').optional(),
  }),
  // Issue 21: move the mailbox e-receipts were sent to onto another wallet (the rider asked support).
  z.object({
    intent: z.literal('rebind'),
    mailbox: z.string().trim().email('Enter the e-mail address the receipts were sent to').max(254),
    wallet: z.string().trim().regex(/^0x[0-9a-fA-F]{40}$/, 'Enter a wallet address (0x…)'),
  }),
])

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  const parsed = decisionSchema.safeParse(Object.fromEntries(await readFormData(request)))
  if (!parsed.success) return json({ error: parsed.error.issues[0]?.message ?? 'Invalid decision' }, { status: 400 })
  const input = parsed.data
  if (input.intent === 'rebind') {
    const user = await getUserByWallet(getDb(), input.wallet.toLowerCase())
    if (!user) return json({ error: 'No ReCircle user has this wallet address.' }, { status: 404 })
    const moved = await rebindMailbox(getDb(), { adminUserId: admin.id, addressHash: mailboxHash(input.mailbox), toUserId: user.id })
    if (!moved.ok) return json({ error: moved.error }, { status: 404 })
    return redirect('/admin/receipts', {
      headers: { 'Set-Cookie': await toastCookie(request, { title: 'Mailbox moved', description: 'Its e-receipts now pay this wallet.', variant: 'success' }) },
    })
  }
  const result =
    input.intent === 'approve'
      ? await approveReceipt(getDb(), { adminUserId: admin.id, receiptId: input.receiptId })
      : await rejectReceipt(getDb(), { adminUserId: admin.id, receiptId: input.receiptId, reason: input.reason })
  if (!result.ok) return json({ error: result.error }, { status: result.status })
  let signalled: string | null = null
  if (input.intent === 'reject' && input.signal === 'on') {
    const signal = await signalReceiptOwner(getDb(), { adminUserId: admin.id, receiptId: input.receiptId, reason: input.reason })
    if (!signal.ok) return json({ error: `Receipt rejected. The wallet was not signalled: ${signal.message}` }, { status: 409 })
    signalled = signal.txId
  }
  return redirect('/admin/receipts', {
    headers: {
      'Set-Cookie': await toastCookie(request, {
        title: input.intent === 'approve' ? 'Receipt approved' : 'Receipt rejected',
        description:
          input.intent === 'approve'
            ? 'The reward has been credited.'
            : signalled
              ? `The user will see your reason. The wallet was signalled on VeBetter Passport (transaction ${signalled.slice(0, 10)}…).`
              : 'The user will see your reason.',
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
              {r.verifiedSender ? (
                <div className="stack" style={{ gap: '0.25rem' }} data-testid="review-ereceipt">
                  <VerifiedSender domain={r.verifiedSender} />
                  <p className="small muted" style={{ margin: 0 }}>
                    From {r.email?.from ?? '—'}: &ldquo;{r.email?.subject ?? 'no subject'}&rdquo;
                    {r.email?.expired ? ' (the signature had expired; its cryptography verified)' : ''}
                  </p>
                </div>
              ) : (
                <img src={`/admin/receipts/${r.id}/image`} alt={`Receipt #${r.id}`} loading="lazy" />
              )}
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
                <details open={!!r.verifiedSender}>
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
                  <input type="checkbox" name="signal" value="on" /> Confirmed fraud: signal this wallet on VeBetter Passport
                </label>
                <button type="submit" name="intent" value="reject" className="btn danger block" disabled={busy}>
                  Reject
                </button>
              </Form>
            </article>
          )
        })
      )}
      <section className="card stack" aria-labelledby="rebind-title">
        <h2 id="rebind-title" style={{ margin: 0 }}>
          Move an e-receipt mailbox
        </h2>
        <p className="small muted" style={{ margin: 0 }}>
          E-receipts sent to one mailbox pay the first wallet that claimed one. When a rider moves to a new wallet, enter the address
          their receipts are sent to and the new wallet.
        </p>
        <Form method="post" className="stack" style={{ gap: '0.5rem' }}>
          <label htmlFor="rebind-mailbox" className="label">
            Receipt mailbox
          </label>
          <input id="rebind-mailbox" name="mailbox" type="email" className="input" required maxLength={254} placeholder="rider@example.com" />
          <label htmlFor="rebind-wallet" className="label">
            New wallet
          </label>
          <input id="rebind-wallet" name="wallet" className="input" required pattern="0x[0-9a-fA-F]{40}" placeholder="0x…" />
          <button type="submit" name="intent" value="rebind" className="btn secondary block">
            Move Mailbox
          </button>
        </Form>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

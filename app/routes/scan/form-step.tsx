import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useEffect } from 'react'
import { RetakeAdvice } from '~/components/capture-preview'
import { VerifiedSender } from '~/components/ereceipt'
import { ErrorList, Field } from '~/components/forms'
import { RewardPreviewCard } from '~/components/reward-preview'
import { showToast } from '~/components/toaster'
import { NEW_WALLET_NOTICE, PASSPORT_EXPLAINED } from '~/receipts/standing'
import { formatB3tr } from '~/rewards/money'
import { formatAmount } from '~/utils/money-format'
import { receiptFormSchema } from '~/receipts/receipt-form'
import { CATEGORY_LABELS, TRANSPORT_CATEGORIES } from '~/analysis/categories'
import { DAILY_LIMIT_MESSAGE } from '~/rewards/daily-limit'
import type { ScanActionData } from './action.server'
import type { ScanPageData } from './loader.server'

// Spec 1 §8's toast description; the reason goes beneath it.
const SUBMIT_FAILED = 'Could not submit receipt. Please try again.'

function matchService(services: ScanPageData['services'], storeName: string | null) {
  if (!storeName) return undefined
  const name = storeName.toLowerCase()
  const found = services.find((s) => s.name.toLowerCase().includes(name) || name.includes(s.name.toLowerCase().split(' ')[0]))
  return found ? String(found.id) : undefined
}

/** Scan's second step: what the server read, the reward it would pay, and the form to submit. */
export function ReceiptFormStep({ data, actionData }: { data: ScanPageData; actionData?: ScanActionData }) {
  const analysis = data.analysis!
  const navigation = useNavigation()
  const submitting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'submit'
  const lastResult = actionData?.step === 'form' ? actionData.reply : undefined
  const [form, fields] = useForm({
    id: `receipt-${analysis.id}`,
    lastResult,
    constraint: getZodConstraint(receiptFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: receiptFormSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    defaultValue: {
      storeId: matchService(data.services, analysis.storeName),
      category: analysis.category ?? undefined,
      // Spec 1 §5: the amount defaults to 0 when no total was read.
      amount: analysis.totalAmount !== null ? analysis.totalAmount.toFixed(2) : '0',
      purchaseDate: analysis.purchaseDate ?? data.today,
    },
  })
  const formError = actionData?.step === 'form' ? actionData.error : undefined
  useEffect(() => {
    if (!formError) return
    const limit = /Daily action limit reached/i.test(formError)
    showToast(
      limit
        ? { title: 'Daily Action Limit Reached', description: DAILY_LIMIT_MESSAGE, variant: 'destructive' }
        : { title: 'Submission Failed', description: SUBMIT_FAILED, detail: formError, variant: 'destructive' },
    )
  }, [formError, actionData])

  if (analysis.refusal) return <RefusedStep analysis={analysis} />
  // Issue 32: a receipt that cannot earn gets no form to fill in, only why and what to do instead.
  if (!analysis.testMode && !analysis.isAcceptable && !analysis.needsManualReview) return <IneligibleStep analysis={analysis} />

  return (
    <section className="card stack" aria-labelledby="form-title">
      <h2 id="form-title" style={{ margin: 0 }}>
        Check the details
      </h2>
      {analysis.hasImage ? <img src={`/scan/image/${analysis.id}`} alt="Your receipt" className="preview" /> : null}
      {analysis.verifiedSender ? <VerifiedSender domain={analysis.verifiedSender} /> : null}
      <dl className="summary-grid" aria-label="What we read">
        <div>
          <dt>Store</dt>
          <dd>{analysis.storeName ?? 'Not found'}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>{analysis.totalAmount !== null ? formatAmount(analysis.totalAmount, analysis.currency) : 'Not found'}</dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd>{analysis.purchaseDate ?? 'Not found'}</dd>
        </div>
        <div>
          <dt>{analysis.verifiedSender ? 'Signature' : 'Confidence'}</dt>
          <dd>{analysis.verifiedSender ? 'Verified' : `${Math.round(analysis.confidence * 100)}%`}</dd>
        </div>
      </dl>
      {analysis.testMode ? (
        <div className="alert warn">Demo receipt: test mode only, it never earns tokens.</div>
      ) : analysis.captureAdvice ? (
        <RetakeAdvice advice={analysis.captureAdvice} />
      ) : analysis.needsManualReview || analysis.waitsForStaff ? (
        <div className="alert info" role="status" data-testid="review-preview">
          <strong>This receipt goes to review, usually within a day.</strong>
          {analysis.waitReasons.length > 0 ? <ul className="review-list">{analysis.waitReasons.map((r) => <li key={r}>{r}</li>)}</ul> : null}
          {analysis.waitReasons.some((r) => r.includes('VeBetter Passport')) ? (
            <p className="small" style={{ margin: '0.25rem 0 0' }}>
              {PASSPORT_EXPLAINED}
            </p>
          ) : null}
          {!analysis.needsManualReview && analysis.waitsForStanding ? <p style={{ margin: '0.25rem 0 0' }}>{NEW_WALLET_NOTICE}</p> : null}
          <p className="small" style={{ margin: '0.25rem 0 0' }} data-testid="approval-promise">
            Once approved it earns {formatB3tr(analysis.rewardPreview.totalMilli)} B3TR
            {analysis.rewardPreview.firstReceiptBonusMilli > 0
              ? ` (including the ${formatB3tr(analysis.rewardPreview.firstReceiptBonusMilli)} B3TR first-receipt bonus).`
              : '.'}
          </p>
        </div>
      ) : (
        <>
          <RewardPreviewCard preview={analysis.rewardPreview} />
          <p className="small muted" style={{ margin: 0 }}>
            Changing the amount or date sends the receipt to review, usually within a day.
          </p>
        </>
      )}
      <Form method="post" className="stack" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="submit" />
        <input type="hidden" name="analysisId" value={analysis.id} />
        <div className="field">
          <label htmlFor={fields.storeId.id}>Transportation Service</label>
          <select className="input" {...getSelectProps(fields.storeId)} aria-invalid={fields.storeId.errors ? true : undefined}>
            <option value="">Select a service</option>
            {data.services.map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.name}
              </option>
            ))}
          </select>
          <ErrorList errors={fields.storeId.errors} />
        </div>
        <Field label="Amount Spent ($)" inputProps={{ ...getInputProps(fields.amount, { type: 'number' }), step: '0.01', min: '0.01', inputMode: 'decimal' }} errors={fields.amount.errors} />
        <Field label="Purchase Date" inputProps={{ ...getInputProps(fields.purchaseDate, { type: 'date' }), max: data.today }} errors={fields.purchaseDate.errors} />
        <div className="field">
          <label htmlFor={fields.category.id}>Transportation Category</label>
          <select className="input" {...getSelectProps(fields.category)} aria-invalid={fields.category.errors ? true : undefined}>
            <option value="">Select a category</option>
            {TRANSPORT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
          <ErrorList errors={fields.category.errors} />
        </div>
        <ErrorList errors={form.errors} />
        <div className="btn-pair">
          <Link to="/scan" className="btn secondary" style={{ flex: 1 }}>
            {analysis.verifiedSender ? 'Upload Another' : 'Retake Photo'}
          </Link>
          <button type="submit" className="btn" style={{ flex: 1 }} disabled={submitting}>
            {submitting ? 'Submitting...' : analysis.captureAdvice ? 'Send for review instead' : 'Submit Receipt'}
          </button>
        </div>
      </Form>
    </section>
  )
}

/** A receipt the rules do not reward (fuel, groceries, a food order): why, and what does earn. */
function IneligibleStep({ analysis }: { analysis: NonNullable<ScanPageData['analysis']> }) {
  return (
    <section className="card stack" aria-labelledby="ineligible-title">
      {analysis.hasImage ? <img src={`/scan/image/${analysis.id}`} alt="Your receipt" className="preview" /> : null}
      <div className="alert" role="alert">
        <strong id="ineligible-title">This receipt is not eligible.</strong>
        <ul className="review-list">{analysis.reasons.map((r) => <li key={r}>{r}</li>)}</ul>
        <p style={{ margin: '0.25rem 0 0' }}>
          Ride-share, public transit, EV rental and e-scooter or bike receipts from the last 14 days earn B3TR.
        </p>
      </div>
      <div className="btn-pair">
        <Link to="/home" className="btn secondary" style={{ flex: 1 }}>
          Home
        </Link>
        <Link to="/scan" className="btn" style={{ flex: 1 }}>
          Scan Another Receipt
        </Link>
      </div>
    </section>
  )
}

/** The analysis step when the receipt cannot be accepted: why, and a way to scan another one. */
function RefusedStep({ analysis }: { analysis: NonNullable<ScanPageData['analysis']> }) {
  const refusal = analysis.refusal!
  const limit = refusal.code === 'daily_limit'
  return (
    <section className="card stack" aria-labelledby="refused-title">
      {analysis.hasImage ? <img src={`/scan/image/${analysis.id}`} alt="Your receipt" className="preview" /> : null}
      <div className="alert" role="alert">
        <strong id="refused-title">{refusal.title}</strong>
        <p style={{ margin: '0.25rem 0 0' }}>{refusal.message}</p>
      </div>
      <div className="btn-pair">
        <Link to="/home" className="btn secondary" style={{ flex: 1 }}>
          Home
        </Link>
        {limit ? null : (
          <Link to="/scan" className="btn" style={{ flex: 1 }}>
            Scan Another Receipt
          </Link>
        )}
      </div>
    </section>
  )
}

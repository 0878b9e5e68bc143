import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { requireUser } from '~/auth/auth.server'
import { CameraCapture, checkImageFile } from '~/components/camera-capture'
import { CapturePreview, checkCaptureInBrowser, RetakeAdvice } from '~/components/capture-preview'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, Field } from '~/components/forms'
import { Icon } from '~/components/icons'
import { SampleReceiptLink } from '~/components/sample-receipt-link'
import { showToast } from '~/components/toaster'
import { receiptFormSchema } from '~/receipts/receipt-form'
import { getStoredAnalysis } from '~/receipts/analyses.server'
import { listTransportationServices } from '~/receipts/services.server'
import { handleScanAction, type ScanActionData } from '~/receipts/scan.server'
import { countActionsToday } from '~/rewards/daily-limit.server'
import { CATEGORY_LABELS, DAILY_ACTION_LIMIT, DAILY_LIMIT_MESSAGE, TRANSPORT_CATEGORIES, utcDay } from '~/rewards/rules'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { analysisLimits, getRateLimitRefusal } from '~/utils/rate-limit.server'
import { isMultipart } from '~/receipts/http.server'
import { analysisRefusal } from '~/receipts/early.server'
import styles from '~/styles/scan.css'
import { parseRowId } from '~/utils/ids'
import { getInboundAddress } from '~/ereceipts/inbound.server'
import { EMAIL_MIME } from '~/receipts/analyses.server'
import { ForwardingCard, isEmailFile, VerifiedSender } from '~/components/ereceipt'
import { getRewardPreview } from '~/receipts/reward-preview.server'
import { RewardPreviewCard } from '~/components/reward-preview'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Scan Receipt · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const db = getDb()
  const analysisId = parseRowId(new URL(request.url).searchParams.get('analysis'))
  const stored = analysisId !== null ? await getStoredAnalysis(db, user.id, analysisId) : null
  const maxAgeDays = getEnv().RECEIPT_MAX_AGE_DAYS
  // Issue 10, "refuse early": what would refuse this receipt is shown now, not after the form.
  const refusal =
    stored && !stored.analysis.testMode
      ? await analysisRefusal(db, { userId: user.id, imageHash: stored.imageHash, analysis: stored.analysis, maxAgeDays })
      : null
  return json({
    services: await listTransportationServices(db),
    actionsToday: await countActionsToday(db, user.id),
    testMode: getEnv().RECIRCLE_TEST_MODE,
    inboundAddress: await getInboundAddress(db, user.id),
    today: utcDay(new Date()),
    analysis: stored
      ? {
          id: stored.id,
          hasImage: !!stored.image && stored.imageMime !== EMAIL_MIME,
          verifiedSender: typeof stored.analysis.verifiedSender === 'string' ? stored.analysis.verifiedSender : null,
          storeName: stored.analysis.storeName,
          category: stored.analysis.category,
          totalAmount: stored.analysis.totalAmount,
          purchaseDate: stored.analysis.purchaseDate,
          confidence: typeof stored.analysis.confidence === 'number' ? stored.analysis.confidence : 0,
          isAcceptable: stored.analysis.isAcceptable,
          needsManualReview: stored.analysis.needsManualReview,
          testMode: !!stored.analysis.testMode,
          reasons: stored.analysis.reasons,
          captureAdvice: typeof stored.analysis.captureAdvice === 'string' ? stored.analysis.captureAdvice : null,
          refusal,
          // What the server pays if it accepts this receipt now (issue 24).
          rewardPreview: await getRewardPreview(db, user, stored.analysis.category),
        }
      : null,
  })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request)
  // A multipart post is a photo to analyse: counted against the analysis limits.
  const limited = isMultipart(request) ? await getRateLimitRefusal(getDb(), analysisLimits(user.id, context)) : null
  if (limited) return json<ScanActionData>({ step: 'camera', error: limited.message }, { status: limited.status, headers: limited.headers })
  return handleScanAction(request, user)
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>

// Spec 1 §8's toast descriptions; the reason goes beneath them.
const ANALYSIS_FAILED = 'Could not analyze receipt. Please try again.'
const SUBMIT_FAILED = 'Could not submit receipt. Please try again.'

export default function Scan() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>() as ScanActionData | undefined
  const limitReached = data.actionsToday >= DAILY_ACTION_LIMIT
  return (
    <div className="stack">
      <div className="row between">
        <Link to="/home" className="back-link">
          <Icon name="arrowLeft" /> Back to Dashboard
        </Link>
        <span className="pill" aria-label={`Actions today: ${data.actionsToday} of ${DAILY_ACTION_LIMIT}`}>
          {Math.min(data.actionsToday, DAILY_ACTION_LIMIT)}/{DAILY_ACTION_LIMIT} today
        </span>
      </div>
      <h1>Scan Receipt</h1>
      {limitReached ? (
        <div className="alert warn" role="status">
          <strong>Daily Action Limit Reached</strong>
          <p style={{ margin: 0 }}>{DAILY_LIMIT_MESSAGE}</p>
        </div>
      ) : null}
      {data.analysis ? <ReceiptFormStep data={data} actionData={actionData} /> : <CaptureStep data={data} actionData={actionData} />}
    </div>
  )
}

function CaptureStep({ data, actionData }: { data: LoaderData; actionData?: ScanActionData }) {
  const navigation = useNavigation()
  const submit = useSubmit()
  const formRef = useRef<HTMLFormElement>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [email, setEmail] = useState(false)
  const [camera, setCamera] = useState(false)
  const [progress, setProgress] = useState(0)
  // Issue 23: a captured photo, or a picked one the capture check flags, waits in a preview.
  const [pending, setPending] = useState<{ file: File; src: string; advice: string | null } | null>(null)
  const analyzing = navigation.state !== 'idle' && navigation.formEncType === 'multipart/form-data'
  const error = actionData?.step === 'camera' ? actionData.error : null

  useEffect(() => {
    if (!analyzing) return setProgress(0)
    // Analysis takes about a second; the bar eases towards 90 % until the server answers.
    const timer = setInterval(() => setProgress((p) => p + (90 - p) * 0.15), 200)
    return () => clearInterval(timer)
  }, [analyzing])

  useEffect(() => {
    if (error) showToast({ title: 'Analysis Failed', description: ANALYSIS_FAILED, detail: error, variant: 'destructive' })
  }, [error, actionData])

  const send = useCallback(
    (file: File, isEmail: boolean) => {
      setPending(null)
      setEmail(isEmail)
      setPreview(isEmail ? null : URL.createObjectURL(file))
      const formData = new FormData()
      formData.set('image', file)
      submit(formData, { method: 'post', encType: 'multipart/form-data' })
    },
    [submit],
  )
  const upload = useCallback(
    async (file: File, opts: { fromCamera?: boolean } = {}) => {
      // An e-receipt (.eml) is checked by its signature on the server, not as a picture.
      const isEmail = isEmailFile(file)
      const problem = isEmail ? null : await checkImageFile(file)
      if (problem) {
        showToast({ title: 'Validation Error', description: problem, variant: 'destructive' })
        return
      }
      const capture = isEmail ? null : await checkCaptureInBrowser(file)
      // A good screenshot or photo from the gallery goes at once; the camera's photo and a poor one wait for the user.
      if (capture && (opts.fromCamera || !capture.ok)) {
        setPending({ file, src: URL.createObjectURL(file), advice: capture.advice })
        return
      }
      send(file, isEmail)
    },
    [send],
  )
  const closeCamera = useCallback(() => setCamera(false), [])

  if (analyzing) {
    return (
      <section className="card analyzing" aria-live="polite">
        {preview ? <img src={preview} alt="Your receipt" className="preview" /> : null}
        <p style={{ marginTop: '0.75rem' }}>
          <span className="spinner" aria-hidden="true" /> {email ? "Checking the e-receipt's signature..." : 'Our AI is reading your receipt...'}
        </p>
        <div className="progress" role="progressbar" aria-label="Analysis progress" aria-valuenow={Math.round(progress)} aria-valuemin={0} aria-valuemax={100}>
          <span style={{ width: `${progress}%` }} />
        </div>
      </section>
    )
  }

  return (
    <section className="card capture-card" aria-labelledby="capture-title">
      <h2 id="capture-title" className="card-title">
        <Icon name="camera" /> Capture your receipt
      </h2>
      <p className="muted small">
        Rideshare, public transit, EV rental or e-scooter/bike receipts from the last 14 days: a photo, a screenshot or the
        receipt e-mail saved as an .eml file.
      </p>
      {error ? (
        <div className="alert" role="alert">
          <strong>{ANALYSIS_FAILED}</strong>
          <p style={{ margin: '0.25rem 0 0' }}>{error}</p>
          <div style={{ marginTop: '0.5rem' }}>
            <Link to="/scan" className="btn secondary">
              Try Again
            </Link>
          </div>
        </div>
      ) : null}
      {pending ? (
        <CapturePreview
          src={pending.src}
          advice={pending.advice}
          onRetake={() => {
            setPending(null)
            setCamera(true)
          }}
          onUploadNew={(file) => void upload(file)}
          onUse={() => send(pending.file, false)}
        />
      ) : camera ? (
        <CameraCapture onCapture={(file) => { setCamera(false); void upload(file, { fromCamera: true }) }} onClose={closeCamera} />
      ) : (
        <>
          <Form method="post" encType="multipart/form-data" ref={formRef} className="upload-drop">
            {/* The native input lies invisibly over a button-styled label; without JavaScript the
                form shows "Photo chosen" once the (required) input is valid, then Analyze sends it. */}
            <label className="btn secondary block file-button">
              <Icon name="image" /> Upload from Gallery
              <input
                id="receipt-image"
                name="image"
                type="file"
                accept="image/*,.eml,message/rfc822"
                required
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0]
                  if (file) void upload(file)
                }}
              />
            </label>
            <noscript>
              <p className="file-chosen">
                <Icon name="check" /> Photo chosen
              </p>
              <button type="submit" className="btn block" style={{ marginTop: '0.5rem' }}>
                Analyze Receipt
              </button>
            </noscript>
          </Form>
          <ClientOnlyCameraButton onClick={() => setCamera(true)} />
          <SampleReceiptLink />
        </>
      )}
      <ForwardingCard address={data.inboundAddress} />
      {data.testMode ? (
        <Form method="post" className="stack" style={{ gap: '0.5rem' }}>
          <input type="hidden" name="intent" value="demo" />
          <p className="small muted" style={{ margin: 0 }}>
            Test mode: demo receipts (never rewarded)
          </p>
          <div className="btn-pair">
            <button type="submit" name="demoType" value="uber" className="btn secondary" style={{ flex: 1 }}>
              Uber Receipt
            </button>
            <button type="submit" name="demoType" value="tesla" className="btn secondary" style={{ flex: 1 }}>
              Tesla Rental
            </button>
          </div>
        </Form>
      ) : null}
    </section>
  )
}

function ClientOnlyCameraButton({ onClick }: { onClick: () => void }) {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  if (!hydrated) return null
  return (
    <button type="button" className="btn block" onClick={onClick}>
      <Icon name="camera" /> Use Camera
    </button>
  )
}

function matchService(services: LoaderData['services'], storeName: string | null) {
  if (!storeName) return undefined
  const name = storeName.toLowerCase()
  const found = services.find((s) => s.name.toLowerCase().includes(name) || name.includes(s.name.toLowerCase().split(' ')[0]))
  return found ? String(found.id) : undefined
}

function ReceiptFormStep({ data, actionData }: { data: LoaderData; actionData?: ScanActionData }) {
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
          <dd>{analysis.totalAmount !== null ? `$${analysis.totalAmount.toFixed(2)}` : 'Not found'}</dd>
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
      ) : !analysis.isAcceptable && !analysis.needsManualReview ? (
        <div className="alert" role="alert">
          <strong>This receipt is not eligible.</strong>
          <ul className="review-list">{analysis.reasons.map((r) => <li key={r}>{r}</li>)}</ul>
        </div>
      ) : analysis.captureAdvice ? (
        <RetakeAdvice advice={analysis.captureAdvice} />
      ) : analysis.needsManualReview ? (
        <div className="alert info">
          <strong>This receipt will be checked by our team.</strong>
          <ul className="review-list">{analysis.reasons.map((r) => <li key={r}>{r}</li>)}</ul>
        </div>
      ) : (
        <>
          <RewardPreviewCard preview={analysis.rewardPreview} />
          <p className="small muted" style={{ margin: 0 }}>
            Changing the amount or date sends the receipt to manual review (24-48 hours).
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

/** The analysis step when the receipt cannot be accepted: why, and a way to scan another one. */
function RefusedStep({ analysis }: { analysis: NonNullable<LoaderData['analysis']> }) {
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
          Back to Dashboard
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

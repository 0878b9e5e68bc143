import { Form, Link, useNavigation, useSubmit } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { WHAT_EARNS } from '~/rewards/earning-rule'
import { CameraCapture, checkImageFile } from '~/components/camera-capture'
import { CapturePreview, checkCaptureInBrowser } from '~/components/capture-preview'
import { ForwardingCard, isEmailFile } from '~/components/ereceipt'
import { Icon } from '~/components/icons'
import { SampleReceiptLink } from '~/components/sample-receipt-link'
import { showToast } from '~/components/toaster'
import { WithSupportLink } from '~/components/support-link'
import { NEW_WALLET_NOTICE } from '~/receipts/standing'
import { RETRYABLE_TITLE, type RefusalAdvice } from '~/receipts/refusal-advice'
import type { ScanActionData } from './action.server'
import type { ScanPageData } from './loader.server'


/** Scan's first step: a photo (camera or gallery), a screenshot or an .eml, sent to be analysed. */
export function CaptureStep({ data, actionData }: { data: ScanPageData; actionData?: ScanActionData }) {
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
  const serverError = actionData?.step === 'camera' ? actionData : null
  // A problem the browser found before sending (resolution, type): it stays until the user acts.
  const [clientError, setClientError] = useState<string | null>(null)
  const error = clientError ?? serverError?.error ?? null
  const advice: RefusalAdvice | null = clientError ? { action: 'retake', title: RETRYABLE_TITLE, instead: null } : (serverError?.advice ?? null)

  useEffect(() => {
    if (!analyzing) return setProgress(0)
    // Analysis takes about a second; the bar eases towards 90 % until the server answers.
    const timer = setInterval(() => setProgress((p) => p + (90 - p) * 0.15), 200)
    return () => clearInterval(timer)
  }, [analyzing])

  useEffect(() => {
    if (serverError) showToast({ title: 'Analysis Failed', description: serverError.advice.title, detail: serverError.error, variant: 'destructive' })
  }, [serverError])

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
        setClientError(problem)
        return
      }
      setClientError(null)
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
      {data.established ? null : (
        <div className="alert info" role="note" data-testid="new-wallet-notice">
          <p style={{ margin: 0 }}>{NEW_WALLET_NOTICE}</p>
        </div>
      )}
      <p className="muted small">
        {WHAT_EARNS} From the last 14 days: a photo, a screenshot or the receipt e-mail saved as an .eml file.
      </p>
      {error && advice ? (
        <div className="alert" role="alert" data-testid="capture-error">
          <strong>{advice.title}</strong>
          <p style={{ margin: '0.25rem 0 0' }}>
            <WithSupportLink text={error} />
          </p>
          {advice.instead ? (
            <p style={{ margin: '0.25rem 0 0' }}>
              <WithSupportLink text={advice.instead} />
            </p>
          ) : null}
          <div className="row" style={{ marginTop: '0.5rem', gap: '0.5rem', flexWrap: 'wrap' }}>
            {advice.action !== 'none' ? (
              <Link to="/scan" className="btn secondary" onClick={() => setClientError(null)}>
                Try Again
              </Link>
            ) : null}
            {advice.link ? (
              <Link to={advice.link.href} className="btn secondary">
                {advice.link.label}
              </Link>
            ) : null}
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
      <p className="small" style={{ margin: 0 }}>
        <Link to="/e-receipts">
          {data.inboundAddress
            ? 'E-receipts are paid at once: how to forward or upload them, and which services sign them'
            : 'E-receipts are paid at once: how to upload them, and which services sign them'}
        </Link>
      </p>
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

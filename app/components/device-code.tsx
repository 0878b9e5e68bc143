import { Form, Link, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState, type RefObject } from 'react'
import { DEVICE_CONTINUE_MESSAGES, type AskingBrowser, type DeviceCodeState } from '~/auth/device-code'
import { COPIED_MS } from '~/referrals/referrals'
import { ErrorList } from './forms'
import { showToast } from './toaster'

/** "Sign in with a code" (issue 40): an ordinary form, so it works without JavaScript. */
export function CodeRequestForm({
  redirectTo,
  label = 'Sign in with a code',
  secondary,
}: {
  redirectTo?: string | null
  label?: string
  secondary?: boolean
}) {
  return (
    <Form method="post" action="/connect-wallet/code">
      <input type="hidden" name="intent" value="new" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <button type="submit" className={`btn block${secondary ? ' secondary' : ''}`}>
        {label}
      </button>
    </Form>
  )
}

/** The code, large and letter-spaced; with JavaScript a Copy button beside it. */
export function UserCode({ code }: { code: string }) {
  const [hydrated, setHydrated] = useState(false)
  const [copied, setCopied] = useState(false)
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <div className="user-code-row">
      <output className="user-code" data-testid="user-code" aria-label={`Your code: ${code.split('').join(' ')}`}>
        {code}
      </output>
      {hydrated ? (
        <button
          type="button"
          className="btn secondary"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(code)
              setCopied(true)
            } catch {
              showToast({ title: "Couldn't copy", description: 'Select the code and copy it yourself.', variant: 'destructive' })
            }
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      ) : null}
    </div>
  )
}

const POLL_MS = 3000

/** With JavaScript the code page asks every few seconds, and presses Continue itself (once) when the code is confirmed. */
export function useContinueOnceConfirmed(state: string | null, continueForm: RefObject<HTMLFormElement>) {
  const revalidator = useRevalidator()
  const latest = useRef(revalidator)
  latest.current = revalidator
  const continued = useRef(false)
  useEffect(() => {
    if (state === 'approved' && !continued.current) {
      continued.current = true
      continueForm.current?.requestSubmit()
    }
    if (state !== 'pending') return
    const timer = setInterval(() => latest.current.state === 'idle' && latest.current.revalidate(), POLL_MS)
    return () => clearInterval(timer)
  }, [state, continueForm])
}

/** /device after a code was looked up: which browser asks, and Confirm or Deny (one form, two intents). */
export function AskingBrowserCard({ asking }: { asking: AskingBrowser }) {
  return (
    <div className="stack device-page">
      <h1>Sign in this browser?</h1>
      <section className="card stack" aria-labelledby="asking-title">
        <h2 id="asking-title" className="card-title">
          Code {asking.userCode}
        </h2>
        <dl className="asking-browser">
          <dt>Browser</dt>
          <dd data-testid="asking-browser">{asking.browser}</dd>
          <dt>Asked</dt>
          <dd>{asking.askedAt}</dd>
          {asking.address ? (
            <>
              <dt>Network address</dt>
              <dd>{asking.address}</dd>
            </>
          ) : null}
        </dl>
        <p className="alert warn">
          Confirm only a code you asked for yourself, on a device in front of you. Confirming signs that browser in to your account: if
          someone sent you this code, press Deny.
        </p>
        <Form method="post" className="btn-pair">
          <input type="hidden" name="code" value={asking.userCode} />
          <button type="submit" name="intent" value="deny" className="btn secondary">
            Deny
          </button>
          <button type="submit" name="intent" value="approve" className="btn">
            Confirm
          </button>
        </Form>
      </section>
    </div>
  )
}

export function DeviceDecided({ result }: { result: 'approved' | 'denied' }) {
  return (
    <div className="stack device-page">
      <h1>{result === 'approved' ? 'Sign-in confirmed' : 'Sign-in denied'}</h1>
      <p className={`alert ${result === 'approved' ? 'info' : 'warn'}`} role="status">
        {result === 'approved'
          ? 'Press Continue on the other device: it is then signed in with your wallet. The code works once.'
          : 'The other browser will not be signed in with this code.'}
      </p>
      <div className="btn-pair">
        <Link to="/device" className="btn secondary">
          Enter another code
        </Link>
        <Link to="/home" className="btn">
          Back to Home
        </Link>
      </div>
    </div>
  )
}

/** The code page while the code lives: the code, where to enter it, and Continue (a plain form post). */
export function ShownCode({
  code,
  state,
  expiresAt,
  deviceUrl,
  errors,
}: {
  code: string
  state: 'pending' | 'approved'
  expiresAt: string
  deviceUrl: string
  errors: string[]
}) {
  const continueForm = useRef<HTMLFormElement>(null)
  useContinueOnceConfirmed(state, continueForm)
  return (
    <section className="card stack" aria-labelledby="code-title">
      <h2 id="code-title" className="card-title">
        Your code
      </h2>
      <UserCode code={code} />
      <ol className="device-steps">
        <li>
          On a phone or computer where your wallet is signed in to ReCircle, open <strong className="device-url">{deviceUrl}</strong>
        </li>
        <li>Enter this code there and press Confirm.</li>
        <li>Come back here and press Continue.</li>
      </ol>
      <p className="small muted">The code works once and expires 10 minutes after it was made (at {expiresAt.slice(11, 16)} UTC).</p>
      <Form method="post" ref={continueForm} className="stack">
        <input type="hidden" name="intent" value="continue" />
        <div role="alert">{errors.length ? <p className="alert warn">{errors.join(' ')}</p> : null}</div>
        <button type="submit" className="btn block">
          Continue
        </button>
      </Form>
    </section>
  )
}

/** The code page without a live code: why (expired, denied, used), and a new one. */
export function AskForCode({ state, redirectTo, errors }: { state: DeviceCodeState | null; redirectTo: string | null; errors: string[] }) {
  const message = state && state !== 'pending' && state !== 'approved' ? DEVICE_CONTINUE_MESSAGES[state] : null
  return (
    <section className="card stack" aria-labelledby="code-title">
      <h2 id="code-title" className="card-title">
        No wallet in this browser?
      </h2>
      {message ? (
        <p className="alert warn" role="alert">
          {message}
        </p>
      ) : null}
      <p className="muted">
        Get a short code here, then confirm it with your wallet on another device (VeWorld on your phone, or the extension). This browser is
        then signed in, no wallet needed.
      </p>
      <ErrorList errors={errors.filter((e) => e !== message)} />
      <CodeRequestForm redirectTo={redirectTo} label={state ? 'Get a new code' : 'Get a code'} />
    </section>
  )
}

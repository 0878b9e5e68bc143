import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { requestHostname } from '~/auth/auth.server'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { TextareaField } from '~/components/forms'
import { WalletTestPanel } from '~/components/wallet-test-panel'
import { requireDebugAdmin } from '~/debug/access.server'
import type { WalletTestVerification } from '~/debug/wallet-test'
import { verifyWalletTestCertificate } from '~/debug/wallet-test.server'
import chainStyles from '~/styles/chain.css'
import styles from '~/styles/debug.css'
import { getEnv } from '~/utils/env.server'
import { readFormData } from '~/utils/form.server'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: chainStyles },
  { rel: 'stylesheet', href: styles },
]
export const meta: MetaFunction = () => [{ title: 'Wallet Test · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireDebugAdmin(request)
  return json({ ok: true })
}

/** Without JavaScript: verify a pasted wallet-test certificate (JSON) with the sign-in checks. */
export async function action({ request }: ActionFunctionArgs) {
  await requireDebugAdmin(request)
  const raw = (await readFormData(request)).get('certificate')
  let certificate: unknown = null
  try {
    certificate = typeof raw === 'string' && raw.length <= 10_000 ? JSON.parse(raw) : null
  } catch {
    certificate = null
  }
  if (certificate === null) {
    const refused: WalletTestVerification = { ok: false, checks: [], error: 'Paste a certificate as JSON' }
    return json(refused, { status: 400 })
  }
  const result = verifyWalletTestCertificate(certificate, {
    now: new Date(),
    requestHostname: requestHostname(request),
    allowedDomains: getEnv().APP_DOMAINS,
  })
  return json(result, { status: result.ok ? 200 : 422 })
}

export default function WalletTest() {
  const result = useActionData<typeof action>()
  const navigation = useNavigation()
  return (
    <div className="stack">
      <Link to="/admin/debug-tools" className="back-link">
        ← Admin Debug Tools
      </Link>
      <h1>Wallet Test</h1>
      <section className="card" aria-labelledby="wallet-test-title">
        <h2 id="wallet-test-title" className="card-title">
          Detect, connect, sign, verify
        </h2>
        <WalletTestPanel />
      </section>
      <section className="card stack" aria-labelledby="paste-title">
        <h2 id="paste-title" className="card-title" style={{ margin: 0 }}>
          Verify a certificate
        </h2>
        <Form method="post" className="stack">
          <TextareaField
            label="Wallet-test certificate (JSON)"
            textareaProps={{ name: 'certificate', required: true, maxLength: 10_000, spellCheck: false }}
            errors={result && !result.ok && result.checks.length === 0 ? [result.error] : undefined}
          />
          <button type="submit" className="btn secondary block" disabled={navigation.state !== 'idle'}>
            Verify on the server
          </button>
        </Form>
        {result && result.checks.length ? (
          <div role="status">
            <p className={`alert debug-checks ${result.ok ? 'info' : ''}`}>{result.ok ? `Verified: signed by ${result.signer}` : result.error}</p>
            <ul className="small debug-checks">
              {result.checks.map((c) => (
                <li key={c.name}>
                  {c.ok ? '✓' : '✗'} {c.name}: {c.detail}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

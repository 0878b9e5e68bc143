import { json, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { getOptionalUser, requireUser } from '~/auth/auth.server'
import { ForwardingCard } from '~/components/ereceipt'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ForwardingConfirmations } from '~/components/forwarding-confirmation'
import { ForwardingGuide } from '~/components/forwarding-guide'
import { Icon } from '~/components/icons'
import { getInboundAddress, inboundDomain } from '~/ereceipts/inbound.server'
import { dismissFromForm, listConfirmations } from '~/receipts/forwarding-confirmations.server'
import { gmailFilterQuery, senderDomains } from '~/receipts/forwarding-guide'
import { supportedSenders } from '~/receipts/supported-senders.server'
import { getDb } from '~/utils/db.server'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = () => [{ title: 'E-receipts · ReCircle' }]

// A forwarding confirmation's link is its owner's alone: no cache keeps the page (issue 39).
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

/** E-receipt set-up (issues 32, 39): the fastest way to be paid, once per mailbox, for each provider. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  const forwarding = inboundDomain() !== null
  const senders = supportedSenders()
  const mine = user && forwarding
  const confirmations = mine ? await listConfirmations(getDb(), user.id) : []
  return json(
    {
      senders,
      forwarding,
      address: mine ? await getInboundAddress(getDb(), user.id) : null,
      confirmations,
      gmailFilter: gmailFilterQuery(senders),
      domains: senderDomains(senders),
      signedIn: !!user,
    },
    confirmations.length ? { headers: { 'Cache-Control': 'private, no-store' } } : undefined,
  )
}

/** "Done" on a forwarding confirmation (a plain form). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const form = await readFormData(request)
  if (form.get('intent') !== 'dismiss-confirmation') return json({ error: 'Unknown action' }, { status: 400 })
  await dismissFromForm(getDb(), user.id, form)
  return redirect('/e-receipts')
}

export default function EReceipts() {
  const { senders, forwarding, address, confirmations, gmailFilter, domains, signedIn } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <Link to="/scan" className="back-link">
        <Icon name="arrowLeft" /> Scan
      </Link>
      <h1>E-receipts</h1>
      <p>
        A receipt e-mail proves itself: the service signs it (DKIM), and ReCircle checks the signature. A verified e-receipt is paid at
        once, even before your first photo has been checked.
        {forwarding ? ' Set up automatic forwarding once and every new receipt arrives by itself.' : null}
      </p>

      <ForwardingConfirmations confirmations={confirmations} action="/e-receipts" />

      <section className="card stack" aria-labelledby="forward-title">
        <h2 id="forward-title" className="card-title">
          {forwarding ? 'Your forwarding address' : 'Upload the e-mail'}
        </h2>
        {!forwarding ? (
          <p style={{ margin: 0 }} data-testid="no-forwarding">
            Forwarding by e-mail is not set up on this ReCircle server. Save the receipt e-mail as an .eml file (below) and upload it on
            Scan, or photograph the receipt.
          </p>
        ) : address ? (
          <ForwardingCard address={address} />
        ) : (
          <p style={{ margin: 0 }}>{signedIn ? 'Your address could not be made right now.' : 'Connect your wallet to see your personal forwarding address.'}</p>
        )}
      </section>

      <section className="card stack" aria-labelledby="senders-title">
        <h2 id="senders-title" className="card-title">
          Supported senders
        </h2>
        <ul className="review-list" data-testid="supported-senders">
          {senders.map((s) => (
            <li key={s.name}>
              <strong>{s.name}</strong> <span className="small muted">signed by {s.domains.join(', ')}</span>
            </li>
          ))}
        </ul>
        <p className="small muted" style={{ margin: 0 }}>
          Only completed trips count: not food orders, weekly summaries, fees alone or passes.
        </p>
      </section>

      <ForwardingGuide forwarding={forwarding} address={address} gmailFilter={gmailFilter} domains={domains} />

      <Link to="/scan" className="btn block">
        Upload an .eml on Scan
      </Link>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { getOptionalUser } from '~/auth/auth.server'
import { ForwardingCard } from '~/components/ereceipt'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icons'
import { getInboundAddress, inboundDomain } from '~/ereceipts/inbound.server'
import { supportedSenders } from '~/receipts/supported-senders.server'
import { getDb } from '~/utils/db.server'

export const meta: MetaFunction = () => [{ title: 'E-receipts · ReCircle' }]

/** E-receipt setup (issue 32): the fastest, safest way to be paid, step by step for each mail app. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  const forwarding = inboundDomain() !== null
  return json({
    senders: supportedSenders(),
    forwarding,
    address: user && forwarding ? await getInboundAddress(getDb(), user.id) : null,
    signedIn: !!user,
  })
}

type Steps = { app: string; forward: string[]; auto: string[]; save: string[] }

// What each mail app calls the steps (checked against each app's own help pages).
const APPS: Steps[] = [
  {
    app: 'Gmail',
    forward: [
      'Phone (Gmail app): open the receipt, tap ⋮ at the top right, then Forward. The receipt is sent inline, which works: put your ReCircle address in To and send.',
      'Computer (gmail.com): open the receipt, click ⋮ next to Reply, then Forward as attachment, and send it to your ReCircle address.',
    ],
    auto: [
      'Gmail forwards automatically only to an address that confirmed a code Gmail mails to it, and ReCircle cannot confirm one yet. Forward receipts one by one, or let Apple Mail or Outlook forward them with a rule.',
    ],
    save: ['Computer: open the receipt, ⋮ → Download message. The file ends in .eml: upload it on Scan.'],
  },
  {
    app: 'Apple Mail',
    forward: [
      'iPhone and iPad: open the receipt, tap the reply arrow, then Forward, and send it to your ReCircle address.',
      'Mac: select the receipt, then Message → Forward as Attachment, and send it to your ReCircle address.',
    ],
    auto: ['Mac: Mail → Settings → Rules → Add Rule: "From contains uber.com" (one condition per service), action "Forward Message" to your ReCircle address. Rules run while Mail is open.'],
    save: ['Mac: select the receipt, File → Save As, Format: Raw Message Source. Upload the .eml on Scan.', 'iPhone and iPad: Mail cannot save a message as a file; forward it instead.'],
  },
  {
    app: 'Outlook',
    forward: [
      'Phone (Outlook app): open the receipt, tap … → Forward, and send it to your ReCircle address.',
      'Computer (outlook.com or the desktop app): open the receipt, … → Forward → Forward as attachment, and send it to your ReCircle address.',
    ],
    auto: ['outlook.com: Settings → Mail → Rules → Add new rule: condition "From" the service\'s address, action "Forward to" your ReCircle address.'],
    save: ['Computer: open the receipt, … → Save as (desktop) or Download (outlook.com: … → Save → Download). Upload the .eml on Scan.'],
  },
]

export default function EReceipts() {
  const { senders, forwarding, address, signedIn } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <Link to="/scan" className="back-link">
        <Icon name="arrowLeft" /> Scan
      </Link>
      <h1>E-receipts</h1>
      <p>
        A receipt e-mail proves itself: the service signs it (DKIM), and ReCircle checks the signature. A verified e-receipt is paid at
        once, even before your first photo has been checked.
      </p>

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

      <section className="card stack" aria-labelledby="forward-title">
        <h2 id="forward-title" className="card-title">
          Your forwarding address
        </h2>
        {!forwarding ? (
          <p style={{ margin: 0 }} data-testid="no-forwarding">
            Forwarding by e-mail is not set up on this ReCircle server. Save the receipt e-mail as an .eml file (below) and upload it on
            Scan: it is checked the same way.
          </p>
        ) : address ? (
          <ForwardingCard address={address} />
        ) : (
          <p style={{ margin: 0 }}>{signedIn ? 'Your address could not be made right now.' : 'Connect your wallet to see your personal forwarding address.'}</p>
        )}
      </section>

      {APPS.map((a) => (
        <section key={a.app} className="card stack" aria-labelledby={`app-${a.app}`}>
          <h2 id={`app-${a.app}`} className="card-title">
            {a.app}
          </h2>
          {forwarding ? (
            <>
              <h3 className="small">Forward one receipt</h3>
              <ul className="review-list">{a.forward.map((t) => <li key={t}>{t}</li>)}</ul>
              <h3 className="small">Forward every receipt automatically</h3>
              <ul className="review-list">{a.auto.map((t) => <li key={t}>{t}</li>)}</ul>
            </>
          ) : null}
          <h3 className="small">Save it as an .eml to upload</h3>
          <ul className="review-list">{a.save.map((t) => <li key={t}>{t}</li>)}</ul>
        </section>
      ))}

      <Link to="/scan" className="btn block">
        Upload an .eml on Scan
      </Link>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

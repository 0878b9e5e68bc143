import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon, type IconName } from '~/components/icons'
import { BASE_REWARD_B3TR, FIRST_RECEIPT_BONUS_MILLI, maxReceiptRewardB3tr } from '~/rewards/receipt-reward'
import { B3TR_EXPLAINED, WHAT_EARNS } from '~/rewards/earning-rule'
import { b3trText, wholeB3trText } from '~/rewards/money'
import { MAX_STREAK_MULTIPLIER } from '~/rewards/streaks'
import { inboundDomain } from '~/ereceipts/inbound.server'
import { getEnv } from '~/utils/env.server'
import { SUPPORT_FORM_HREF, supportMailto } from '~/utils/support'

export const meta: MetaFunction = () => [{ title: 'Help & Support · ReCircle' }]

type Topic = 'wallet' | 'rewards' | 'scanning' | 'account'

const CATEGORIES: { topic: Topic; title: string; icon: IconName; text: string }[] = [
  { topic: 'wallet', title: 'Wallet Connection', icon: 'wallet', text: 'Connecting VeWorld and signing in' },
  { topic: 'rewards', title: 'Token Rewards', icon: 'coins', text: 'How rewards and streaks are computed' },
  { topic: 'scanning', title: 'Receipt Scanning', icon: 'camera', text: 'Taking photos that read well' },
  { topic: 'account', title: 'Account Issues', icon: 'user', text: 'Balance, history and claiming' },
]

/** A category opens its questions: `?topic=` renders them open (no JavaScript needed), `#faq-…` scrolls there. */
export async function loader({ request }: LoaderFunctionArgs) {
  const topic = new URL(request.url).searchParams.get('topic')
  return json({
    topic: CATEGORIES.some((c) => c.topic === topic) ? (topic as Topic) : null,
    supportEmail: getEnv().SUPPORT_EMAIL ?? null,
    // Issue 39: no forwarding address exists without INBOUND_DOMAIN; the answers then offer none.
    forwarding: inboundDomain() !== null,
  })
}

const FAQ: { topic: Topic; q: string; a: string; aWithoutForwarding?: string; link?: { to: string; label: string } }[] = [
  {
    topic: 'wallet',
    q: 'How do I connect my wallet?',
    a: 'Open ReCircle in the VeWorld in-app browser (or with the VeWorld extension), tap Connect VeWorld and approve the sign-in certificate. Signing is free and sends no transaction. ReCircle works on the VeChain test network.',
  },
  {
    topic: 'scanning',
    q: 'Which receipts earn B3TR?',
    // Issue 40: the same rule as Landing, Scan and the store pages (earning-rule.ts).
    a: `${WHAT_EARNS} Examples: Uber, Lyft, Waymo, MTA, BART, CTA, EV rentals, Lime and Bird, from the last 14 days. Fuel, groceries and restaurants do not qualify.`,
  },
  {
    topic: 'rewards',
    q: 'How much can I earn?',
    a: `Each verified receipt earns a base reward of ${wholeB3trText(BASE_REWARD_B3TR)} whatever the fare, multiplied by 1.2 for sustainable transport and up to ${MAX_STREAK_MULTIPLIER} for a daily streak. Your first receipt adds a ${b3trText(FIRST_RECEIPT_BONUS_MILLI)} bonus, so one receipt can earn up to ${wholeB3trText(maxReceiptRewardB3tr())}. You can do 3 actions per day. ${B3TR_EXPLAINED}`,
  },
  {
    topic: 'scanning',
    q: 'Can I send the receipt e-mail instead of a photo?',
    a: 'Yes, and it is the fastest way: a receipt e-mail from a supported service (Uber, Lyft, Lime and others) carries the sender\'s signature, so ReCircle pays it at once. Set up automatic forwarding to your personal ReCircle address once, or save a receipt as an .eml file and upload it on Scan. The E-receipts page shows the steps for Gmail, Outlook and iCloud Mail and the supported senders.',
    aWithoutForwarding:
      'Yes, and it is the fastest way: a receipt e-mail from a supported service (Uber, Lyft, Lime and others) carries the sender\'s signature, so ReCircle pays it at once. Save it as an .eml file and upload it on Scan. The E-receipts page shows the steps for Gmail, Outlook and Apple Mail and the supported senders.',
    link: { to: '/e-receipts', label: 'Set up e-receipts' },
  },
  {
    topic: 'scanning',
    q: 'Why is my receipt pending?',
    a: 'Receipts we cannot read with confidence, or whose details you corrected, go to manual review. Manual review usually takes less than a day, at most 48 hours; your reward is credited once a reviewer approves it. A new wallet\'s photo receipts are checked this way until one is approved; verified e-receipts are paid at once.',
  },
  {
    topic: 'account',
    q: 'How do I get my tokens into my wallet?',
    a: 'Use Claim All Tokens on the Redeem page. Claims are paid through the VeBetterDAO rewards pool: a claim shows Awaiting payout until its transaction is sent, Pending Claim while it is on the way, and Confirmed with a link once it is on-chain.',
  },
]

export default function Help() {
  const { topic, supportEmail, forwarding } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <h1>Help &amp; Support</h1>
      <nav className="grid-2" aria-label="Help topics">
        {CATEGORIES.map((c) => (
          <Link
            key={c.topic}
            to={`?topic=${c.topic}#faq-${c.topic}`}
            className="stat"
            aria-current={topic === c.topic ? 'true' : undefined}
            style={{ color: 'inherit', textDecoration: 'none' }}
          >
            <Icon name={c.icon} />
            <div>
              <strong>{c.title}</strong>
            </div>
            <div className="small muted">{c.text}</div>
          </Link>
        ))}
      </nav>
      <section aria-labelledby="faq-title" className="stack" style={{ gap: '0.5rem' }}>
        <h2 id="faq-title">Frequently asked questions</h2>
        {CATEGORIES.map((c) => (
          <div key={c.topic} id={`faq-${c.topic}`} className="stack" style={{ gap: '0.5rem', scrollMarginTop: '4.5rem' }}>
            <h3 style={{ margin: '0.25rem 0 0' }}>{c.title}</h3>
            {FAQ.filter((item) => item.topic === c.topic).map((item) => (
              <details key={item.q} className="faq" open={topic === c.topic}>
                <summary>{item.q}</summary>
                <p style={{ marginTop: '0.5rem' }}>{!forwarding && item.aWithoutForwarding ? item.aWithoutForwarding : item.a}</p>
                {item.link ? (
                  <p style={{ margin: 0 }}>
                    <Link to={item.link.to}>{item.link.label}</Link>
                  </p>
                ) : null}
              </details>
            ))}
          </div>
        ))}
      </section>
      <section className="card stack" aria-labelledby="contact-title">
        <h2 id="contact-title" style={{ margin: 0 }}>
          Still stuck?
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          Tell us what happened and we will get back to you.
        </p>
        <Link to={SUPPORT_FORM_HREF} className="btn block">
          <Icon name="message" /> Chat with Support
        </Link>
        {supportEmail ? (
          <a href={supportMailto(supportEmail)} className="btn secondary block">
            <Icon name="mail" /> Send Email
          </a>
        ) : null}
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import type { MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { Icon, type IconName } from '~/components/icons'

export const meta: MetaFunction = () => [{ title: 'Help & Support · ReCircle' }]

const CATEGORIES: { title: string; icon: IconName; text: string }[] = [
  { title: 'Wallet Connection', icon: 'wallet', text: 'Connecting VeWorld and signing in' },
  { title: 'Token Rewards', icon: 'coins', text: 'How rewards and streaks are computed' },
  { title: 'Receipt Scanning', icon: 'camera', text: 'Taking photos that read well' },
  { title: 'Account Issues', icon: 'user', text: 'Balance, history and claiming' },
]

const FAQ = [
  {
    q: 'How do I connect my wallet?',
    a: 'Open ReCircle in the VeWorld in-app browser (or with the VeWorld extension), tap Connect VeWorld and approve the sign-in certificate. Signing is free and sends no transaction. ReCircle works on the VeChain test network.',
  },
  {
    q: 'Which receipts earn B3TR?',
    a: 'Rideshare (Uber, Lyft, Waymo…), public transit (MTA, BART, CTA…), electric-vehicle rentals and e-scooter or bike trips from the last 14 days. Fuel, groceries and restaurants do not qualify.',
  },
  {
    q: 'How much can I earn?',
    a: 'Each verified receipt earns a base reward by category, multiplied by 1.2 for sustainable transport and up to 1.5 for a daily streak. Your first receipt adds a 10 B3TR bonus, so you can earn up to 18 B3TR on one receipt. You can do 3 actions per day.',
  },
  {
    q: 'Why is my receipt pending?',
    a: 'Receipts we cannot read with confidence, or whose details you corrected, go to manual review. Manual receipt review takes 24-48 hours; your reward is credited once a reviewer approves it.',
  },
  {
    q: 'How do I get my tokens into my wallet?',
    a: 'Use Claim All Tokens on the Redeem page. Claims are paid through the VeBetterDAO rewards pool: a claim shows Awaiting payout until its transaction is sent, Pending Claim while it is on the way, and Confirmed with a link once it is on-chain.',
  },
]

export default function Help() {
  return (
    <div className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <h1>Help &amp; Support</h1>
      <div className="grid-2">
        {CATEGORIES.map((c) => (
          <div key={c.title} className="stat">
            <Icon name={c.icon} />
            <div>
              <strong>{c.title}</strong>
            </div>
            <div className="small muted">{c.text}</div>
          </div>
        ))}
      </div>
      <section aria-labelledby="faq-title" className="stack" style={{ gap: '0.5rem' }}>
        <h2 id="faq-title">Frequently asked questions</h2>
        {FAQ.map((item) => (
          <details key={item.q} className="faq">
            <summary>{item.q}</summary>
            <p style={{ marginTop: '0.5rem' }}>{item.a}</p>
          </details>
        ))}
      </section>
      <section className="card">
        <h2>Still stuck?</h2>
        <p className="muted">Tell us what happened and we will get back to you.</p>
        <Link to="/feedback" className="btn block">
          <Icon name="message" /> Send Feedback
        </Link>
      </section>
    </div>
  )
}

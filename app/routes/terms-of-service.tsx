import type { MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { Icon } from '~/components/icons'

export const meta: MetaFunction = () => [{ title: 'Terms of Service · ReCircle' }]

export default function Terms() {
  return (
    <article className="stack">
      <Link to="/home" className="back-link">
        <Icon name="arrowLeft" /> Back to Home
      </Link>
      <h1>Terms of Service</h1>
      <section className="card">
        <h2>Who can use ReCircle</h2>
        <p>You must be 13 years or older to use ReCircle.</p>
      </section>
      <section className="card">
        <h2>Receipts and your data</h2>
        <p>
          Receipt images may contain trip locations. We use images only to validate your receipts, and they are deleted
          automatically after 90 days.
        </p>
      </section>
      <section className="card">
        <h2>Fair use</h2>
        <p>Submitting fake, edited or someone else's receipts is fraud and leads to account suspension.</p>
      </section>
      <section className="card">
        <h2>Tokens</h2>
        <p>
          B3TR tokens have no guaranteed value. They are distributed through a decentralised rewards programme
          (VeBetterDAO) on the VeChain test network.
        </p>
      </section>
      <Link to="/" className="btn block">
        Got it - Return to ReCircle
      </Link>
    </article>
  )
}

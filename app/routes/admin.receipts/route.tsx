import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { requireAdmin } from '~/auth/auth.server'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PASSPORT_EXPLAINED } from '~/receipts/standing'
import styles from '~/styles/scan.css'
import { handleReviewAction } from './action.server'
import { GroupCard } from './group-card'
import { reviewPageData } from './queue.server'
import { ReceiptCard } from './receipt-card'

// Staff review (issue 31): new wallets' receipts grouped apart from established wallets'; the
// loader data, the decisions and the cards live beside this module.

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]

export const meta: MetaFunction = () => [{ title: 'Receipt Review · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  return json(await reviewPageData())
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  return handleReviewAction(request, admin)
}

export default function AdminReceipts() {
  const { queue, newWallets } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const byId = new Map(queue.map((r) => [r.id, r]))
  const others = queue.filter((r) => r.standing.established)
  return (
    <div className="stack">
      <h1>Receipt Review</h1>
      <AdminNav />
      <p className="muted">Receipts waiting for staff: those the analysis could not approve on its own, and photos of wallets without standing. Approving credits the reward once.</p>
      <p className="small muted">{PASSPORT_EXPLAINED}</p>
      {actionData && 'error' in actionData ? (
        <div className="alert" role="alert">
          {actionData.error}
        </div>
      ) : null}
      {queue.length === 0 ? (
        <div className="card center">
          <h2>All Receipts Reviewed</h2>
          <p className="muted">New receipts that need a human check will appear here.</p>
        </div>
      ) : (
        <>
          <section className="stack" aria-labelledby="new-wallets-title">
            <h2 id="new-wallets-title">New wallets ({newWallets.reduce((n, g) => n + g.receiptIds.length, 0)})</h2>
            <p className="small muted" style={{ margin: 0 }}>
              Photo receipts of wallets without standing wait here, grouped when the wallets share a browser, an address or
              invitations, or send the same trip under different numbers.
            </p>
            {newWallets.length === 0 ? <p className="small muted">None waiting.</p> : null}
            {newWallets.map((group, i) => (
              <div key={group.key} className="stack">
                <GroupCard group={group} index={i} />
                {group.receiptIds.map((id) => {
                  const r = byId.get(id)
                  return r ? <ReceiptCard key={id} r={r} /> : null
                })}
              </div>
            ))}
          </section>
          <section className="stack" aria-labelledby="others-title">
            <h2 id="others-title">Established wallets ({others.length})</h2>
            {others.length === 0 ? <p className="small muted">None waiting.</p> : null}
            {others.map((r) => (
              <ReceiptCard key={r.id} r={r} />
            ))}
          </section>
        </>
      )}
      <section className="card stack" aria-labelledby="rebind-title">
        <h2 id="rebind-title" style={{ margin: 0 }}>
          Move an e-receipt mailbox
        </h2>
        <p className="small muted" style={{ margin: 0 }}>
          E-receipts sent to one mailbox pay the first wallet that claimed one. When a rider moves to a new wallet, enter the address
          their receipts are sent to and the new wallet.
        </p>
        <Form method="post" className="stack" style={{ gap: '0.5rem' }}>
          <label htmlFor="rebind-mailbox" className="label">
            Receipt mailbox
          </label>
          <input id="rebind-mailbox" name="mailbox" type="email" className="input" required maxLength={254} placeholder="rider@example.com" />
          <label htmlFor="rebind-wallet" className="label">
            New wallet
          </label>
          <input id="rebind-wallet" name="wallet" className="input" required pattern="0x[0-9a-fA-F]{40}" placeholder="0x…" />
          <button type="submit" name="intent" value="rebind" className="btn secondary block">
            Move Mailbox
          </button>
        </Form>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { requireAdmin } from '~/auth/auth.server'
import { AdminNav } from '~/components/admin-nav'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PASSPORT_EXPLAINED } from '~/receipts/standing'
import styles from '~/styles/scan.css'
import { handleReviewAction } from './action.server'
import { AuditCard } from './audit-card'
import { GroupCard } from './group-card'
import { Pager } from './pager'
import { pageParam, reviewPageData } from './queue.server'
import { ReceiptCard } from './receipt-card'

// Staff review (issues 31, 38): the whole queue counted and paged, new wallets' receipts grouped
// apart from established wallets', and the audits of automatic photo approvals; the loader data,
// the decisions and the cards live beside this module.

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]

export const meta: MetaFunction = () => [{ title: 'Receipt Review · ReCircle' }]

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request)
  const params = new URL(request.url).searchParams
  return json(await reviewPageData({ page: pageParam(params.get('page')), auditPage: pageParam(params.get('audits')) }))
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request)
  return handleReviewAction(request, admin)
}

export default function AdminReceipts() {
  const { total, page, pageCount, queue, newWallets, audits } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { search } = useLocation()
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
      <p data-testid="queue-total">
        <strong>
          {total} {total === 1 ? 'receipt' : 'receipts'} waiting
        </strong>
        {pageCount > 1 ? <span className="muted"> · page {page} of {pageCount}</span> : null}
      </p>
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
              Photo receipts of wallets without standing wait here, grouped when the wallets share a browser or an inviter, or
              send the same trip. Wallets that only share an address are listed beside a group and decided one by one.
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
      <Pager label="Review queue pages" param="page" page={page} pageCount={pageCount} search={search} />
      <section className="stack" aria-labelledby="audits-title" data-testid="audits">
        <h2 id="audits-title">Audits ({audits.total})</h2>
        <p className="small muted" style={{ margin: 0 }}>
          A share of automatic photo approvals, sampled by the server, and photos whose trip was paid to another wallet&apos;s
          verified e-receipt. Their credit matures before it can be claimed; rejecting one as fraud takes back every maturing photo
          credit of the wallet and its standing.
        </p>
        {audits.items.length === 0 ? <p className="small muted">None waiting.</p> : null}
        {audits.items.map((a) => (
          <AuditCard key={a.id} a={a} />
        ))}
        <Pager label="Audit pages" param="audits" page={audits.page} pageCount={audits.pageCount} search={search} />
      </section>
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

import { Form, useNavigation } from '@remix-run/react'
import { shortAddress } from '~/chain/networks'
import type { ReviewGroupView } from './queue.server'

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/**
 * Wallets without standing that travel together (issues 31, 38): what ties them (strong links only),
 * who invited them, the wallets seen at one of their addresses (decided apart), and one decision for
 * all their waiting receipts. The receipts themselves follow, each with its own card.
 */
export function GroupCard({ group, index }: { group: ReviewGroupView; index: number }) {
  const navigation = useNavigation()
  const ids = group.receiptIds.join(',')
  const busy = navigation.state !== 'idle' && navigation.formData?.get('receiptIds') === ids
  const titleId = `group-${index}`
  return (
    <section className="card stack review-group" aria-labelledby={titleId} data-testid="review-group">
      <h3 id={titleId} style={{ margin: 0 }}>
        {group.wallets.length > 1 ? `${plural(group.wallets.length, 'wallet')} together` : 'One new wallet'} ·{' '}
        {plural(group.receiptIds.length, 'receipt')}
        {/* Names each group apart (two groups of one wallet would read the same to a screen reader). */}
        <span className="muted"> · {shortAddress(group.wallets[0] ?? '')}</span>
      </h3>
      {group.links.length ? (
        <ul className="review-list small" aria-label="What ties these wallets together">
          {group.links.map((link) => (
            <li key={link}>{link}</li>
          ))}
        </ul>
      ) : null}
      <p className="small muted" style={{ margin: 0 }}>
        Wallets: {group.wallets.map((w) => shortAddress(w)).join(', ')} · receipts {group.receiptIds.map((id) => `#${id}`).join(', ')}
      </p>
      {group.referrers.length ? (
        <p className="small" style={{ margin: 0 }} data-testid="group-referrers">
          Invited by {group.referrers.map((r) => `${shortAddress(r.wallet)} (user #${r.userId})`).join(', ')}: each invitee&apos;s first
          approved receipt pays the inviter 15 B3TR.
        </p>
      ) : null}
      {group.addressTies.length ? (
        <div className="small" data-testid="group-address-ties">
          <strong>{group.addressTieLabel}, decide each on its own:</strong>{' '}
          {group.addressTies.map((t) => `${shortAddress(t.wallet)} (user #${t.userId})`).join(', ')}. A shared address alone is no
          proof: those wallets are not part of this group&apos;s decisions.
        </div>
      ) : null}
      {group.wallets.length > 1 || group.receiptIds.length > 1 ? (
        <div className="stack" style={{ gap: '0.5rem' }}>
          <Form method="post">
            <input type="hidden" name="receiptIds" value={ids} />
            <button type="submit" name="intent" value="approve-group" className="btn secondary block" disabled={busy}>
              Approve all {group.receiptIds.length}
            </button>
          </Form>
          <Form method="post" className="stack" style={{ gap: '0.5rem' }}>
            <input type="hidden" name="receiptIds" value={ids} />
            <label htmlFor={`${titleId}-reason`} className="label">
              Reason for rejecting all
            </label>
            <input id={`${titleId}-reason`} name="reason" className="input" required minLength={3} maxLength={300} placeholder="e.g. Drawn by one device" />
            <label className="small row" style={{ gap: '0.4rem', alignItems: 'center' }}>
              <input type="checkbox" name="fraud" value="on" /> Rejected as fraud: these {group.wallets.length} wallets lose their standing
            </label>
            <label className="small row" style={{ gap: '0.4rem', alignItems: 'center' }}>
              <input type="checkbox" name="signal" value="on" /> Also signal these {group.wallets.length} wallets on VeBetter Passport (one
              transaction each)
            </label>
            <button type="submit" name="intent" value="reject-group" className="btn danger block" disabled={busy}>
              Reject all {group.receiptIds.length}
            </button>
          </Form>
        </div>
      ) : null}
    </section>
  )
}

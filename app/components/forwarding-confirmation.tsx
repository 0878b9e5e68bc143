import { Form } from '@remix-run/react'
import { Icon } from '~/components/icons'

/** A mail provider's forwarding confirmation as its owner sees it (issue 39). */
export type ConfirmationCardData = {
  id: number
  provider: string
  code: string | null
  link: string | null
  accountHint: string | null
  expiresAt: string
}

const untilUtc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`

/**
 * The code and the link a provider mailed to the rider's forwarding address before it forwards
 * anything, with what confirming does. Rendered only for the address's owner. The link opens the
 * provider's page in a new tab without a Referer; "Done" (a plain form) hides the card.
 */
export function ForwardingConfirmations({ confirmations, action }: { confirmations: ConfirmationCardData[]; action: string }) {
  if (confirmations.length === 0) return null
  return (
    <>
      {confirmations.map((c) => (
        <section key={c.id} className="card stack forwarding-confirmation" aria-labelledby={`confirmation-${c.id}`} data-testid="forwarding-confirmation">
          <h2 id={`confirmation-${c.id}`} className="card-title" style={{ margin: 0 }}>
            <Icon name="mail" aria-hidden="true" /> Confirm forwarding from {c.provider}
          </h2>
          <p style={{ margin: 0 }}>
            {c.provider}
            {c.accountHint ? ` (${c.accountHint})` : ''} asks to forward mail to your ReCircle address. Confirming lets it forward the
            receipts your filter picks, which are verified and paid at once.
          </p>
          {c.code ? (
            <p style={{ margin: 0 }}>
              Confirmation code:{' '}
              <strong className="confirmation-code" data-testid="confirmation-code">
                {c.code}
              </strong>
            </p>
          ) : null}
          {c.link ? (
            <a href={c.link} className="btn block" target="_blank" rel="noopener noreferrer" referrerPolicy="no-referrer" data-testid="confirmation-link">
              Confirm in {c.provider}
            </a>
          ) : null}
          <p className="small muted" style={{ margin: 0 }}>
            Or type the code in {c.provider}&rsquo;s forwarding settings. Only you see this; valid until {untilUtc(c.expiresAt)}.
          </p>
          <Form method="post" action={action} className="row" style={{ justifyContent: 'flex-end' }}>
            <input type="hidden" name="intent" value="dismiss-confirmation" />
            <input type="hidden" name="confirmationId" value={c.id} />
            <button type="submit" className="btn secondary small">
              Done
            </button>
          </Form>
        </section>
      ))}
    </>
  )
}

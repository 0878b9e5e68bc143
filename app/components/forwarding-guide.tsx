/**
 * The e-receipt set-up guide (issue 39): for each mail provider, what really works on a phone and on
 * a computer. Plain <details>, one per provider, so it reads at 360 px without JavaScript. Only what
 * can work is offered: automatic forwarding where a rule relays the original (its signature intact,
 * so it is paid at once), a forward as an attachment where an app has one (computers), saving an
 * .eml where an app can, and on phones the inline forward, which is read but checked like a photo.
 * Without forwarding set up on the server, only the .eml upload is shown.
 */
import type { ReactNode } from 'react'

type GuideProps = {
  /** The server takes forwarded mail (INBOUND_DOMAIN). */
  forwarding: boolean
  /** The rider's address, or null when not signed in (the steps then name it). */
  address: string | null
  /** `from:(uber.com OR lyftmail.com …)` */
  gmailFilter: string
  domains: string[]
}

type Section = { title: string; steps: ReactNode[] }
type Provider = { id: string; name: string; gist: string; sections: Section[] }

const AUTO = 'Forward every receipt automatically (paid at once)'
const ONE = 'Forward one receipt as an attachment (computer)'
const PHONE = 'On a phone'
const SAVE = 'Save it as an .eml to upload'
const INLINE = 'A phone forwards inline: the receipt is read, but its sender cannot be verified, so it is checked like a photo (by our team until your wallet has an approved receipt). Set up automatic forwarding once, on a computer, to be paid at once.'

function providers({ address, gmailFilter, domains }: GuideProps): Provider[] {
  const to = address ? <code className="forwarding-address">{address}</code> : 'your ReCircle address'
  const list = domains.join(', ')
  return [
    {
      id: 'gmail',
      name: 'Gmail',
      gist: 'A filter forwards new receipts automatically, set up once on gmail.com. The Gmail app forwards inline.',
      sections: [
        {
          title: AUTO,
          steps: [
            <>On a computer (gmail.com; the Gmail app has no forwarding settings): Settings ⚙ → See all settings → Forwarding and POP/IMAP → Add a forwarding address → {to} → Next → Proceed.</>,
            'Gmail mails ReCircle a confirmation first. It appears on your ReCircle Home and on this page with its code and a Confirm button: tap Confirm (or type the code in Gmail’s Verify box).',
            <>
              Leave “Forward a copy of incoming mail” off. Instead make a filter for receipts only: in Gmail’s search box type{' '}
              <code className="filter-query" data-testid="gmail-filter">
                {gmailFilter}
              </code>{' '}
              → Show search options (☰) → Create filter → Forward it to {to} → Create filter.
            </>,
            'Gmail then relays each new receipt unchanged, with the service’s signature, and ReCircle pays it at once.',
          ],
        },
        { title: ONE, steps: [<>gmail.com: open the receipt, ⋮ next to Reply → Forward as attachment, and send it to {to}.</>] },
        { title: PHONE, steps: [<>Gmail app: ⋮ → Forward to {to}. {INLINE}</>] },
        { title: SAVE, steps: ['gmail.com on a computer: open the receipt, ⋮ → Download message. The file ends in .eml: upload it on Scan.'] },
      ],
    },
    {
      id: 'outlook',
      name: 'Outlook',
      gist: 'A rule on outlook.com redirects new receipts automatically. The Outlook app forwards inline.',
      sections: [
        {
          title: AUTO,
          steps: [
            <>On a computer (outlook.com; the Outlook app has no rules): Settings ⚙ → Mail → Rules → Add new rule. Name it “ReCircle receipts”.</>,
            <>Condition: Sender address includes, one entry per service: {list}. Action: Redirect to {to}. Save.</>,
            'Redirect sends the receipt on as it came, with the service’s signature, so it is paid at once. Outlook sends ReCircle no confirmation; if Outlook says forwarding is blocked for your account, use Forward as attachment instead.',
          ],
        },
        { title: ONE, steps: [<>outlook.com or Outlook for Windows and Mac: open the receipt, … → Forward → Forward as attachment, and send it to {to}.</>] },
        { title: PHONE, steps: [<>Outlook app: … → Forward to {to}. {INLINE}</>] },
        { title: SAVE, steps: ['outlook.com: open the receipt, … → Save → Download; Outlook for Windows: File → Save As. Upload the .eml on Scan.'] },
      ],
    },
    {
      id: 'icloud',
      name: 'iCloud Mail',
      gist: 'Rules on iCloud.com forward new receipts automatically. The iPhone’s Mail app has no rules.',
      sections: [
        {
          title: AUTO,
          steps: [
            <>Rules are made on iCloud.com in a browser on a computer (not in the iPhone’s Mail app): Mail → ⚙ at the top of the mailbox list → Rules → Add a Rule.</>,
            <>If a message “is from” a service’s domain ({list}; one rule each), then “Forward to” {to}. Done. A new rule can take 15 minutes to start.</>,
            'iCloud sends ReCircle no confirmation. Home shows each forwarded receipt: verified ones are paid at once.',
          ],
        },
        { title: PHONE, steps: [<>iPhone and iPad Mail: tap the reply arrow → Forward to {to}. {INLINE}</>] },
      ],
    },
    {
      id: 'apple-mail',
      name: 'Apple Mail',
      gist: 'On a Mac: a rule that redirects, Forward as Attachment, or Save As. On an iPhone: Forward, checked like a photo.',
      sections: [
        {
          title: AUTO,
          steps: [<>Mac: Mail → Settings → Rules → Add Rule: “From” contains each domain ({list}; Any), action “Redirect Message” to {to}. Mac rules run only while Mail is open; iCloud.com rules (above) run always.</>],
        },
        { title: ONE, steps: [<>Mac: select the receipt, Message → Forward as Attachment, and send it to {to}.</>] },
        { title: PHONE, steps: [<>iPhone and iPad: tap the reply arrow → Forward to {to}. {INLINE}</>] },
        { title: SAVE, steps: ['Mac: select the receipt, File → Save As, Format: Raw Message Source. Upload the .eml on Scan.', 'iPhone and iPad: Mail cannot save a message as a file.'] },
      ],
    },
    {
      id: 'other',
      name: 'Yahoo Mail, Proton Mail and others',
      gist: 'Forward a receipt as it is: it is read, and checked like a photo.',
      sections: [
        {
          title: AUTO,
          steps: [
            'Yahoo Mail and Proton Mail forward automatically only on paid plans, and only after the forwarding address confirms a mail whose form ReCircle does not know yet, so automatic forwarding from them is not offered here.',
          ],
        },
        { title: PHONE, steps: [<>Forward the receipt from the app or the website to {to}. {INLINE}</>] },
      ],
    },
  ]
}

export function ForwardingGuide(props: GuideProps) {
  return (
    <section className="stack guide" aria-labelledby="guide-title" style={{ gap: '0.75rem' }}>
      <h2 id="guide-title" className="sr-only">
        Set-up guide for your mail
      </h2>
      {providers(props).map((p) => {
        const sections = props.forwarding ? p.sections : p.sections.filter((s) => s.title === SAVE)
        if (sections.length === 0) return null
        return (
          <section key={p.id} className="card stack" aria-labelledby={`guide-${p.id}-title`} data-testid={`guide-${p.id}`} style={{ gap: '0.4rem' }}>
            <h2 id={`guide-${p.id}-title`} className="card-title" style={{ margin: 0 }}>
              {p.name}
            </h2>
            {props.forwarding ? (
              <p className="small muted" style={{ margin: 0 }}>
                {p.gist}
              </p>
            ) : null}
            {/* Without forwarding only the short .eml steps remain: shown open. */}
            <details className="faq" open={!props.forwarding}>
              <summary>{props.forwarding ? 'Steps for phone and computer' : 'How to save the e-mail'}</summary>
              {sections.map((s) => (
                <div key={s.title}>
                  <h3 className="small" style={{ margin: '0.75rem 0 0' }}>
                    {s.title}
                  </h3>
                  <ol className="review-list">
                    {s.steps.map((step, i) => (
                      <li key={i}>{step}</li>
                    ))}
                  </ol>
                </div>
              ))}
            </details>
          </section>
        )
      })}
    </section>
  )
}

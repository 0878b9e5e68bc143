import { Link } from '@remix-run/react'
import type { MoneyLine } from '~/rewards/money-lines'

/**
 * Issue 40: the B3TR that are not claimable yet but will be, in plain words: what receipts in review
 * will credit if approved, and claims on their way to the wallet. Each line links where to see more.
 * The claimable balance and the maturing amount stand above it (wallet card, Tokens' header).
 */
export function MoneyInFlight({ lines }: { lines: MoneyLine[] }) {
  const shown = lines.filter((l) => l.key === 'in-review' || l.key === 'on-its-way')
  if (shown.length === 0) return null
  return (
    <ul className="money-in-flight" aria-label="B3TR on the way" data-testid="money-in-flight">
      {shown.map((line) => (
        <li key={line.key} data-testid={`money-${line.key}`}>
          <Link to={line.href}>{line.text}</Link>
        </li>
      ))}
    </ul>
  )
}

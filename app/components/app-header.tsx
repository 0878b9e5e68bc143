import { Link } from '@remix-run/react'
import { b3trText } from '~/rewards/money'
import { plural } from '~/utils/text'
import { Icon, LogoMark } from './icons'

export function AppHeader({
  user,
  isAdmin,
  children,
}: {
  user: { currentStreak: number; balanceMilli: number } | null
  isAdmin: boolean
  /** The toasts (issue 40): inside the sticky header, so they push the page down instead of covering it. */
  children?: React.ReactNode
}) {
  const streak = user?.currentStreak ?? 0
  const balance = user?.balanceMilli ?? 0
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <Link to="/" className="brand" aria-label="ReCircle home">
          <LogoMark />
          <span className="brand-name">ReCircle</span>
        </Link>
        <div className="row">
          {isAdmin ? (
            <Link to="/admin/receipts" className="pill admin">
              Admin
            </Link>
          ) : null}
          {/* Issue 40: each chip says what it counts, on screen ("0 days", "0.0 B3TR") and to a screen
              reader ("Streak: 0 days", "Balance: 0.0 B3TR"); role img makes the label the chip's name. */}
          <span className="pill streak" role="img" aria-label={`Streak: ${plural(streak, 'day')}`} title="Your streak: days in a row with a verified receipt" data-testid="header-streak">
            <Icon name="flame" width={16} height={16} /> {plural(streak, 'day')}
          </span>
          <span className="pill" role="img" aria-label={`Balance: ${b3trText(balance)}`} title="Your B3TR balance" data-testid="header-balance">
            <Icon name="coins" width={16} height={16} /> {b3trText(balance)}
          </span>
        </div>
      </div>
      {children}
    </header>
  )
}

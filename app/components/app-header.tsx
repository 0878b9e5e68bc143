import { Link } from '@remix-run/react'
import { formatB3tr } from '~/rewards/money'
import { plural } from '~/utils/text'
import { Icon, LogoMark } from './icons'

export function AppHeader({
  user,
  isAdmin,
}: {
  user: { currentStreak: number; balanceMilli: number } | null
  isAdmin: boolean
}) {
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <Link to="/" className="brand" aria-label="ReCircle home">
          <LogoMark />
          <span>ReCircle</span>
        </Link>
        <div className="row">
          {isAdmin ? (
            <Link to="/admin/receipts" className="pill admin">
              Admin
            </Link>
          ) : null}
          <span className="pill streak" aria-label={`Streak: ${plural(user?.currentStreak ?? 0, 'day')}`} data-testid="header-streak">
            <Icon name="flame" width={16} height={16} /> {user?.currentStreak ?? 0}
          </span>
          <span className="pill" aria-label={`Balance: ${formatB3tr(user?.balanceMilli ?? 0)} B3TR`} data-testid="header-balance">
            <Icon name="coins" width={16} height={16} /> {formatB3tr(user?.balanceMilli ?? 0)}
          </span>
        </div>
      </div>
    </header>
  )
}

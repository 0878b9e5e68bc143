import { Link, useLocation } from '@remix-run/react'
import { Icon, type IconName } from './icons'

const TABS: { to: string; label: string; icon: IconName }[] = [
  { to: '/home', label: 'Home', icon: 'home' },
  { to: '/scan', label: 'Scan', icon: 'camera' },
  { to: '/achievements', label: 'Achievements', icon: 'trophy' },
  { to: '/profile', label: 'Profile', icon: 'user' },
  { to: '/transactions', label: 'Tokens', icon: 'coins' },
]

/**
 * Without a wallet, tapping a tab only scrolls to the top (spec 1 §2). Without JavaScript the links
 * navigate and the server's wallet gate answers instead.
 */
export function BottomNav({ connected }: { connected: boolean }) {
  const { pathname } = useLocation()
  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul>
        {TABS.map((tab) => {
          const active = pathname === tab.to || pathname.startsWith(`${tab.to}/`)
          return (
            <li key={tab.to}>
              <Link
                to={tab.to}
                aria-current={active ? 'page' : undefined}
                onClick={(event) => {
                  if (!connected && tab.to !== '/home') {
                    event.preventDefault()
                    window.scrollTo({ top: 0, behavior: 'smooth' })
                  }
                }}
              >
                <Icon name={tab.icon} />
                <span>{tab.label}</span>
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

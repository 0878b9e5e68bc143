import { NavLink } from '@remix-run/react'

// Short labels: three to a row of the segmented bar at 360 px.
const LINKS = [
  { to: '/admin', label: 'Overview' },
  { to: '/admin/receipts', label: 'Receipts' },
  { to: '/admin/pending-submissions', label: 'Submissions' },
  { to: '/admin/feedback', label: 'Feedback' },
  { to: '/admin/payouts', label: 'Payouts' },
  { to: '/contract-status', label: 'Contract' },
  { to: '/admin/debug-logs', label: 'Debug logs' },
]

export function AdminNav() {
  return (
    <nav aria-label="Admin" className="admin-nav">
      {LINKS.map((l) => (
        // `end`: Overview is current on /admin only, not on every page under it.
        <NavLink key={l.to} to={l.to} end>
          {l.label}
        </NavLink>
      ))}
    </nav>
  )
}

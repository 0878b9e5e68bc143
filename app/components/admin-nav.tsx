import { NavLink } from '@remix-run/react'

// Short labels: the six fit a 3 x 2 segmented bar at 360 px.
const LINKS = [
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
        <NavLink key={l.to} to={l.to}>
          {l.label}
        </NavLink>
      ))}
    </nav>
  )
}

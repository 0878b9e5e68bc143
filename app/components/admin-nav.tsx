import { NavLink } from '@remix-run/react'

const LINKS = [
  { to: '/admin/receipts', label: 'Receipts' },
  { to: '/admin/pending-submissions', label: 'Store submissions' },
  { to: '/admin/feedback', label: 'Feedback' },
  { to: '/admin/payouts', label: 'Payouts' },
  { to: '/contract-status', label: 'Contract status' },
  { to: '/admin/debug-logs', label: 'Debug logs' },
]

export function AdminNav() {
  return (
    <nav aria-label="Admin" className="chips">
      {LINKS.map((l) => (
        <NavLink key={l.to} to={l.to} className="chip" style={({ isActive }) => (isActive ? { background: 'var(--green-600)', color: '#fff' } : undefined)}>
          {l.label}
        </NavLink>
      ))}
    </nav>
  )
}

import { Link } from '@remix-run/react'

export function AppFooter() {
  return (
    <footer className="app-footer">
      <nav aria-label="Support">
        <Link to="/feedback">Send Feedback</Link>
        <Link to="/help">Need Help?</Link>
        <Link to="/terms-of-service">Terms</Link>
      </nav>
      <p>© {new Date().getUTCFullYear()} ReCircle. Rewards on the VeChain test network.</p>
    </footer>
  )
}

import { Link } from '@remix-run/react'

/**
 * Previous / next links between pages of a list (issue 38): plain links, so paging works without
 * JavaScript. `param` names this list's page in the query; the other list's stays as it is.
 */
export function Pager({ label, param, page, pageCount, search }: { label: string; param: 'page' | 'audits'; page: number; pageCount: number; search: string }) {
  if (pageCount <= 1) return null
  const href = (n: number) => {
    const params = new URLSearchParams(search)
    if (n > 1) params.set(param, String(n))
    else params.delete(param)
    const query = params.toString()
    return `/admin/receipts${query ? `?${query}` : ''}`
  }
  return (
    <nav className="row between" aria-label={label} data-testid={`pager-${param}`}>
      {page > 1 ? (
        <Link to={href(page - 1)} className="btn secondary" rel="prev">
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="small muted">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className="btn secondary" rel="next">
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}

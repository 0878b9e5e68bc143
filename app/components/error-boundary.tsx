import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react'
import { Icon } from './icons'

/** One boundary for every route: a clear message, never a stack trace. */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFound />
    const message =
      typeof error.data === 'string' ? error.data : (error.data as { error?: string } | null)?.error ?? error.statusText
    return (
      <div className="gate" role="alert">
        <h1>{error.status === 403 ? 'Not allowed' : 'Something went wrong'}</h1>
        <p className="muted">{message || `Error ${error.status}`}</p>
        <Link to="/home" className="btn">
          Back to Home
        </Link>
      </div>
    )
  }
  return (
    <div className="gate" role="alert">
      <h1>Something went wrong</h1>
      <p className="muted">An unexpected error happened. Please try again.</p>
      <Link to="/home" className="btn">
        Back to Home
      </Link>
    </div>
  )
}

export function NotFound() {
  return (
    <div className="gate">
      <div className="icon-circle" aria-hidden="true">
        <Icon name="help" width={32} height={32} />
      </div>
      <h1>404 Page Not Found</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="btn">
        Go Home
      </Link>
    </div>
  )
}

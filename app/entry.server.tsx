import type { EntryContext } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import { renderToString } from 'react-dom/server'
import { getLogger } from '~/ops/logger.server'

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  if (responseStatusCode === 405) {
    // A POST to a page without an action: a plain answer. The page would name route modules (its
    // error text and its script tags), and there is nothing for a person to do on it.
    responseHeaders.set('Content-Type', 'text/plain; charset=utf-8')
    responseHeaders.set('Allow', 'GET, HEAD')
    return new Response(PLAIN_MESSAGES[405], { status: 405, headers: responseHeaders })
  }
  // A page is rendered to one string, not streamed: no page suspends (no `defer`, no Suspense), so
  // streaming would send the same bytes through a Node stream and a web stream; one string serves
  // 13–24 % more pages per second (docs/decisions/071). A render error throws here, and Remix then
  // renders the error boundary.
  const html = renderToString(<RemixServer context={remixContext} url={request.url} />)
  responseHeaders.set('Content-Type', 'text/html')
  responseHeaders.set('X-Content-Type-Options', 'nosniff')
  responseHeaders.set('Referrer-Policy', 'same-origin')
  return new Response('<!DOCTYPE html>' + html, { headers: responseHeaders, status: responseStatusCode })
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (hideRouteIds(error)) return
  if (request.signal.aborted) return
  // The path only: a query string may carry what a user typed.
  const path = new URL(request.url).pathname
  getLogger().error({ reqId: request.headers.get('x-request-id') ?? undefined, path, err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) }, 'request failed')
}

const PLAIN_MESSAGES: Record<number, string> = { 400: 'Bad request', 403: 'Forbidden', 405: 'Method not allowed' }

/**
 * Remix's own 400/403/405 errors name route modules ('…did not provide an `action` for route
 * "routes/help"…'). handleError sees each one before it is serialised (`_data` and resource requests
 * answer it as JSON), so its text is replaced here, in place: Remix has no other hook. The inner
 * `error` becomes a plain object so that production too answers the message rather than "Unexpected
 * Server Error". Returns true for such an error: a client's mistake, not worth a log line.
 */
function hideRouteIds(error: unknown): boolean {
  if (!isRouteErrorResponse(error) || !(error as { internal?: boolean }).internal) return false
  const message = PLAIN_MESSAGES[error.status]
  if (!message) return false
  Object.assign(error, { data: message, error: { message, stack: undefined } })
  return true
}

/** Called by the server on SIGTERM/SIGINT: stop the OCR workers and the second reader of this build's module graph. */
export async function shutdown() {
  const [{ closeOcrPool }, { closePaddleReader }] = await Promise.all([import('~/ocr/tesseract.server'), import('~/ocr/paddle.server')])
  await Promise.all([closeOcrPool(), closePaddleReader()])
}

/** Called by the server once it listens: load the second reader's models now, not on a user's photo. */
export async function warmUp() {
  const [{ getEnv }, { getPaddleReader }] = await Promise.all([import('~/utils/env.server'), import('~/ocr/paddle.server')])
  const env = getEnv()
  // A web instance in queue mode never analyses a photo (npm run worker does): no models to load.
  if (env.SECOND_READER !== 'off' && env.RECEIPT_ANALYSIS !== 'queue') await getPaddleReader().warmUp()
}

import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable, type EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'

const ABORT_DELAY = 5_000

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const waitForAll = isbot(request.headers.get('user-agent') ?? '')
  return new Promise((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html')
          responseHeaders.set('X-Content-Type-Options', 'nosniff')
          responseHeaders.set('Referrer-Policy', 'same-origin')
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Log the details on the server only; the page shows the error boundary.
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, ABORT_DELAY)
  })
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  console.error(error)
}

/** Called by the server on SIGTERM/SIGINT: stop the OCR workers of this build's module graph. */
export async function shutdown() {
  const { closeOcrPool } = await import('~/receipts/ocr.server')
  await closeOcrPool()
}

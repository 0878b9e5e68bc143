import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { resumeCapture } from '~/debug/capture.client'

// The debug console's capture stays on for the browser session (spec 2 §4), across page loads.
resumeCapture()

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  )
})

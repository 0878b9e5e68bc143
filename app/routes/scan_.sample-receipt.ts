import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { renderSampleReceipt, sampleReceipt } from '~/receipts/sample-receipt.server'
import { getEnv, isTestWalletAllowed } from '~/utils/env.server'

/**
 * Issue 11: a fresh sample receipt to try the scan flow with, outside production only. It is
 * dated today and carries a random total and trip number; uploading it runs the real analysis.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!isTestWalletAllowed(getEnv())) throw new Response('Not Found', { status: 404 })
  await requireUser(request)
  const receipt = sampleReceipt(new Date())
  const png = await renderSampleReceipt(receipt)
  return new Response(new Uint8Array(png), {
    headers: {
      'Content-Type': 'image/png',
      'Content-Disposition': `attachment; filename="${receipt.filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

import { json, type ActionFunctionArgs } from '@remix-run/node'
import { requestHostname } from '~/auth/auth.server'
import { requireDebugAdmin } from '~/debug/access.server'
import { verifyWalletTestCertificate } from '~/debug/wallet-test.server'
import { getEnv } from '~/utils/env.server'
import { methodNotAllowed } from '~/utils/http.server'

export async function loader() {
  return methodNotAllowed()
}

/** The wallet test's last step: `{ certificate }` checked like sign-in; nobody is signed in. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed()
  await requireDebugAdmin(request, { api: true })
  const body = (await request.json().catch(() => null)) as { certificate?: unknown } | null
  if (!body || typeof body !== 'object' || !('certificate' in body)) {
    return json({ ok: false, checks: [], error: 'Body must be JSON: { certificate }' }, { status: 400 })
  }
  const result = verifyWalletTestCertificate(body.certificate, {
    now: new Date(),
    requestHostname: requestHostname(request),
    allowedDomains: getEnv().APP_DOMAINS,
  })
  return json(result, { status: result.ok ? 200 : 422 })
}

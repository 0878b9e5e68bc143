import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSelf } from '~/auth/auth.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireSelf(request, params.id)
  return json({ referralCode: user.referralCode }, { headers: { 'Cache-Control': 'no-store' } })
}

import { json } from '@remix-run/node'
import { requireAdmin } from '~/auth/auth.server'
import type { User } from '~/users/users.server'
import { getEnv } from '~/utils/env.server'

export function debugToolsEnabled(): boolean {
  return getEnv().ENABLE_DEBUG_TOOLS
}

/**
 * Decision 050: debug, reset and wallet-test pages answer 404 unless ENABLE_DEBUG_TOOLS=1, and then
 * only admins get in (403 for a signed-in non-admin; a visitor is sent to connect, an API call 401).
 */
export async function requireDebugAdmin(request: Request, opts: { api?: boolean } = {}): Promise<User> {
  if (!debugToolsEnabled()) {
    throw opts.api ? json({ error: 'Not Found', message: 'Not Found' }, { status: 404 }) : new Response('Not Found', { status: 404 })
  }
  return requireAdmin(request, opts)
}

import { createCookieSessionStorage } from '@remix-run/node'
import { z } from 'zod'
import { getEnv } from './env.server'

export const toastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(['default', 'success', 'destructive']).default('default'),
  durationMs: z.number().int().positive().optional(),
  /** Lets the page react once, e.g. the wallet-connected celebration. */
  event: z.enum(['wallet-connected']).optional(),
})
export type Toast = z.infer<typeof toastSchema>

function storage() {
  return createCookieSessionStorage({
    cookie: { name: '__toast', httpOnly: true, sameSite: 'lax', path: '/', secrets: [getEnv().SESSION_SECRET] },
  })
}

/** Flash a toast for the next page (post/redirect/get); the state travels in the cookie, not in memory. */
export async function toastCookie(request: Request, toast: Toast): Promise<string> {
  const s = storage()
  const session = await s.getSession(request.headers.get('Cookie'))
  session.flash('toast', toast)
  return s.commitSession(session)
}

export async function readToast(request: Request): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const s = storage()
  const session = await s.getSession(request.headers.get('Cookie'))
  const raw = session.get('toast')
  if (raw === undefined) return { toast: null, setCookie: null }
  const parsed = toastSchema.safeParse(raw)
  return { toast: parsed.success ? parsed.data : null, setCookie: await s.commitSession(session) }
}

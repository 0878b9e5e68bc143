import { json } from '@remix-run/node'
import { Refusal } from './refusal'

/**
 * The one place a refusal becomes an HTTP answer: its status, Retry-After when a retry can help,
 * and its JSON answer, or the page's own shape of it (`body`).
 */
export function refusalResponse<B = Record<string, unknown>>(refusal: Refusal, body?: (r: Refusal) => B) {
  const headers: Record<string, string> = refusal.retryAfter ? { 'Retry-After': String(refusal.retryAfter) } : {}
  return json(body ? body(refusal) : (refusal.answer() as B), { status: refusal.status, headers })
}

/** A function's failure as a route answers it: a refusal becomes its response, anything else is rethrown. */
export function refusalOrThrow(error: unknown) {
  if (error instanceof Refusal) return refusalResponse(error)
  throw error
}

import { json } from '@remix-run/node'
import { ReceiptRefusal } from '~/utils/receipt-refusal'

/**
 * The one place a refusal becomes an HTTP answer: its status, Retry-After when a retry can help,
 * and its JSON answer, or the page's own shape of it (`body`).
 */
export function refusalResponse<B = Record<string, unknown>>(refusal: ReceiptRefusal, body?: (r: ReceiptRefusal) => B) {
  const headers: Record<string, string> = refusal.retryAfter ? { 'Retry-After': String(refusal.retryAfter) } : {}
  return json(body ? body(refusal) : (refusal.answer() as B), { status: refusal.status, headers })
}

/** A function's failure as a route answers it: a refusal becomes its response, anything else is rethrown. */
export function refusalOrThrow(error: unknown) {
  if (error instanceof ReceiptRefusal) return refusalResponse(error)
  throw error
}

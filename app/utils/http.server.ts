import { json } from '@remix-run/node'

/** 405 for the POST-only API routes; carries `error` and `message`, the two keys the spec's clients read. */
export function methodNotAllowed() {
  return json({ error: 'Use POST', message: 'Use POST' }, { status: 405, headers: { Allow: 'POST' } })
}

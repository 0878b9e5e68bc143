import { json } from '@remix-run/node'
import type { z } from 'zod'

/** 405 for the POST-only API routes; carries `error` and `message`, the two keys the spec's clients read. */
export function methodNotAllowed() {
  return json({ error: 'Use POST', message: 'Use POST' }, { status: 405, headers: { Allow: 'POST' } })
}

/**
 * The JSON body of a call about the signed-in user's own record. Throws a 400 naming the expected
 * `shape` when it doesn't parse, and a 403 when its `userId` is someone else's.
 */
export async function readOwnJsonBody<S extends z.ZodType<{ userId: number }>>(
  request: Request,
  userId: number,
  schema: S,
  shape: string,
): Promise<z.infer<S>> {
  const parsed = schema.safeParse(primitiveFields(await request.json().catch(() => null)))
  if (!parsed.success) throw json({ message: `Body must be ${shape}` }, { status: 400 })
  if (parsed.data.userId !== userId) throw json({ message: 'Forbidden' }, { status: 403 })
  return parsed.data
}

/**
 * The fields of a JSON body that can be read as form values: strings, numbers, booleans and null.
 * Objects and arrays are dropped, so schema coercion never meets `{"toString": "x"}` (which throws).
 */
export function primitiveFields(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {}
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value
  }
  return fields
}

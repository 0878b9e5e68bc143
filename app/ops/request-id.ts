/**
 * Pure: the id a request is logged under and answered with (`X-Request-Id`). A proxy's id is taken
 * only behind a trusted proxy (TRUST_PROXY), and only when it looks like an id: a header is the
 * client's input, and a log line must not carry whatever a client chose to write into it.
 */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

export function requestIdFor(header: string | string[] | undefined, trustProxy: boolean, generate: () => string): string {
  const value = Array.isArray(header) ? header[0] : header
  if (trustProxy && value !== undefined && ACCEPTABLE_ID.test(value)) return value
  return generate()
}

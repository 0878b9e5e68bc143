const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * A non-GET request whose Origin names another origin is refused (CSRF). Requests without an Origin
 * header (old browsers, server-to-server) pass: the SameSite=Lax session cookie still protects them.
 */
export function isCrossOriginWrite(method: string, originHeader: string | null | undefined, requestOrigin: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false
  if (originHeader === null || originHeader === undefined || originHeader === '') return false
  return originHeader.toLowerCase() !== requestOrigin.toLowerCase()
}

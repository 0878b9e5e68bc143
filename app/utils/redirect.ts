const ORIGIN = 'http://x'
/** C0 controls (tab, CR, LF…), DEL and backslashes: browsers drop or rewrite them, and CR/LF break the header. */
const UNSAFE = /[\u0000-\u001f\u007f\\]/

/**
 * A same-site path to redirect to, or `fallback`. Only a path that starts with one `/` and, also
 * once percent-decoded, has no control characters or backslashes: `/\t/evil.com` and `/%09/evil.com`
 * reach evil.com in a browser. The answer is re-serialised by URL (so it is ASCII, safe in a header)
 * and must still be a same-origin path.
 */
export function safeRedirectTo(to: FormDataEntryValue | string | null | undefined, fallback = '/home'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//')) return fallback
  let decoded: string
  try {
    decoded = decodeURIComponent(to)
  } catch {
    return fallback
  }
  if (UNSAFE.test(to) || UNSAFE.test(decoded) || decoded.startsWith('//')) return fallback
  const url = new URL(to, ORIGIN)
  const path = url.pathname + url.search + url.hash
  // `/.//evil.com` serialises to `//evil.com`.
  if (url.origin !== ORIGIN || path.startsWith('//') || new URL(path, ORIGIN).origin !== ORIGIN) return fallback
  return path
}

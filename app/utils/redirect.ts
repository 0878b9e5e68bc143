/** Only same-site paths: `//host` and `/\host` would leave the site. */
export function safeRedirectTo(to: FormDataEntryValue | string | null | undefined, fallback = '/home'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  return to
}

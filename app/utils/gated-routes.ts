/** Routes behind the wallet gate (spec 1 §2, spec 2 §2). */
export const GATED_PREFIXES = [
  '/scan',
  '/profile',
  '/achievements',
  '/stores',
  '/add-store',
  '/invite-friend',
  '/transactions',
  '/rewards',
  '/contract-status',
  '/redeem',
  '/impact-explorer',
  '/admin',
  '/device',
]

export function isGatedPath(pathname: string) {
  return GATED_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`))
}

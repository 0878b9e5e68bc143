import { useRouteLoaderData } from '@remix-run/react'
import type { Toast } from './toast.server'

/** What the root loader (app/root.tsx) gives every page: declared here so views read it without importing the root route. */
export type RootData = {
  /** balanceMilli: claimable now; pendingMilli and maturing: credited and still maturing (issue 38). */
  user: { id: number; walletAddress: string; currentStreak: number; balanceMilli: number; pendingMilli: number; maturing: string | null } | null
  isAdmin: boolean
  testMode: boolean
  testWalletAllowed: boolean
  /** Where "contact support" leads: mailto: SUPPORT_EMAIL, else the feedback form (app/utils/support.ts). */
  supportHref: string
  toast: Toast | null
}

/** The signed-in user as the root loader saw it, for any route's view. */
export function useOptionalUser() {
  return useRouteLoaderData<RootData>('root')?.user ?? null
}

export function useRootData() {
  return useRouteLoaderData<RootData>('root')
}

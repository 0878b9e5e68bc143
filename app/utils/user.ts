import { useRouteLoaderData } from '@remix-run/react'
import type { loader as rootLoader } from '~/root'

/** The signed-in user as the root loader saw it, for any route's view. */
export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>('root')?.user ?? null
}

export function useRootData() {
  return useRouteLoaderData<typeof rootLoader>('root')
}

import type { MetaFunction } from '@remix-run/node'
import { NotFound } from '~/components/error-boundary'

export const meta: MetaFunction = () => [{ title: '404 Page Not Found · ReCircle' }]

export async function loader() {
  throw new Response('Not Found', { status: 404 })
}

export default function CatchAll() {
  return <NotFound />
}

export function ErrorBoundary() {
  return <NotFound />
}

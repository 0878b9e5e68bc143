import { json } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'

export function loader() {
  return json({ title: 'Hello' })
}

export default function Index() {
  const { title } = useLoaderData<typeof loader>()
  return <h1>{title}</h1>
}

import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { Outlet } from 'react-router-dom'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server'
import { loader as rootLoader } from '../../app/root'
import { getRequest } from './requests'

type LoaderArgs = { request: Request; params: Record<string, string | undefined> }
// A route module's loader takes Remix's LoaderFunctionArgs; `never` accepts any of them.
type RouteModule = { default: ComponentType; loader?: (args: never) => Promise<Response> }

/**
 * A page as the server renders it (no JavaScript involved): the app's root loader (signed-in user,
 * flashed toast) around one route module, through a data router. Returns what a reader sees,
 * without the hydration data and React's text separators.
 */
export async function renderRoute(routePath: string, module: RouteModule, url: string, cookie?: string): Promise<string> {
  const routes = [
    {
      id: 'root',
      path: '/',
      loader: (args: LoaderArgs) => rootLoader({ ...args, context: {} }),
      Component: Outlet,
      children: [
        {
          id: 'page',
          path: routePath.replace(/^\//, ''),
          loader: module.loader ? (args: LoaderArgs) => module.loader!({ ...args, context: {} } as never) : undefined,
          Component: module.default,
        },
      ],
    },
  ]
  const handler = createStaticHandler(routes)
  const context = await handler.query(getRequest(url, cookie))
  if (context instanceof Response) throw new Error(`Unexpected response ${context.status} for ${url}`)
  if (context.errors) throw new Error(`Route error for ${url}: ${JSON.stringify(context.errors)}`)
  const router = createStaticRouter(handler.dataRoutes, context)
  const html = renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }))
  return html.replace(/<!-- -->/g, '')
}

/** The visible text of rendered HTML: tags dropped, entities decoded, whitespace collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim()
}

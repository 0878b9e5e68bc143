import type { ServerBuild } from '@remix-run/node'
import * as entryServer from '../../app/entry.server'
import * as root from '../../app/root'

export type RouteEntry = [id: string, path: string, module: Record<string, unknown>]

/** The app's real root and entry with these routes (children of root), assembled the way `remix build` would. */
export function buildOf(routeList: RouteEntry[]): ServerBuild {
  const routes: Record<string, { id: string; parentId?: string; path: string; module: Record<string, unknown> }> = {
    root: { id: 'root', path: '', module: root },
  }
  for (const [id, path, module] of routeList) routes[id] = { id, parentId: 'root', path, module }
  const manifestRoutes = Object.fromEntries(
    Object.values(routes).map((r) => [
      r.id,
      {
        id: r.id,
        parentId: r.parentId,
        path: r.path,
        module: `/build/${r.id}.js`,
        imports: [],
        hasAction: 'action' in r.module,
        hasLoader: 'loader' in r.module,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: 'ErrorBoundary' in r.module,
      },
    ]),
  )
  return {
    mode: 'production',
    entry: { module: entryServer },
    routes,
    assets: { entry: { module: '/build/entry.client.js', imports: [] }, routes: manifestRoutes, url: '/build/manifest.js', version: 'test' },
    publicPath: '/build/',
    assetsBuildDirectory: 'public/build',
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true },
    isSpaMode: false,
    basename: undefined,
  } as unknown as ServerBuild
}

/** A build of resource routes only (the document is a stub): what scripts/server.ts serves in the edge tests. */
export function resourceBuild(routes: Record<string, { path: string; module: Record<string, unknown> }>): ServerBuild {
  return {
    mode: 'production',
    entry: { module: { default: () => new Response('document') } },
    routes: {
      root: { id: 'root', path: '', module: { default: () => null } },
      ...Object.fromEntries(Object.entries(routes).map(([id, r]) => [id, { id, parentId: 'root', ...r }])),
    },
    assets: { entry: { module: '/entry.js', imports: [] }, routes: {}, url: '/manifest.js', version: '1' },
    publicPath: '/build/',
    assetsBuildDirectory: 'public/build',
    future: {},
    isSpaMode: false,
    basename: '/',
  } as unknown as ServerBuild
}

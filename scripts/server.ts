import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import express from 'express'
import { isCrossOriginWrite } from '~/auth/csrf.server'

export type ServerOptions = {
  buildPath: string
  trustProxy: boolean
  getBuild?: () => Promise<ServerBuild>
}

/** The Express app around the Remix build: static assets, the CSRF check, then Remix. */
export function createServerApp({ buildPath, trustProxy, getBuild }: ServerOptions) {
  const app = express()
  app.disable('x-powered-by')
  if (trustProxy) app.set('trust proxy', true)

  app.use('/build', express.static(path.resolve('public/build'), { immutable: true, maxAge: '1y' }))
  app.use(express.static(path.resolve('public'), { maxAge: '1h' }))

  app.use((req, res, next) => {
    const requestOrigin = `${req.protocol}://${req.get('host')}`
    if (isCrossOriginWrite(req.method, req.get('origin'), requestOrigin)) {
      res.status(403).json({ error: 'Cross-origin request refused' })
      return
    }
    next()
  })

  const build = getBuild ?? (() => import(pathToFileURL(path.resolve(buildPath)).href) as Promise<ServerBuild>)
  app.all('*', createRequestHandler({ build, mode: process.env.NODE_ENV }))
  return app
}

import type { GlobalSetupContext } from 'vitest/node'
import { startAppServer, type AppServer } from './app-server'

let app: AppServer | undefined

/** One app server for the browser tests (payouts.e2e.ts starts its own, with a fake chain). */
export async function setup({ provide }: GlobalSetupContext) {
  app = await startAppServer()
  provide('baseUrl', app.baseUrl)
  provide('dbUrl', app.dbUrl)
}

export async function teardown() {
  await app?.stop()
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    dbUrl: string
  }
}

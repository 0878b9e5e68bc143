import fs from 'node:fs'
import { getEnv, type Env } from '~/utils/env.server'

// A local .env is optional; real environment variables win over it.
if (fs.existsSync('.env')) process.loadEnvFile('.env')

/** The checked environment, or a clear message and exit 1 (a script's first step). */
export function envOrExit(): Env {
  try {
    return getEnv()
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}

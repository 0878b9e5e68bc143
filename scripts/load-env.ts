import fs from 'node:fs'
import { parseSenderConfig } from '~/analysis/senders'
import { getEnv, type Env } from '~/utils/env.server'

// A local .env is optional; real environment variables win over it.
if (fs.existsSync('.env')) process.loadEnvFile('.env')

/** The checked environment, or a clear message and exit 1 (a script's first step). */
export function envOrExit(): Env {
  try {
    const env = getEnv()
    checkSenders(env.ERECEIPT_SENDERS)
    return env
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}

/** ERECEIPT_SENDERS names known transport services and domains, or the process does not start. */
function checkSenders(value: string) {
  try {
    parseSenderConfig(value)
  } catch (error) {
    throw new Error(`Invalid environment configuration:\n  ERECEIPT_SENDERS: ${(error as Error).message}`)
  }
}

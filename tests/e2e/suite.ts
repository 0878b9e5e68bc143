import { afterAll, beforeAll, inject } from 'vitest'
import type { Browser } from 'playwright-core'
import { createDb, type DB } from '../../db/db.server'
import { launchBrowser } from './browser'

/**
 * For a browser test file: a browser and a handle on the suite's database, opened before the file's
 * tests and handed to `open`, closed after them (scripts/dev/screenshots.ts imports browser.ts
 * outside vitest, so this lives apart).
 */
export function openBrowserAndDb(open: (opened: { browser: Browser; db: DB }) => void): void {
  let opened: { browser: Browser; db: DB } | null = null
  beforeAll(async () => {
    opened = { browser: await launchBrowser(), db: createDb(inject('dbUrl')) }
    open(opened)
  })
  afterAll(async () => {
    await opened?.browser.close()
    await opened?.db.destroy()
  })
}

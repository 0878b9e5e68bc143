import { sql } from 'kysely'
import type { DB } from '#db/db.server'
import { migrations } from '#db/migrations/index'

// Issue 25: /healthz says the process answers (no database call); /readyz says this instance should
// get traffic: the database answers, its migrations are the ones this code expects, and the
// instance is not shutting down. Answers carry a short reason and never a secret (no URL, no error
// text from the driver, which may name hosts and users).

export type Readiness = { ready: true } | { ready: false; reason: string }

/** A load balancer asks every few seconds: a database that takes longer than this is not ready. */
export const READINESS_TIMEOUT_MS = 1_000

export async function checkReadiness(db: DB, opts: { shuttingDown: boolean; timeoutMs?: number }): Promise<Readiness> {
  if (opts.shuttingDown) return { ready: false, reason: 'shutting down' }
  let timer: NodeJS.Timeout | undefined
  try {
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), opts.timeoutMs ?? READINESS_TIMEOUT_MS)
    })
    const applied = await Promise.race([appliedMigrations(db), late])
    if (applied === 'late') return { ready: false, reason: 'database timed out' }
    return migrationsReadiness(applied, Object.keys(migrations))
  } catch {
    return { ready: false, reason: 'database unavailable' }
  } finally {
    clearTimeout(timer)
  }
}

async function appliedMigrations(db: DB): Promise<string[] | null> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
    return rows.map((r) => r.name)
  } catch (error) {
    // No migration table: a database nobody migrated yet (a query error, not a connection error).
    if (/kysely_migration/.test((error as Error).message ?? '')) return null
    throw error
  }
}

/** Pure: ready when every migration this code knows has been applied. */
export function migrationsReadiness(applied: string[] | null, expected: string[]): Readiness {
  if (applied === null) return { ready: false, reason: 'database not migrated' }
  const missing = expected.filter((name) => !applied.includes(name)).length
  if (missing > 0) return { ready: false, reason: `${missing} migration${missing === 1 ? '' : 's'} pending` }
  return { ready: true }
}

import type { DB } from '#db/db.server'

/** The last reading of one chain check, shared by every instance through the database. */
export type ChainCheck = { name: string; ok: boolean; details: Record<string, unknown> | null; error: string | null; checkedAt: string }

export async function recordChainCheck(db: DB, name: string, input: { ok: boolean; details?: Record<string, unknown>; error?: string | null; now?: Date }) {
  const values = {
    ok: input.ok ? 1 : 0,
    details_json: input.details ? JSON.stringify(input.details) : null,
    error: input.error ?? null,
    checked_at: (input.now ?? new Date()).toISOString(),
  }
  await db
    .insertInto('chain_checks')
    .values({ name, ...values })
    .onConflict((oc) => oc.column('name').doUpdateSet(values))
    .execute()
}

export async function getChainCheck(db: DB, name: string): Promise<ChainCheck | null> {
  const row = await db.selectFrom('chain_checks').selectAll().where('name', '=', name).executeTakeFirst()
  if (!row) return null
  return {
    name: row.name,
    ok: row.ok === 1,
    details: row.details_json ? (JSON.parse(row.details_json) as Record<string, unknown>) : null,
    error: row.error,
    checkedAt: row.checked_at,
  }
}

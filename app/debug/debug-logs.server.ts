import type { DB } from '#db/db.server'
import type { DebugLogInput } from './debug-log'

export const DEBUG_LOG_RETENTION_DAYS = 30

export type DebugLog = {
  id: number
  userId: number
  walletAddress: string
  userAgent: string | null
  testType: string | null
  clientTimestamp: string | null
  lines: string[]
  createdAt: string
}

export async function saveDebugLog(db: DB, input: DebugLogInput & { userId: number; now?: Date }): Promise<number> {
  const row = await db
    .insertInto('debug_logs')
    .values({
      user_id: input.userId,
      user_agent: input.userAgent ?? null,
      test_type: input.testType ?? null,
      client_timestamp: input.timestamp ?? null,
      lines_json: JSON.stringify(input.logs),
      line_count: input.logs.length,
      created_at: (input.now ?? new Date()).toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Newest first, with the sender's wallet. */
export async function listDebugLogs(db: DB, opts: { limit?: number } = {}): Promise<DebugLog[]> {
  const rows = await db
    .selectFrom('debug_logs')
    .innerJoin('users', 'users.id', 'debug_logs.user_id')
    .select([
      'debug_logs.id',
      'debug_logs.user_id',
      'users.wallet_address',
      'debug_logs.user_agent',
      'debug_logs.test_type',
      'debug_logs.client_timestamp',
      'debug_logs.lines_json',
      'debug_logs.created_at',
    ])
    .orderBy('debug_logs.id', 'desc')
    .limit(opts.limit ?? 50)
    .execute()
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    walletAddress: r.wallet_address,
    userAgent: r.user_agent,
    testType: r.test_type,
    clientTimestamp: r.client_timestamp,
    lines: parseLines(r.lines_json),
    createdAt: r.created_at,
  }))
}

function parseLines(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.map(String) : []
  } catch {
    return []
  }
}

/** Housekeeping: logs older than 30 days. Idempotent, safe on every instance. */
export async function purgeOldDebugLogs(db: DB, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DEBUG_LOG_RETENTION_DAYS * 86_400_000).toISOString()
  const result = await db.deleteFrom('debug_logs').where('created_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}

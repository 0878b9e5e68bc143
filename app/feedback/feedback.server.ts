import type { DB } from '#db/db.server'

export async function createFeedback(
  db: DB,
  input: { userId: number | null; type: string; text: string; email: string | null },
  now = new Date(),
) {
  await db
    .insertInto('feedback')
    .values({ user_id: input.userId, type: input.type, text: input.text, email: input.email, created_at: now.toISOString() })
    .execute()
}

export async function listFeedback(db: DB, limit = 100) {
  return db.selectFrom('feedback').selectAll().orderBy('id', 'desc').limit(limit).execute()
}

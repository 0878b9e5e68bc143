import type { Kysely } from 'kysely'
import type { Database } from '#db/schema'
import { DAILY_ACTION_LIMIT } from '~/rewards/daily-limit'
import { utcDay } from '~/utils/calendar'

type Executor = Kysely<Database>

/**
 * Take one of the user's daily action slots (decision 003) inside the caller's transaction.
 * The primary key (user_id, day, slot) caps the day at DAILY_ACTION_LIMIT under any concurrency,
 * on SQLite and PostgreSQL, across instances. Returns the slot, or null when the day is full.
 */
export async function takeActionSlot(
  trx: Executor,
  input: { userId: number; kind: 'receipt' | 'store_submission'; refId?: number | null; now?: Date },
): Promise<{ day: string; slot: number } | null> {
  const now = input.now ?? new Date()
  const day = utcDay(now)
  for (let slot = 1; slot <= DAILY_ACTION_LIMIT; slot++) {
    const result = await trx
      .insertInto('action_slots')
      .values({ user_id: input.userId, day, slot, kind: input.kind, ref_id: input.refId ?? null, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'day', 'slot']).doNothing())
      .executeTakeFirst()
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) return { day, slot }
  }
  return null
}

/** Point a taken slot at the record it was used for (known only after inserting that record). */
export async function linkActionSlot(trx: Executor, userId: number, taken: { day: string; slot: number }, refId: number) {
  await trx
    .updateTable('action_slots')
    .set({ ref_id: refId })
    .where('user_id', '=', userId)
    .where('day', '=', taken.day)
    .where('slot', '=', taken.slot)
    .execute()
}

export async function countActionsToday(db: Executor, userId: number, now = new Date()): Promise<number> {
  const row = await db
    .selectFrom('action_slots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('day', '=', utcDay(now))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The facts standing.ts decides on, read for one wallet (a submission) or many (the review queue). */
import type { Kysely } from 'kysely'
import { sqlTrue } from '#db/db.server'
import type { Database } from '#db/schema'
import type { PassportCheckView } from './passport-signals'
import { decideStanding, type Standing } from './standing'

type Reader = Kysely<Database>

/** One query: three EXISTS over the wallet's receipts, each on the (user_id, status) index. */
export async function readStandingFacts(db: Reader, userId: number) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb.selectFrom('receipts').select('id').where('user_id', '=', userId).where('status', '=', 'approved').where('verified_sender', 'is not', null),
        )
        .as('ereceipt'),
      eb
        .exists(
          eb.selectFrom('receipts').select('id').where('user_id', '=', userId).where('status', '=', 'approved').where('reviewed_by_user_id', 'is not', null),
        )
        .as('staff'),
      eb
        .exists(eb.selectFrom('receipts').select('id').where('user_id', '=', userId).where('status', '=', 'rejected').where('rejected_as_fraud', '=', 1))
        .as('fraud'),
    ])
    .executeTakeFirstOrThrow()
  return { approvedEReceipt: sqlTrue(row.ereceipt), staffApproved: sqlTrue(row.staff), fraudRejection: sqlTrue(row.fraud) }
}

export async function getStanding(db: Reader, userId: number, passport: PassportCheckView | null): Promise<Standing> {
  return decideStanding({ ...(await readStandingFacts(db, userId)), passport })
}

/** Standing of several wallets at once (the review queue), each with the Passport view staff last saw. */
export async function getStandings(db: Reader, wallets: Array<{ userId: number; passport: PassportCheckView | null }>) {
  const ids = [...new Set(wallets.map((w) => w.userId))]
  const evidence = new Map(ids.map((id) => [id, { approvedEReceipt: false, staffApproved: false, fraudRejection: false }]))
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('receipts')
      .select(['user_id', 'status', 'verified_sender', 'reviewed_by_user_id', 'rejected_as_fraud'])
      .where('user_id', 'in', ids)
      .where('status', 'in', ['approved', 'rejected'])
      .execute()
    for (const r of rows) {
      const e = evidence.get(r.user_id)!
      if (r.status === 'approved' && r.verified_sender !== null) e.approvedEReceipt = true
      if (r.status === 'approved' && r.reviewed_by_user_id !== null) e.staffApproved = true
      if (r.status === 'rejected' && sqlTrue(r.rejected_as_fraud)) e.fraudRejection = true
    }
  }
  const out = new Map<number, Standing>()
  for (const w of wallets) if (!out.has(w.userId)) out.set(w.userId, decideStanding({ ...evidence.get(w.userId)!, passport: w.passport }))
  return out
}

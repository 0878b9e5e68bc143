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

/**
 * Standing of several wallets at once (the review queue, at most a page of them), each with the
 * Passport view staff last saw: the single wallet's three EXISTS per distinct wallet, so a wallet
 * with many decided receipts costs no more than one with a few.
 */
export async function getStandings(db: Reader, wallets: Array<{ userId: number; passport: PassportCheckView | null }>) {
  const first = new Map<number, PassportCheckView | null>()
  for (const w of wallets) if (!first.has(w.userId)) first.set(w.userId, w.passport)
  const standings = await Promise.all([...first].map(async ([userId, passport]) => [userId, await getStanding(db, userId, passport)] as const))
  return new Map<number, Standing>(standings)
}

/**
 * What an established wallet's standing rests on (issue 38, decision 109), for the audit rate of its
 * automatic photo approvals: an approved verified e-receipt, and how many of its receipts staff
 * looked at and found right (approved from review, or an audit cleared), counted up to two.
 */
export async function readEvidence(db: Reader, userId: number): Promise<{ approvedEReceipt: boolean; staffLooks: number }> {
  const looks = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('receipts')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', '=', 'approved')
        .where((w) => w.or([w('reviewed_by_user_id', 'is not', null), w('audit_status', '=', 'cleared')]))
        .limit(2)
        .as('looked'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const { approvedEReceipt } = await readStandingFacts(db, userId)
  return { approvedEReceipt, staffLooks: Number(looks.n) }
}

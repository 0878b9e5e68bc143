/**
 * Once across everyone (issue 21): a verified e-receipt's signature and trip id are claimed by one
 * receipt (unique keys), and the mailbox it was sent to belongs to the first wallet that claimed a
 * receipt from it. Staff can move a mailbox to another wallet.
 */
import type { DB } from '#db/db.server'
import { recordAudit } from '~/admin/audit.server'
import type { EReceiptFacts } from '~/analysis/stored-analysis'
import { MAILBOX_TAKEN_MESSAGE } from '../ereceipts/errors'

/**
 * The keys one e-receipt claims: its signature and printed trip number, once across everyone; and
 * the trip's printed minute, once per mailbox (or wallet, when the signature does not cover To), so
 * a tip-added resend of the same ride does not pay again (issue 37).
 */
export function claimKeys(facts: EReceiptFacts, userId: number): string[] {
  return [
    `sig:${facts.signatureId}`,
    ...(facts.tripKey ? [`trip:${facts.tripKey}`] : []),
    ...(facts.tripMoment ? [`moment:${facts.recipientHash ?? `user:${userId}`}:${facts.tripMoment}`] : []),
  ]
}

/**
 * Inside the submission's transaction: a second claim of a key fails on its primary key (409). A
 * mailbox bound to another wallet refuses; an unbound one is bound only by an approved receipt
 * (recipientHash is set only when the signature covers To), so a receipt waiting for review, or a
 * rewritten To, never takes a rider's mailbox.
 */
export async function claimEReceipt(
  trx: DB,
  input: { userId: number; receiptId: number; facts: EReceiptFacts; approved: boolean; now: Date },
): Promise<{ ok: true } | { ok: false; error: string }> {
  const now = input.now.toISOString()
  if (input.facts.recipientHash) {
    if (input.approved) await bindMailbox(trx, input.facts.recipientHash, input.userId, input.now)
    const owner = await mailboxOwner(trx, input.facts.recipientHash)
    if (owner !== null && owner !== input.userId) return { ok: false, error: MAILBOX_TAKEN_MESSAGE }
  }
  await trx
    .insertInto('ereceipt_claims')
    .values(claimKeys(input.facts, input.userId).map((key) => ({ key, receipt_id: input.receiptId, created_at: now })))
    .execute()
  return { ok: true }
}

/** The first wallet to bind a mailbox keeps it (staff can move it); a later bind changes nothing. */
export async function bindMailbox(trx: DB, addressHash: string, userId: number, now: Date) {
  await trx
    .insertInto('ereceipt_mailboxes')
    .values({ address_hash: addressHash, user_id: userId, created_at: now.toISOString(), updated_at: now.toISOString() })
    .onConflict((oc) => oc.column('address_hash').doNothing())
    .execute()
}

export async function mailboxOwner(db: DB, addressHash: string): Promise<number | null> {
  const row = await db.selectFrom('ereceipt_mailboxes').select('user_id').where('address_hash', '=', addressHash).executeTakeFirst()
  return row?.user_id ?? null
}

/** What would refuse this e-receipt for this user, said on the analysis step (the submit re-checks). */
export async function eReceiptRefusal(db: DB, userId: number, facts: EReceiptFacts): Promise<'duplicate' | 'mailbox' | null> {
  const claimed = await db.selectFrom('ereceipt_claims').select('key').where('key', 'in', claimKeys(facts, userId)).executeTakeFirst()
  if (claimed) return 'duplicate'
  if (facts.recipientHash) {
    const owner = await mailboxOwner(db, facts.recipientHash)
    if (owner !== null && owner !== userId) return 'mailbox'
  }
  return null
}

/** Staff: bind the mailbox of a receipt's e-mail to the wallet of `toUserId`. */
export async function rebindMailbox(db: DB, input: { adminUserId: number; addressHash: string; toUserId: number; now?: Date }) {
  const now = (input.now ?? new Date()).toISOString()
  return db.transaction().execute(async (trx) => {
    const from = await mailboxOwner(trx, input.addressHash)
    if (from === null) return { ok: false as const, error: 'No wallet is linked to this mailbox yet.' }
    await trx.updateTable('ereceipt_mailboxes').set({ user_id: input.toUserId, updated_at: now }).where('address_hash', '=', input.addressHash).execute()
    await recordAudit(trx, {
      adminUserId: input.adminUserId,
      action: 'mailbox.rebind',
      targetType: 'user',
      targetId: input.toUserId,
      details: { fromUserId: from, mailbox: input.addressHash.slice(0, 12) },
      now: new Date(now),
    })
    return { ok: true as const }
  })
}

/**
 * Reversing maturing credits (issue 38, decision 109): an audit rejected as fraud, or a verified
 * e-receipt of a trip another wallet sent as a photo, takes back credits that are still maturing.
 * A reversal is a ledger entry of minus the amount, keyed `reversal:<entry id>` (written once
 * whoever races to write it), of the reversed entry's type, with its claimable time: before then
 * neither counts, after it both do and cancel out.
 *
 * B3TR already claimed is never reversed. Every function here runs in the caller's transaction
 * after it locked the wallet's ledger (lockLedger), as a claim does, so a claim and a reversal of
 * the same wallet run one after the other. A credit counts as still maturing only past both now and
 * the wallet's last claim: a claim (made on another instance's clock) can only have taken credits
 * whose time had come by its own.
 */
import type { Kysely } from 'kysely'
import type { DB } from '#db/db.server'
import type { Database } from '#db/schema'
import { FUND_TYPES, getBalanceMilli, lockLedger } from './ledger.server'
import { sustainabilityShareMilli } from './receipt-reward'

type Trx = Kysely<Database>

type Credit = {
  id: number
  user_id: number
  type: Database['transactions']['type']
  amount_milli: number
  description: string
  idempotency_key: string
  claimable_at: string | null
  hold_receipt_id: number | null
  receipt_id: number | null
  referral_id: number | null
  store_submission_id: number | null
}

/** One reversal written: `fund` for the app fund's share (not the wallet's balance). */
export type Reversed = { entryId: number; userId: number; amountMilli: number; holdReceiptId: number | null; fund: boolean }

const CREDIT_COLUMNS = [
  'id',
  'user_id',
  'type',
  'amount_milli',
  'description',
  'idempotency_key',
  'claimable_at',
  'hold_receipt_id',
  'receipt_id',
  'referral_id',
  'store_submission_id',
] as const

/** Credits with a claimable time that nothing has reversed yet. */
function unreversedHeldCredits(trx: Trx) {
  return trx
    .selectFrom('transactions')
    .select(CREDIT_COLUMNS)
    .where('claimable_at', 'is not', null)
    .where('amount_milli', '>', 0)
    .where('reverses_id', 'is', null)
    .where('status', '!=', 'failed')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('transactions as r').select('r.id').whereRef('r.reverses_id', '=', 'transactions.id'))),
    )
}

/** From when a credit of this wallet is safe to reverse in full: past now and past its last claim. */
async function maturingAfter(trx: Trx, userId: number, now: Date): Promise<string> {
  const last = await trx
    .selectFrom('transactions')
    .select((eb) => eb.fn.max('created_at').as('at'))
    .where('user_id', '=', userId)
    .where('type', '=', 'token_claim')
    .executeTakeFirst()
  const at = (last?.at as string | null | undefined) ?? ''
  return at > now.toISOString() ? at : now.toISOString()
}

async function writeReversal(trx: Trx, entry: Credit, amountMilli: number, claimableAt: string | null, now: Date): Promise<boolean> {
  const result = await trx
    .insertInto('transactions')
    .values({
      user_id: entry.user_id,
      type: entry.type,
      amount_milli: -amountMilli,
      description: `Reversed: ${entry.description}`,
      status: 'completed',
      tx_hash: null,
      idempotency_key: `reversal:${entry.id}`,
      receipt_id: entry.receipt_id,
      store_submission_id: entry.store_submission_id,
      referral_id: entry.referral_id,
      hold_receipt_id: entry.hold_receipt_id,
      reverses_id: entry.id,
      claimable_at: claimableAt,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}

/** Reverse in full each credit still maturing for its owner; the owners' ledgers are locked first, in id order. */
async function reverseWhileMaturing(trx: Trx, credits: Credit[], now: Date): Promise<Reversed[]> {
  const owners = [...new Set(credits.map((c) => c.user_id))].sort((a, b) => a - b)
  const after = new Map<number, string>()
  for (const userId of owners) {
    await lockLedger(trx as DB, userId, now)
    after.set(userId, await maturingAfter(trx, userId, now))
  }
  const reversed: Reversed[] = []
  for (const credit of credits) {
    if (credit.claimable_at! <= after.get(credit.user_id)!) continue
    if (await writeReversal(trx, credit, credit.amount_milli, credit.claimable_at, now)) {
      reversed.push({ entryId: credit.id, userId: credit.user_id, amountMilli: credit.amount_milli, holdReceiptId: credit.hold_receipt_id, fund: FUND_TYPES.includes(credit.type) })
    }
  }
  return reversed
}

/**
 * Every maturing photo credit of a wallet: its own credits still maturing (its receipts', and its
 * rewards for invitees' photos), and the credits others earn from its photos (its referrer's reward).
 */
export async function reverseWalletMaturing(trx: Trx, input: { userId: number; now: Date }): Promise<Reversed[]> {
  const credits = await unreversedHeldCredits(trx)
    .where((eb) =>
      eb.or([
        eb('user_id', '=', input.userId),
        eb('hold_receipt_id', 'in', eb.selectFrom('receipts').select('receipts.id').where('receipts.user_id', '=', input.userId)),
      ]),
    )
    .orderBy('id')
    .execute()
  return reverseWhileMaturing(trx, credits, input.now)
}

/** The credits one receipt holds that are still maturing (an e-receipt of its trip came from another wallet). */
export async function withholdReceiptCredits(trx: Trx, input: { receiptId: number; now: Date }): Promise<Reversed[]> {
  const credits = await unreversedHeldCredits(trx).where('hold_receipt_id', '=', input.receiptId).orderBy('id').execute()
  return reverseWhileMaturing(trx, credits, input.now)
}

/**
 * An audited receipt's own credits whose time has come: taken back as far as the wallet has not
 * claimed them, i.e. up to its claimable balance (never below zero, never what a claim took).
 */
export async function reverseMaturedUnclaimed(trx: Trx, input: { receiptId: number; userId: number; now: Date }): Promise<Reversed[]> {
  await lockLedger(trx as DB, input.userId, input.now)
  const after = await maturingAfter(trx, input.userId, input.now)
  const credits = await unreversedHeldCredits(trx)
    .where('hold_receipt_id', '=', input.receiptId)
    .where('user_id', '=', input.userId)
    .where('claimable_at', '<=', after)
    .orderBy('id')
    .execute()
  let unclaimed = Math.max(0, await getBalanceMilli(trx as DB, input.userId, new Date(after)))
  const reversed: Reversed[] = []
  for (const credit of credits.filter((c) => !FUND_TYPES.includes(c.type))) {
    const amount = Math.min(unclaimed, credit.amount_milli)
    if (amount <= 0) break
    if (!(await writeReversal(trx, credit, amount, null, input.now))) continue
    unclaimed -= amount
    reversed.push({ entryId: credit.id, userId: credit.user_id, amountMilli: amount, holdReceiptId: credit.hold_receipt_id, fund: false })
    // The app fund's share of what was taken back goes with it.
    const share = credits.find((c) => c.idempotency_key === `${credit.idempotency_key}:sustainability_app`)
    if (share) await writeReversal(trx, share, Math.min(share.amount_milli, sustainabilityShareMilli(amount)), null, input.now)
  }
  return reversed
}

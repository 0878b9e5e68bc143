import type { DB } from '#db/db.server'
import { recordAudit } from '~/admin/audit.server'
import { signalWallet, type SignalResult } from '~/chain/passport.server'

/** Staff confirmed fraud on a rejected receipt: signal its wallet on VeBetter Passport, audited (issue 22). */
export async function signalReceiptOwner(
  db: DB,
  input: { adminUserId: number; receiptId: number; reason: string },
  signal: typeof signalWallet = signalWallet,
): Promise<SignalResult> {
  const row = await db
    .selectFrom('receipts')
    .innerJoin('users', 'users.id', 'receipts.user_id')
    .select(['users.wallet_address', 'receipts.status'])
    .where('receipts.id', '=', input.receiptId)
    .executeTakeFirst()
  if (!row || row.status !== 'rejected') return { ok: false, reason: 'node', message: 'Only a rejected receipt can be reported as fraud.' }
  const result = await signal(row.wallet_address, `ReCircle: fraudulent receipt #${input.receiptId}: ${input.reason}`)
  if (result.ok) {
    await recordAudit(db, {
      adminUserId: input.adminUserId,
      action: 'passport.signal',
      targetType: 'receipt',
      targetId: input.receiptId,
      details: { wallet: row.wallet_address, txId: result.txId },
    })
  }
  return result
}

/**
 * Forwarding confirmations kept for their owner (issue 39, decision 110): a provider's mail that
 * asks the forwarding address to allow forwarding, verified by the e-mail reader
 * (ereceipts/forwarding-confirmation.server.ts). Kept in the database so every instance shows the
 * same, shown to the owner alone until it expires or is dismissed, then deleted by housekeeping.
 * The link is a bearer credential for that one setting: it is read back only for its owner, never
 * logged and never followed by the server.
 */
import type { DB } from '#db/db.server'
import type { ForwardingConfirmation } from '~/ereceipts/forwarding-confirmation.server'
import { accountHint } from '~/ereceipts/forwarding-providers'
import { parseRowId } from '~/utils/ids'

/** What the owner is shown. */
export type ConfirmationView = {
  id: number
  provider: string
  code: string | null
  link: string | null
  accountHint: string | null
  receivedAt: string
  expiresAt: string
}

/** Shown at most this many at once (a provider resends on request; the newest come first). */
const SHOWN = 3

export async function keepConfirmation(db: DB, input: { userId: number; confirmation: ForwardingConfirmation; now: Date }) {
  const { confirmation, now } = input
  await db
    .insertInto('forwarding_confirmations')
    .values({
      user_id: input.userId,
      provider: confirmation.provider.id,
      code: confirmation.code,
      link: confirmation.link,
      account_hint: accountHint(confirmation.account),
      signature_id: confirmation.signatureId,
      received_at: now.toISOString(),
      expires_at: new Date(now.getTime() + confirmation.provider.validForMs).toISOString(),
    })
    // The same mail delivered again (a retry) is kept once.
    .onConflict((oc) => oc.column('signature_id').doNothing())
    .execute()
}

const PROVIDER_NAMES: Record<string, string> = { gmail: 'Gmail' }

/** The owner's confirmations still valid and not dismissed, newest first. */
export async function listConfirmations(db: DB, userId: number, now = new Date()): Promise<ConfirmationView[]> {
  const rows = await db
    .selectFrom('forwarding_confirmations')
    .select(['id', 'provider', 'code', 'link', 'account_hint', 'received_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now.toISOString())
    .where('dismissed_at', 'is', null)
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(SHOWN)
    .execute()
  return rows.map((r) => ({
    id: r.id,
    provider: PROVIDER_NAMES[r.provider] ?? r.provider,
    code: r.code,
    link: r.link,
    accountHint: r.account_hint,
    receivedAt: r.received_at,
    expiresAt: r.expires_at,
  }))
}

/** The owner is done with it ("Done"): another user's id changes nothing. */
export async function dismissConfirmation(db: DB, input: { userId: number; id: number; now?: Date }) {
  await db
    .updateTable('forwarding_confirmations')
    .set({ dismissed_at: (input.now ?? new Date()).toISOString() })
    .where('id', '=', input.id)
    .where('user_id', '=', input.userId)
    .execute()
}

/** A "Done" form post (`confirmationId`): a missing or foreign id changes nothing. */
export async function dismissFromForm(db: DB, userId: number, form: FormData) {
  const id = parseRowId(String(form.get('confirmationId') ?? ''))
  if (id !== null) await dismissConfirmation(db, { userId, id })
}

/** Housekeeping: expired confirmations (and their links) are deleted. */
export async function purgeExpiredConfirmations(db: DB, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('forwarding_confirmations').where('expires_at', '<=', now.toISOString()).executeTakeFirst()
  return Number(result.numDeletedRows)
}

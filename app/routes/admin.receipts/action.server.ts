import { json, redirect } from '@remix-run/node'
import { z } from 'zod'
import { mailboxHash } from '~/ereceipts/read.server'
import { rebindMailbox } from '~/receipts/email-keys.server'
import { clearAudit, rejectAudit } from '~/receipts/audits.server'
import { approveReceipt, decideGroup, rejectReceipt, signalGroupWallets, signalReceiptOwner } from '~/receipts/review.server'
import { formatB3tr } from '~/rewards/money'
import type { User } from '~/users/users.server'
import { getUserByWallet } from '~/users/users.server'
import { getDb } from '~/utils/db.server'
import { readFormData } from '~/utils/form.server'
import { rowIdSchema } from '~/utils/ids'
import { toastCookie } from '~/utils/toast.server'

const reason = z.string().trim().min(3, 'Give the user a reason (at least 3 characters)').max(300)
const checkbox = z.literal('on').optional()
const receiptIds = z
  .string()
  .trim()
  .regex(/^\d+(,\d+)*$/, 'No receipts in this group')
  .transform((v) => [...new Set(v.split(',').map(Number))])
  // A group is every receipt its wallets have waiting (issue 38: no longer capped by one page of 100).
  .refine((ids) => ids.length <= 2000 && ids.every((id) => Number.isSafeInteger(id) && id > 0), 'No receipts in this group')

const decisionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('approve'), receiptId: rowIdSchema }),
  z.object({
    intent: z.literal('reject'),
    receiptId: rowIdSchema,
    reason,
    // Issue 31: a confirmed fraud takes the wallet's standing away.
    fraud: checkbox,
    // Issue 22: staff confirm fraud, and the wallet is signalled on VeBetter Passport.
    signal: checkbox,
  }),
  // Issue 31: a group of new wallets decided at once.
  z.object({ intent: z.literal('approve-group'), receiptIds }),
  z.object({ intent: z.literal('reject-group'), receiptIds, reason, fraud: checkbox, signal: checkbox }),
  // Issue 38: an audited automatic photo approval found right, or rejected as fraud (its maturing
  // credits and the wallet's other maturing photo credits reversed; the standing taken away).
  z.object({ intent: z.literal('audit-clear'), receiptId: rowIdSchema }),
  z.object({ intent: z.literal('audit-reject'), receiptId: rowIdSchema, reason, signal: checkbox }),
  // Issue 21: move the mailbox e-receipts were sent to onto another wallet (the rider asked support).
  z.object({
    intent: z.literal('rebind'),
    mailbox: z.string().trim().email('Enter the e-mail address the receipts were sent to').max(254),
    wallet: z.string().trim().regex(/^0x[0-9a-fA-F]{40}$/, 'Enter a wallet address (0x…)'),
  }),
])

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** The review page's own query (its page and audit page), kept across a decision. */
function backSearch(params: URLSearchParams): string {
  const kept = new URLSearchParams()
  for (const name of ['page', 'audits']) {
    const value = params.get(name)
    if (value && /^\d{1,6}$/.test(value)) kept.set(name, value)
  }
  const search = kept.toString()
  return search ? `?${search}` : ''
}

/** The review page's posts: decide one receipt or a group, or move a mailbox. */
export async function handleReviewAction(request: Request, admin: User) {
  const parsed = decisionSchema.safeParse(Object.fromEntries(await readFormData(request)))
  if (!parsed.success) return json({ error: parsed.error.issues[0]?.message ?? 'Invalid decision' }, { status: 400 })
  const input = parsed.data
  // Back to the page and audit page the decision was made on (the form posts to the page's own URL).
  const back = `/admin/receipts${backSearch(new URL(request.url).searchParams)}`
  const done = async (title: string, description: string) =>
    redirect(back, { headers: { 'Set-Cookie': await toastCookie(request, { title, description, variant: 'success' }) } })

  if (input.intent === 'audit-clear' || input.intent === 'audit-reject') {
    const result =
      input.intent === 'audit-clear'
        ? await clearAudit(getDb(), { adminUserId: admin.id, receiptId: input.receiptId })
        : await rejectAudit(getDb(), { adminUserId: admin.id, receiptId: input.receiptId, reason: input.reason })
    if (!result.ok) return json({ error: result.error }, { status: result.status })
    if (input.intent === 'audit-clear') return done('Audit cleared', 'No fraud found: the wallet keeps its standing.')
    const taken = result.reversedMilli > 0 ? ` ${formatB3tr(result.reversedMilli)} B3TR of maturing or unclaimed credit was taken back.` : ''
    if (input.signal === 'on') {
      const signal = await signalReceiptOwner(getDb(), { adminUserId: admin.id, receiptId: input.receiptId, reason: input.reason })
      if (!signal.ok) return json({ error: `Receipt rejected as fraud.${taken} The wallet was not signalled: ${signal.message}` }, { status: 409 })
    }
    return done('Rejected as fraud', `The wallet lost its standing.${taken}${input.signal === 'on' ? ' The wallet was signalled on VeBetter Passport.' : ''}`)
  }

  if (input.intent === 'rebind') {
    const user = await getUserByWallet(getDb(), input.wallet.toLowerCase())
    if (!user) return json({ error: 'No ReCircle user has this wallet address.' }, { status: 404 })
    const moved = await rebindMailbox(getDb(), { adminUserId: admin.id, addressHash: mailboxHash(input.mailbox), toUserId: user.id })
    if (!moved.ok) return json({ error: moved.error }, { status: 404 })
    return done('Mailbox moved', 'Its e-receipts now pay this wallet.')
  }

  if (input.intent === 'approve-group' || input.intent === 'reject-group') {
    const decision =
      input.intent === 'approve-group' ? ({ kind: 'approve' } as const) : ({ kind: 'reject', reason: input.reason, fraud: input.fraud === 'on' || input.signal === 'on' } as const)
    const result = await decideGroup(getDb(), { adminUserId: admin.id, receiptIds: input.receiptIds, decision })
    if (result.decided === 0) return json({ error: 'Every receipt of this group was already decided.' }, { status: 409 })
    const skipped = result.skipped ? ` ${plural(result.skipped, 'receipt')} had already been decided.` : ''
    if (input.intent === 'approve-group') return done('Group approved', `${plural(result.decided, 'receipt')} approved and credited.${skipped}`)
    if (input.signal === 'on') {
      const signals = await signalGroupWallets(getDb(), { adminUserId: admin.id, receiptIds: input.receiptIds, reason: input.reason })
      const failed = signals.filter((s) => !s.result.ok)
      if (failed.length > 0) {
        const first = failed[0]!.result
        const why = first.ok ? '' : first.message
        return json({ error: `${plural(result.decided, 'receipt')} rejected. ${plural(failed.length, 'wallet')} of ${signals.length} could not be signalled: ${why}` }, { status: 409 })
      }
      return done('Group rejected', `${plural(result.decided, 'receipt')} rejected as fraud; ${plural(signals.length, 'wallet')} signalled on VeBetter Passport.${skipped}`)
    }
    return done('Group rejected', `${plural(result.decided, 'receipt')} rejected${decision.kind === 'reject' && decision.fraud ? ' as fraud' : ''}.${skipped}`)
  }

  const fraud = input.intent === 'reject' && (input.fraud === 'on' || input.signal === 'on')
  const result =
    input.intent === 'approve'
      ? await approveReceipt(getDb(), { adminUserId: admin.id, receiptId: input.receiptId })
      : await rejectReceipt(getDb(), { adminUserId: admin.id, receiptId: input.receiptId, reason: input.reason, fraud })
  if (!result.ok) return json({ error: result.error }, { status: result.status })
  let signalled: string | null = null
  if (input.intent === 'reject' && input.signal === 'on') {
    const signal = await signalReceiptOwner(getDb(), { adminUserId: admin.id, receiptId: input.receiptId, reason: input.reason })
    if (!signal.ok) return json({ error: `Receipt rejected. The wallet was not signalled: ${signal.message}` }, { status: 409 })
    signalled = signal.txId
  }
  if (input.intent === 'approve') return done('Receipt approved', 'The reward has been credited.')
  return done(
    'Receipt rejected',
    signalled
      ? `The user will see your reason. The wallet was signalled on VeBetter Passport (transaction ${signalled.slice(0, 10)}…).`
      : 'The user will see your reason.',
  )
}

import crypto from 'node:crypto'
import { Transaction } from 'thor-devkit'
import type { DB } from '#db/db.server'
import type { ExpressionBuilder } from 'kysely'
import type { Database, PayoutRow, PayoutStatus } from '#db/schema'
import { decodeRevertReason, events, fn } from '~/chain/abi'
import type { PayoutConfig } from '~/chain/config.server'
import {
  backoffMs,
  buildProof,
  classifyRevert,
  distributeClause,
  feeCaps,
  gasLimit,
  lastIncludableBlock,
  maxFeeWei,
  milliToWei,
  type Clause,
} from '~/chain/payout'
import { formatVtho } from '~/chain/units'
import { signAsDistributor } from '~/chain/sign.server'
import { baseFeeOf, describeThorError, isKnownTxRejection, ThorError, type ThorClient, type TxReceipt } from '~/chain/thor.server'
import { recordChainCheck } from '~/chain/chain-checks.server'

// The payout worker (issue 9, decision 041). Each payouts row moves
//   pending → signed → sent → confirmed | reverted,   signed/sent → expired → signed (anew),
//   pending → failed (refused for good before sending)
// and every move is a conditional UPDATE on (id, status, lease_owner), so two workers never move
// the same row twice. The raw transaction is stored before it is sent: after a crash or a lost
// answer the same transaction is sent again (its id is fixed, so it can be paid only once), and a
// new one is signed only after the chain has passed the old one's last includable block.

export type WorkerContext = {
  db: DB
  thor: ThorClient
  config: PayoutConfig
  workerId: string
  now?: () => Date
  log?: (message: string) => void
}

const ACTIVE: PayoutStatus[] = ['pending', 'signed', 'sent', 'expired']

/** This worker's lease on the row ran out and another worker took it: stop touching the row. */
class LeaseLost extends Error {}

/**
 * The lease guard: the row is still leased to this worker. Every write to a leased row carries it,
 * so a worker whose lease was taken over changes nothing (its update matches no row).
 */
function leaseHeldBy(ctx: WorkerContext) {
  return (eb: ExpressionBuilder<Database, 'payouts'>) => eb('lease_owner', '=', ctx.workerId)
}
const BATCH = 25

export function newWorkerId() {
  return `payouts-${process.pid}-${crypto.randomBytes(4).toString('hex')}`
}

/**
 * One pass over the due payouts; returns how many this worker advanced. When `signal` aborts (a
 * shutdown) the pass stops between payouts: the one in hand finishes its step first, so a shutdown
 * never leaves a payout between signing and storing.
 */
export async function runPayoutsOnce(ctx: WorkerContext, signal?: AbortSignal): Promise<number> {
  const nowIso = now(ctx).toISOString()
  const due = await ctx.db
    .selectFrom('payouts')
    .select('id')
    .where((eb) => isDue(eb, ctx, nowIso))
    .orderBy('id')
    .limit(BATCH)
    .execute()
  let advanced = 0
  for (const { id } of due) {
    if (signal?.aborted) break
    if (!(await acquireLease(ctx, id))) continue
    try {
      const row = await loadPayout(ctx.db, id)
      if (row && ACTIVE.includes(row.status)) {
        await advance(ctx, row)
        advanced++
      }
    } catch (error) {
      // Another worker has the row now: its state is theirs to move.
      if (error instanceof LeaseLost) continue
      // The node is down, slow or answered nonsense: nothing was decided, try again later.
      await hold(ctx, id, describeThorError(error))
    } finally {
      await releaseLease(ctx, id)
    }
  }
  return advanced
}

async function advance(ctx: WorkerContext, row: PayoutRow) {
  if (row.status === 'pending' || row.status === 'expired') {
    const signed = await signAndStore(ctx, row)
    if (signed) await send(ctx, signed)
    return
  }
  await track(ctx, row)
}

/** Simulate, check gas money, sign, and store the raw transaction before anything is sent. */
async function signAndStore(ctx: WorkerContext, row: PayoutRow): Promise<PayoutRow | null> {
  const { config, thor } = ctx
  const claim = await ctx.db.selectFrom('transactions').select(['status']).where('id', '=', row.transaction_id).executeTakeFirst()
  if (claim?.status !== 'pending') {
    await failPayout(ctx, row, 'failed', 'The claim is no longer pending')
    return null
  }
  const clause = await payoutClause(ctx, row)
  await keepLease(ctx, row.id)
  // Estimated on the state the next block starts from: what the transaction will meet.
  const [simulation] = await thor.inspect([clause], { caller: config.distributor, revision: 'next' })
  if (simulation.reverted) {
    const reason = decodeRevertReason(simulation.data) ?? (simulation.vmError || 'the simulation reverted')
    if (classifyRevert(reason) === 'operator') {
      await hold(ctx, row.id, `Payout held: ${reason}`)
    } else {
      await failPayout(ctx, row, 'failed', reason)
    }
    return null
  }
  const gas = gasLimit([clause], simulation.gasUsed)
  // The fee is read from the chain (decision 041): the best block's base fee and the node's tip.
  await keepLease(ctx, row.id)
  const best = await thor.getBestBlock()
  const baseFeePerGas = baseFeeOf(best)
  if (baseFeePerGas === null || baseFeePerGas === 0n) throw new ThorError('bad_response', 'The VeChain node reports no base fee for the best block (a node before the Galactica fork?)')
  await keepLease(ctx, row.id)
  const fees = feeCaps({ baseFeePerGas, suggestedPriorityFee: await thor.getPriorityFee(), previousSignings: row.signings })
  await keepLease(ctx, row.id)
  const account = await thor.getAccount(config.distributor)
  const fee = maxFeeWei(gas, fees.maxFeePerGas)
  if (account.energy < fee) {
    await hold(ctx, row.id, `Payout held: the distributor ${config.distributor} has ${formatVtho(account.energy)} VTHO, a payout needs up to ${formatVtho(fee)} VTHO for gas`)
    return null
  }
  await keepLease(ctx, row.id)
  const signed = signAsDistributor(config, { bestBlockId: best.id, clause, gas, fees })
  const previous = previousTxIds(row)
  const at = now(ctx).toISOString()
  const stored = await ctx.db
    .updateTable('payouts')
    .set((eb) => ({
      status: 'signed',
      raw_tx: signed.raw,
      tx_hash: signed.id,
      block_ref: signed.blockRef,
      expiration: signed.expiration,
      gas: signed.gas,
      signings: eb('signings', '+', 1),
      previous_tx_ids: previous.length ? JSON.stringify(previous) : null,
      signed_at: at,
      sent_at: null,
      error: null,
      attempts: 0,
      next_attempt_at: null,
      updated_at: at,
    }))
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .where(leaseHeldBy(ctx))
    .executeTakeFirst()
  if (Number(stored.numUpdatedRows) !== 1) return null
  ctx.log?.(`payout ${row.id}: signed ${signed.id} (fee cap ${signed.maxFeePerGas} wei/gas, tip ${signed.maxPriorityFeePerGas})`)
  return loadPayout(ctx.db, row.id)
}

/** Send the stored raw transaction. "known tx" means the node has it already: as good as sent. */
async function send(ctx: WorkerContext, row: PayoutRow) {
  if (!row.raw_tx) throw new Error(`payout ${row.id} has no signed transaction`)
  await keepLease(ctx, row.id)
  try {
    await ctx.thor.sendRawTransaction(row.raw_tx)
  } catch (error) {
    if (!isKnownTxRejection(error)) {
      // Refused or unanswered: stay signed; the next pass looks for a receipt first, then sends
      // the same transaction again until it is included or the chain passes its expiry.
      await hold(ctx, row.id, `Sending ${row.tx_hash} failed: ${describeThorError(error)}`)
      return
    }
  }
  const at = now(ctx).toISOString()
  await ctx.db
    .updateTable('payouts')
    .set({ status: 'sent', sent_at: at, error: null, attempts: 0, next_attempt_at: nextPoll(ctx), updated_at: at })
    .where('id', '=', row.id)
    .where('status', 'in', ['signed', 'sent'])
    .where(leaseHeldBy(ctx))
    .execute()
}

/**
 * A signed or sent payout: included (confirm, or fail once the revert is final), dead (expire and
 * sign anew, decided on the finalized chain only), or not yet included (send the same bytes again).
 */
async function track(ctx: WorkerContext, row: PayoutRow) {
  const txId = row.tx_hash
  if (!txId || !row.block_ref || row.expiration === null) throw new Error(`payout ${row.id} is ${row.status} without a transaction`)
  await keepLease(ctx, row.id)
  const best = await ctx.thor.getBestBlock()
  const receipt = await ctx.thor.getReceipt(txId)
  if (receipt) {
    checkReceiptIsFor(receipt, txId)
    if (receipt.reverted) {
      // Failing the claim gives the tokens back, so it must be certain the transaction can never
      // pay: only a revert in a finalized block (a reorganisation could re-run it otherwise).
      await keepLease(ctx, row.id)
      const finalized = await ctx.thor.getFinalizedBlock()
      const final = receipt.meta.blockNumber <= finalized.number ? await ctx.thor.getReceipt(txId, { head: finalized.id }) : null
      if (!final?.reverted) return waitForNextPoll(ctx, row)
      await failPayout(ctx, row, 'reverted', await revertReason(ctx, row))
      return
    }
    if (best.number - receipt.meta.blockNumber < ctx.config.confirmations) return waitForNextPoll(ctx, row)
    const paid = await paidAsExpected(ctx, row, receipt)
    if (paid !== true) {
      await hold(ctx, row.id, paid)
      return
    }
    await confirm(ctx, row, receipt)
    return
  }
  // Dead only when the finalized chain is past the last block that could include it and, read as
  // of that very block, has no receipt: a node behind a load balancer that lags, or one that does
  // not have the block, can then never make a live transaction look dead.
  await keepLease(ctx, row.id)
  const finalized = await ctx.thor.getFinalizedBlock()
  if (finalized.number > lastIncludableBlock(row.block_ref, row.expiration)) {
    const atFinal = await ctx.thor.getReceipt(txId, { head: finalized.id })
    if (atFinal !== null) return waitForNextPoll(ctx, row)
    const expired = await markExpired(ctx, row, finalized.number)
    if (expired && expired.signings < ctx.config.maxSignings) {
      const signed = await signAndStore(ctx, expired)
      if (signed) await send(ctx, signed)
    }
    return
  }
  await send(ctx, row)
}

function checkReceiptIsFor(receipt: TxReceipt, txId: string) {
  if (receipt.meta.txID.toLowerCase() !== txId.toLowerCase()) throw new ThorError('bad_response', `The node answered the receipt of ${receipt.meta.txID} for ${txId}`)
}

/**
 * The receipt must show the pool paying this user this amount for our app: anything else (a
 * misconfigured pool address, a node answering for another chain) is held for an operator rather
 * than shown to the user as paid.
 */
async function paidAsExpected(ctx: WorkerContext, row: PayoutRow, receipt: TxReceipt): Promise<true | string> {
  const user = await ctx.db.selectFrom('users').select('wallet_address').where('id', '=', row.user_id).executeTakeFirst()
  const expected = { receiver: user?.wallet_address.toLowerCase(), amount: milliToWei(row.amount_milli) }
  for (const output of receipt.outputs) {
    for (const event of output.events ?? []) {
      if (event.address?.toLowerCase() !== ctx.config.poolAddress || event.topics?.[0] !== events.rewardDistributed.signature) continue
      try {
        const decoded = events.rewardDistributed.decode(event.data, event.topics)
        const matches =
          String(decoded.appId).toLowerCase() === ctx.config.appId &&
          String(decoded.receiver).toLowerCase() === expected.receiver &&
          BigInt(String(decoded.amount)) === expected.amount
        if (matches) return true
      } catch {
        // not decodable: keep looking
      }
    }
  }
  return `Payout held: transaction ${row.tx_hash} was included but its receipt shows no RewardDistributed event for ${expected.receiver} of this amount`
}

async function confirm(ctx: WorkerContext, row: PayoutRow, receipt: TxReceipt) {
  const at = now(ctx).toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('payouts')
      .set({ status: 'confirmed', block_number: receipt.meta.blockNumber, confirmed_at: at, error: null, next_attempt_at: null, updated_at: at })
      .where('id', '=', row.id)
      .where('status', 'in', ['signed', 'sent'])
      .where(leaseHeldBy(ctx))
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) !== 1) return
    const ledger = await trx
      .updateTable('transactions')
      .set({ status: 'confirmed', tx_hash: row.tx_hash })
      .where('id', '=', row.transaction_id)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    // Paid on chain while the ledger says otherwise: roll back and leave it to an operator.
    if (Number(ledger.numUpdatedRows) !== 1) throw new Error(`Claim ${row.transaction_id} is not pending, but its payout ${row.tx_hash} was paid: check it by hand`)
  })
  ctx.log?.(`payout ${row.id}: confirmed ${row.tx_hash} in block ${receipt.meta.blockNumber}`)
}

/** Reverted on chain or refused for good: the claim fails, so its amount counts in the balance again. */
async function failPayout(ctx: WorkerContext, row: PayoutRow, status: 'failed' | 'reverted', reason: string) {
  const at = now(ctx).toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('payouts')
      .set({ status, error: reason, next_attempt_at: null, updated_at: at })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .where(leaseHeldBy(ctx))
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) !== 1) return
    await trx.updateTable('transactions').set({ status: 'failed' }).where('id', '=', row.transaction_id).where('status', '=', 'pending').execute()
  })
  ctx.log?.(`payout ${row.id}: ${status}: ${reason}`)
}

async function markExpired(ctx: WorkerContext, row: PayoutRow, bestNumber: number): Promise<PayoutRow | null> {
  const at = now(ctx).toISOString()
  const done = await ctx.db
    .updateTable('payouts')
    .set({
      status: 'expired',
      error: `Transaction ${row.tx_hash} expired without being included (best block ${bestNumber})`,
      next_attempt_at: null,
      updated_at: at,
    })
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .where(leaseHeldBy(ctx))
    .executeTakeFirst()
  if (Number(done.numUpdatedRows) !== 1) return null
  ctx.log?.(`payout ${row.id}: ${row.tx_hash} expired`)
  return loadPayout(ctx.db, row.id)
}

/** A reverted receipt carries no reason: simulate the same clause again to find it. */
async function revertReason(ctx: WorkerContext, row: PayoutRow): Promise<string> {
  const fallback = 'Reverted on chain (simulating it again did not show why)'
  if (!row.raw_tx) return fallback
  try {
    const tx = Transaction.decode(Buffer.from(row.raw_tx.slice(2), 'hex'))
    const clauses = tx.body.clauses.map((c) => ({ to: c.to ?? '', value: String(c.value), data: c.data }))
    const [result] = await ctx.thor.inspect(clauses, { caller: ctx.config.distributor })
    return result.reverted ? (decodeRevertReason(result.data) ?? (result.vmError || fallback)) : fallback
  } catch {
    return fallback
  }
}

async function payoutClause(ctx: WorkerContext, row: PayoutRow): Promise<Clause> {
  const user = await ctx.db.selectFrom('users').select('wallet_address').where('id', '=', row.user_id).executeTakeFirstOrThrow()
  const proof = buildProof({
    claimId: row.transaction_id,
    amountMilli: row.amount_milli,
    impact: { receiptCount: row.receipt_count, carbonGrams: row.carbon_grams, waterLiters: row.water_liters },
  })
  return distributeClause({ poolAddress: ctx.config.poolAddress, appId: ctx.config.appId, receiver: user.wallet_address, amountMilli: row.amount_milli, proof })
}

/** Not decided: note why, and look again after a back-off that grows with each failed attempt. */
async function hold(ctx: WorkerContext, id: number, reason: string) {
  const row = await loadPayout(ctx.db, id)
  if (!row) return
  const attempts = row.attempts + 1
  const at = now(ctx)
  await ctx.db
    .updateTable('payouts')
    .set({ error: reason, attempts, next_attempt_at: new Date(at.getTime() + backoffMs(attempts)).toISOString(), updated_at: at.toISOString() })
    .where('id', '=', id)
    .where(leaseHeldBy(ctx))
    .execute()
  ctx.log?.(`payout ${id}: ${reason}`)
}

async function waitForNextPoll(ctx: WorkerContext, row: PayoutRow) {
  await ctx.db
    .updateTable('payouts')
    .set({ status: 'sent', next_attempt_at: nextPoll(ctx), updated_at: now(ctx).toISOString() })
    .where('id', '=', row.id)
    .where('status', 'in', ['signed', 'sent'])
    .where(leaseHeldBy(ctx))
    .execute()
}

/** Active, not held back, not over its automatic signings, and not leased by a live worker. */
function isDue(eb: ExpressionBuilder<Database, 'payouts'>, ctx: WorkerContext, nowIso: string) {
  return eb.and([
    eb('status', 'in', ACTIVE),
    eb.or([eb('status', '!=', 'expired'), eb('signings', '<', ctx.config.maxSignings)]),
    eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', nowIso)]),
    eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowIso)]),
  ])
}

/** The lease repeats every condition of the due list: a list read a moment ago may be stale. */
export async function acquireLease(ctx: WorkerContext, id: number): Promise<boolean> {
  const at = now(ctx)
  const result = await ctx.db
    .updateTable('payouts')
    .set({ lease_owner: ctx.workerId, lease_until: new Date(at.getTime() + ctx.config.leaseMs).toISOString() })
    .where('id', '=', id)
    .where((eb) => isDue(eb, ctx, at.toISOString()))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * Renew the lease before each call to the node, so a slow node cannot let another worker take the
 * row mid-step; when the lease was lost anyway, stop (LeaseLost) instead of acting on stale state.
 */
async function keepLease(ctx: WorkerContext, id: number) {
  const at = now(ctx)
  const result = await ctx.db
    .updateTable('payouts')
    .set({ lease_until: new Date(at.getTime() + ctx.config.leaseMs).toISOString() })
    .where('id', '=', id)
    .where(leaseHeldBy(ctx))
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) throw new LeaseLost()
}

async function releaseLease(ctx: WorkerContext, id: number) {
  await ctx.db.updateTable('payouts').set({ lease_owner: null, lease_until: null }).where('id', '=', id).where(leaseHeldBy(ctx)).execute()
}

async function loadPayout(db: DB, id: number): Promise<PayoutRow | null> {
  return (await db.selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
}

function previousTxIds(row: PayoutRow): string[] {
  const earlier = parseTxIds(row.previous_tx_ids)
  return row.tx_hash && !earlier.includes(row.tx_hash) ? [...earlier, row.tx_hash] : earlier
}

export function parseTxIds(json: string | null): string[] {
  if (!json) return []
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

function nextPoll(ctx: WorkerContext) {
  return new Date(now(ctx).getTime() + ctx.config.intervalMs).toISOString()
}

function now(ctx: WorkerContext) {
  return ctx.now?.() ?? new Date()
}

/**
 * Before paying anything: the node must be on the configured network, and the pool must answer.
 * Returns null when all is well, otherwise what is wrong (recorded for the status pages).
 */
export async function checkPayoutNetwork(ctx: WorkerContext): Promise<string | null> {
  try {
    const genesis = await ctx.thor.getBlock(0)
    if (!genesis || genesis.id.toLowerCase() !== ctx.config.genesisId) {
      const problem = `The node at ${ctx.thor.baseUrl} is on another network (genesis ${genesis?.id ?? 'unknown'}, expected ${ctx.config.genesisId})`
      await recordChainCheck(ctx.db, 'payout_worker', { ok: false, error: problem })
      return problem
    }
    const version = String((await ctx.thor.call(ctx.config.poolAddress, fn.version))[0])
    await recordChainCheck(ctx.db, 'payout_worker', { ok: true, details: { workerId: ctx.workerId, poolVersion: version } })
    ctx.log?.(`payouts: rewards pool ${ctx.config.poolAddress} version ${version}, distributor ${ctx.config.distributor}`)
    return null
  } catch (error) {
    const problem = describeThorError(error)
    await recordChainCheck(ctx.db, 'payout_worker', { ok: false, error: problem })
    return problem
  }
}

/** The loop `npm start` (when configured) and `npm run payouts` run. Stops when the signal aborts. */
export async function runPayoutWorker(ctx: WorkerContext, signal: AbortSignal) {
  let networkOk = false
  while (!signal.aborted) {
    try {
      if (!networkOk) {
        const problem = await checkPayoutNetwork(ctx)
        if (problem) ctx.log?.(`payouts: not paying: ${problem}`)
        networkOk = problem === null
      }
      if (networkOk) await runPayoutsOnce(ctx, signal)
    } catch (error) {
      ctx.log?.(`payouts: ${describeThorError(error)}`)
    }
    await sleep(ctx.config.intervalMs, signal)
  }
}

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })
}

/**
 * VeBetter Passport as a fraud signal (issue 22): before a receipt is approved automatically, the
 * wallet's blacklisting and signals are read from the Passport contract; staff see personhood.
 * Staff who confirm fraud can signal the wallet, when the distributor holds the SIGNALER_ROLE.
 */
import crypto from 'node:crypto'
import { fn } from './abi'
import { getChainConfig, getPayoutConfig, getThor } from './chain.server'
import type { PayoutConfig } from './config.server'
import { SIGNALER_ROLE } from './contracts'
import { baseFeeOf, ThorError, type ThorClient } from './thor.server'
import { feeCaps, gasLimit, maxFeeWei, signPayoutTx } from './payout'
import { getEnv } from '~/utils/env.server'

export type PassportStatus = { blacklisted: boolean; signals: number; isPerson: boolean; personReason: string }
export type PassportCheck = { ok: true; status: PassportStatus } | { ok: false; error: string }

/** One simulation of the three reads on the best block. */
export async function readPassport(thor: ThorClient, passport: string, wallet: string): Promise<PassportStatus> {
  const calls = [fn.isBlacklisted, fn.signaledCounter, fn.isPerson]
  const results = await thor.inspect(calls.map((f) => ({ to: passport, value: '0x0', data: f.encode(wallet) })))
  if (results.length !== 3 || results.some((r) => r.reverted)) throw new ThorError('rejected', 'VeBetter Passport did not answer (a read reverted)')
  const person = fn.isPerson.decode(results[2].data)
  return {
    blacklisted: Boolean(fn.isBlacklisted.decode(results[0].data)[0]),
    signals: Number(fn.signaledCounter.decode(results[1].data)[0]),
    isPerson: Boolean(person.person),
    personReason: String(person.reason ?? ''),
  }
}

/** The check the receipt submission uses, or null with PASSPORT_CHECKS=off. Never throws. */
export function getPassportCheck(): ((wallet: string) => Promise<PassportCheck>) | null {
  if (getEnv().PASSPORT_CHECKS === 'off') return null
  const { passportAddress } = getChainConfig()
  return async (wallet) => {
    try {
      return { ok: true, status: await readPassport(getThor({ timeoutMs: 4_000 }), passportAddress, wallet) }
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) }
    }
  }
}

export type SignalResult =
  | { ok: true; txId: string }
  | { ok: false; reason: 'no_key' | 'no_role' | 'node'; message: string }

/** The sentence the review page shows when the distributor cannot signal yet. */
export function signalerRoleHelp(distributor: string, appId: string, passport: string) {
  return `The distributor ${distributor} does not hold VeBetter Passport's SIGNALER_ROLE. An admin of the app grants it by calling assignSignalerToAppByAppAdmin(${appId}, ${distributor}) on the Passport contract ${passport}; then signal again.`
}

/**
 * Staff confirmed fraud: send signalUserWithReason from the distributor. Checked first: a key, the
 * role (hasRole), and a simulation; then one dynamic-fee transaction, as payouts are sent.
 */
export async function signalWallet(wallet: string, reason: string, deps: { thor?: ThorClient; config?: PayoutConfig | null } = {}): Promise<SignalResult> {
  const config = deps.config === undefined ? getPayoutConfig() : deps.config
  if (!config) return { ok: false, reason: 'no_key', message: 'Signalling needs the distributor key (PAYOUT_PRIVATE_KEY or PAYOUT_MNEMONIC) and VEBETTER_APP_ID.' }
  const thor = deps.thor ?? getThor({ timeoutMs: 8_000 })
  const passport = config.passportAddress
  try {
    const [role] = await thor.inspect([{ to: passport, value: '0x0', data: fn.hasRole.encode(SIGNALER_ROLE, config.distributor) }])
    if (role.reverted || !fn.hasRole.decode(role.data)[0]) return { ok: false, reason: 'no_role', message: signalerRoleHelp(config.distributor, config.appId, passport) }
    const clause = { to: passport, value: '0x0', data: fn.signalUserWithReason.encode(wallet, reason.slice(0, 200)) }
    const [simulation] = await thor.inspect([clause], { caller: config.distributor, revision: 'next' })
    if (simulation.reverted) return { ok: false, reason: 'node', message: `The Passport refused the signal: ${simulation.vmError || 'reverted'}` }
    const best = await thor.getBestBlock()
    const baseFeePerGas = baseFeeOf(best)
    if (!baseFeePerGas) return { ok: false, reason: 'node', message: 'The VeChain node reports no base fee.' }
    const fees = feeCaps({ baseFeePerGas, suggestedPriorityFee: await thor.getPriorityFee(), previousSignings: 0 })
    const gas = gasLimit([clause], simulation.gasUsed)
    const account = await thor.getAccount(config.distributor)
    if (account.energy < maxFeeWei(gas, fees.maxFeePerGas)) return { ok: false, reason: 'node', message: 'The distributor has too little VTHO to send the signal.' }
    const signed = signPayoutTx({
      chainTag: config.chainTag,
      bestBlockId: best.id,
      expiration: config.expirationBlocks,
      clause,
      gas,
      fees,
      privateKey: config.privateKey,
      nonce: '0x' + crypto.randomBytes(8).toString('hex'),
    })
    await thor.sendRawTransaction(signed.raw)
    return { ok: true, txId: signed.id }
  } catch (error) {
    return { ok: false, reason: 'node', message: `The VeChain node could not be reached: ${error instanceof Error ? error.message : String(error)}` }
  }
}

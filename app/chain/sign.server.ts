import crypto from 'node:crypto'
import type { PayoutConfig } from './config.server'
import { signPayoutTx, type Clause, type FeeCaps, type SignedPayoutTx } from './payout'

/** One clause signed by the reward distributor, valid for the configured number of blocks from the best one. */
export function signAsDistributor(config: PayoutConfig, input: { bestBlockId: string; clause: Clause; gas: number; fees: FeeCaps }): SignedPayoutTx {
  return signPayoutTx({
    chainTag: config.chainTag,
    bestBlockId: input.bestBlockId,
    expiration: config.expirationBlocks,
    clause: input.clause,
    gas: input.gas,
    fees: input.fees,
    privateKey: config.privateKey,
    nonce: '0x' + crypto.randomBytes(8).toString('hex'),
  })
}

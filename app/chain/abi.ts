import { abi } from 'thor-devkit'

// ABI fragments of the three contracts ReCircle talks to, taken from VeBetterDAO's interfaces
// (IX2EarnRewardsPool, IX2EarnApps) and ERC-20. Only what the payout worker and the status pages use.

type Fn = abi.Function.Definition

const bytes32 = (name: string) => ({ name, type: 'bytes32' })
const address = (name: string) => ({ name, type: 'address' })
const uint256 = (name: string) => ({ name, type: 'uint256' })
const view = (name: string, inputs: Fn['inputs'], outputs: Fn['outputs']): Fn => ({
  type: 'function',
  name,
  constant: true,
  payable: false,
  stateMutability: 'view',
  inputs,
  outputs,
})

export const POOL_ABI = {
  distributeRewardWithProof: {
    type: 'function',
    name: 'distributeRewardWithProof',
    constant: false,
    payable: false,
    stateMutability: 'nonpayable',
    inputs: [
      bytes32('appId'),
      uint256('amount'),
      address('receiver'),
      { name: 'proofTypes', type: 'string[]' },
      { name: 'proofValues', type: 'string[]' },
      { name: 'impactCodes', type: 'string[]' },
      { name: 'impactValues', type: 'uint256[]' },
      { name: 'description', type: 'string' },
    ],
    outputs: [],
  } satisfies Fn,
  version: { ...view('version', [], [{ name: '', type: 'string' }]), stateMutability: 'pure' } satisfies Fn,
  availableFunds: view('availableFunds', [bytes32('appId')], [uint256('')]),
  isRewardsPoolEnabled: view('isRewardsPoolEnabled', [bytes32('appId')], [{ name: '', type: 'bool' }]),
  rewardsPoolBalance: view('rewardsPoolBalance', [bytes32('appId')], [uint256('')]),
  isDistributionPaused: view('isDistributionPaused', [bytes32('appId')], [{ name: '', type: 'bool' }]),
} as const

export const APPS_ABI = {
  appExists: view('appExists', [bytes32('appId')], [{ name: '', type: 'bool' }]),
  isRewardDistributor: view('isRewardDistributor', [bytes32('appId'), address('distributorAddress')], [{ name: '', type: 'bool' }]),
} as const

export const B3TR_ABI = {
  balanceOf: view('balanceOf', [address('account')], [uint256('')]),
} as const

/**
 * VeBetterPassport (packages/contracts/contracts/ve-better-passport/VeBetterPassport.sol): the
 * reads ReCircle takes as a fraud signal, the signal it can send, and AccessControl's hasRole.
 */
export const PASSPORT_ABI = {
  isBlacklisted: view('isBlacklisted', [address('_user')], [{ name: '', type: 'bool' }]),
  signaledCounter: view('signaledCounter', [address('_user')], [uint256('')]),
  isPerson: view('isPerson', [address('user')], [
    { name: 'person', type: 'bool' },
    { name: 'reason', type: 'string' },
  ]),
  hasRole: view('hasRole', [bytes32('role'), address('account')], [{ name: '', type: 'bool' }]),
  signalUserWithReason: {
    type: 'function',
    name: 'signalUserWithReason',
    constant: false,
    payable: false,
    stateMutability: 'nonpayable',
    inputs: [address('_user'), { name: 'reason', type: 'string' }],
    outputs: [],
  } satisfies Fn,
} as const

/** The pool's event for a payout (appId, receiver and distributor are indexed). */
export const REWARD_DISTRIBUTED_EVENT: abi.Event.Definition = {
  type: 'event',
  name: 'RewardDistributed',
  anonymous: false,
  inputs: [
    { name: 'amount', type: 'uint256', indexed: false },
    { name: 'appId', type: 'bytes32', indexed: true },
    { name: 'receiver', type: 'address', indexed: true },
    { name: 'proof', type: 'string', indexed: false },
    { name: 'distributor', type: 'address', indexed: true },
  ],
}

export const ERC20_TRANSFER_EVENT: abi.Event.Definition = {
  type: 'event',
  name: 'Transfer',
  anonymous: false,
  inputs: [
    { name: 'from', type: 'address', indexed: true },
    { name: 'to', type: 'address', indexed: true },
    { name: 'value', type: 'uint256', indexed: false },
  ],
}

export const fn = {
  distributeRewardWithProof: new abi.Function(POOL_ABI.distributeRewardWithProof),
  version: new abi.Function(POOL_ABI.version),
  availableFunds: new abi.Function(POOL_ABI.availableFunds),
  isRewardsPoolEnabled: new abi.Function(POOL_ABI.isRewardsPoolEnabled),
  rewardsPoolBalance: new abi.Function(POOL_ABI.rewardsPoolBalance),
  isDistributionPaused: new abi.Function(POOL_ABI.isDistributionPaused),
  appExists: new abi.Function(APPS_ABI.appExists),
  isRewardDistributor: new abi.Function(APPS_ABI.isRewardDistributor),
  balanceOf: new abi.Function(B3TR_ABI.balanceOf),
  isBlacklisted: new abi.Function(PASSPORT_ABI.isBlacklisted),
  signaledCounter: new abi.Function(PASSPORT_ABI.signaledCounter),
  isPerson: new abi.Function(PASSPORT_ABI.isPerson),
  hasRole: new abi.Function(PASSPORT_ABI.hasRole),
  signalUserWithReason: new abi.Function(PASSPORT_ABI.signalUserWithReason),
}

export const events = {
  rewardDistributed: new abi.Event(REWARD_DISTRIBUTED_EVENT),
  transfer: new abi.Event(ERC20_TRANSFER_EVENT),
}

/** Solidity's Error(string) selector: revert data is 0x08c379a0 + abi-encoded string. */
const ERROR_SELECTOR = '0x08c379a0'

/** The revert reason in a call's output data, or null when there is none (or it is not Error(string)). */
export function decodeRevertReason(data: string | null | undefined): string | null {
  if (!data || !data.toLowerCase().startsWith(ERROR_SELECTOR)) return null
  try {
    return String(abi.decodeParameter('string', '0x' + data.slice(ERROR_SELECTOR.length)))
  } catch {
    return null
  }
}

/** Revert data for a reason, as a contract would return it (used by the fake node). */
export function encodeRevertReason(reason: string): string {
  return ERROR_SELECTOR + abi.encodeParameter('string', reason).slice(2)
}

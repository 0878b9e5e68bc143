// VeBetterDAO on the VeChain test network (addresses after VeBetterDAO's February 2026 redeploy).
// Every one of these is configuration (app/utils/env.server.ts); these are the defaults.

export const TESTNET_CONTRACTS = {
  x2EarnRewardsPool: '0x2d2a2207c68a46fc79325d7718e639d1047b0d8b',
  x2EarnApps: '0x0b54a094b877a25bdc95b4431eaa1e2206b1ddfe',
  b3tr: '0x95761346d18244bb91664181bf91193376197088',
} as const

/** 1 B3TR = 10^18 wei; the ledger counts milli-B3TR, so one milli is 10^15 wei. */
export const WEI_PER_MILLI = 10n ** 15n

/** Impact codes the pool accepts that ReCircle reports: grams of CO2 and litres of water saved. */
export const IMPACT_CODES = { carbon: 'carbon', water: 'water' } as const

/** The proof types the pool accepts (X2EarnRewardsPool._isValidProofType). */
export const PROOF_TYPES = ['image', 'link', 'text', 'video'] as const

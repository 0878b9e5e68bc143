// VeBetterDAO on the VeChain test network (addresses after VeBetterDAO's February 2026 redeploy).
// Every one of these is configuration (app/utils/env.server.ts); these are the defaults.

export const TESTNET_CONTRACTS = {
  x2EarnRewardsPool: '0x2d2a2207c68a46fc79325d7718e639d1047b0d8b',
  x2EarnApps: '0x0b54a094b877a25bdc95b4431eaa1e2206b1ddfe',
  b3tr: '0x95761346d18244bb91664181bf91193376197088',
  // VeBetterPassport of the same deployment (vebetterdao-contracts packages/config/testnet-staging.ts).
  veBetterPassport: '0x592c756df7a5d39de1735030e8b9c18b7417e6c4',
} as const

/** keccak256("SIGNALER_ROLE"): the Passport role that may call signalUserWithReason. */
export const SIGNALER_ROLE = '0xa4ce4aad7fca001529f4aae69bf669c4020e0aaa65ff85dc9f7b13c20e01624a'

/** 1 B3TR = 10^18 wei; the ledger counts milli-B3TR, so one milli is 10^15 wei. */
export const WEI_PER_MILLI = 10n ** 15n

/** Impact codes the pool accepts that ReCircle reports. */
export const IMPACT_CODES = { carbon: 'carbon', water: 'water' } as const

/**
 * The unit of each impact code's value, as VeBetterDAO documents them ("Distribute reward with
 * sustainability proofs", docs.vebetterdao.org, developer guides): carbon in grams of CO2
 * equivalent, water in millilitres, energy in watt-hours, waste_mass, timber and plastic in grams.
 * The pool stores the integers as given, so a value in another unit is wrong on-chain by its factor.
 */
export const IMPACT_UNITS = {
  carbon: 'g',
  water: 'ml',
  energy: 'Wh',
  waste_mass: 'g',
  timber: 'g',
  plastic: 'g',
} as const

/** The proof types the pool accepts (X2EarnRewardsPool._isValidProofType). */
export const PROOF_TYPES = ['image', 'link', 'text', 'video'] as const

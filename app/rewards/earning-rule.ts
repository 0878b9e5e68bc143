// What earns B3TR, said the same way on every screen (issue 40; product decision 10): transport
// receipts are paid by the reward rules, second-hand store receipts are checked by staff, nothing
// else earns. Landing, Scan, Help and the store pages show these lines and promise no other amount.

/** What B3TR is, in one line for someone who has never heard of it. */
export const B3TR_EXPLAINED = "B3TR is VeBetterDAO's token on VeChain: rewards for sustainable actions."

/** The rule in one sentence. */
export const WHAT_EARNS =
  'Receipts for rideshare, public transit, EV rental and e-scooter or bike trips earn B3TR; second-hand store receipts are checked by our team first.'

/** For a second-hand store's page and the store list. */
export const SECOND_HAND_RULE = 'Receipts from second-hand stores are checked by our team; only transport receipts are paid at once.'

/** The store list's chip. */
export const SECOND_HAND_CHIP = 'Staff-checked receipts'

import { http, HttpResponse, type HttpHandler } from 'msw'
import { abi, keccak256, Transaction } from 'thor-devkit'
import { encodeRevertReason, events, fn } from '../../app/chain/abi'
import { SIGNALER_ROLE, TESTNET_CONTRACTS } from '../../app/chain/contracts'
import { TESTNET_GENESIS_ID } from '../../app/chain/networks'

// A fake VeChain Thor node for tests and local demos: a small in-memory chain that answers Thor's
// REST API (blocks, accounts, calls, transactions, receipts) and runs VeBetterDAO's
// X2EarnRewardsPool checks in the contract's order. Where Thor's own source
// (github.com/vechain/thor, api/ and txpool/) decides a status code or a message, this file follows
// it, so a client that copes with the fake copes with a real node.

export const FAKE_THOR_URL = 'https://thor.test'

/** Legacy transactions pay base × (1 + coef/255); 10^13 wei is the network's base gas price. */
export const BASE_GAS_PRICE = 10n ** 13n
export const BLOCK_INTERVAL_S = 10
export const BLOCK_GAS_LIMIT = 40_000_000
/** Execution gas (on top of the intrinsic gas) the fake charges per kind of clause. */
export const DISTRIBUTE_GAS = 80_000
export const VIEW_GAS = 1_000
export const REVERT_GAS = 25_000
export const VET_TRANSFER_GAS = 0

/** Impact keys registered in the testnet pool (X2EarnRewardsPool.impactKeyIndex). */
export const DEFAULT_ALLOWED_IMPACT_KEYS = [
  'carbon',
  'water',
  'energy',
  'waste_mass',
  'education_time',
  'timber',
  'plastic',
  'trees_planted',
  'calories_burned',
  'clean_energy_production_wh',
  'sleep_quality_percentage',
] as const

const PROOF_TYPES = new Set(['image', 'link', 'text', 'video'])
const ZERO_ADDRESS = '0x' + '00'.repeat(20)
/** Thor refuses a blockRef more than 5 minutes (30 blocks) ahead of the next block. */
const MAX_BLOCK_REF_AHEAD = 30
/** The testnet genesis block's parentID ("Salute & Respect, Ethereum!"). */
const GENESIS_PARENT_ID = '0xffffffff53616c757465202620526573706563742c20457468657265756d2100'
/** Merkle root of an empty list: what Thor shows as txsRoot / receiptsRoot of an empty block. */
const EMPTY_ROOT = '0x45b0cfc220ceec5b7c1c62c4d4193d38e4eba48e8815729ce75f9c0ab0e4c1c0'
const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n
/** Share of the fee a legacy transaction pays to the block producer (pre-Galactica rule, cosmetic here). */
const REWARD_RATIO = [3n, 10n] as const

// ---------------------------------------------------------------------------------------------
// Public types

export type FakeContracts = { x2EarnRewardsPool: string; x2EarnApps: string; b3tr: string; veBetterPassport: string }

/** One wallet as VeBetter Passport sees it (issue 22). */
export type FakePassportEntry = { blacklisted?: boolean; signals?: number; person?: boolean }

export type FakeAppOptions = {
  distributors: string[]
  availableFunds: bigint
  rewardsPoolEnabled?: boolean
  rewardsPoolBalance?: bigint
  paused?: boolean
}

export type FakeAccountOptions = { vet?: bigint; vtho?: bigint }

export type FakeThorOptions = {
  /** Base URL the msw handlers answer (no trailing slash). Default https://thor.test. */
  url?: string
  genesisId?: string
  /** Default: the last byte of genesisId (0x27 on the test network). */
  chainTag?: number
  contracts?: Partial<FakeContracts>
  /** What the pool's version() answers. Default '7'. */
  version?: string
  /** Best block when the fake starts. Default 1000. */
  startBlock?: number
  /** Unix seconds of startBlock; later blocks are 10 s apart. Default: now. */
  startTimestamp?: number
  /** Blocks a pending tx waits before it can be included (1 = the next block). Default 1. */
  inclusionDelayBlocks?: number
  /** How far "finalized" lags "best". Default 0. */
  finalityLagBlocks?: number
  /** App id (bytes32 hex) → its registration and budget. An app exists when it is listed. */
  apps?: Record<string, FakeAppOptions>
  /** B3TR (wei) the pool contract holds. Default 0. */
  poolB3tr?: bigint
  /** B3TR (wei) of other addresses. */
  b3trBalances?: Record<string, bigint>
  allowedImpactKeys?: readonly string[]
  /** VET and VTHO (wei) of accounts; unknown accounts have none. */
  accounts?: Record<string, FakeAccountOptions>
  /**
   * What VeBetter Passport says about a wallet setPassport() has no entry for. Default: not a
   * person, not blacklisted, no signals. `{ person: true }` makes every wallet a person unless set
   * otherwise (the browser suite's established wallets, issue 31).
   */
  defaultPassport?: FakePassportEntry
  /** Legacy transactions' base gas price (Thor's Params "base-gas-price"). Default 10^13. */
  baseGasPrice?: bigint
  /** The base fee per gas of the next blocks (Galactica); move it with setBaseFee(). Default 10^13. */
  baseFeePerGas?: bigint
  /** Called after each mined block (the demo logs them). */
  onBlock?: (block: MinedBlock) => void
}

/** Faults a test may switch on at any time; counters count down as they fire. */
export type FakeThorFaults = {
  /** Every request fails as a network error. */
  down: boolean
  /** The next N POST /transactions are processed (a valid tx is accepted) but the answer is lost. */
  loseSendAnswers: number
  /** The next N POST /transactions fail as a network error before the node sees them. */
  dropSends: number
  /** Blocks a pending tx waits before inclusion; raise it to make inclusion slow. */
  inclusionDelayBlocks: number
  /** The next included tx reverts with this reason whatever the state. */
  revertNextInclusion: string | null
  /** Every answer is delayed by this many milliseconds. */
  slowMs: number
}

export type FakeAppState = {
  distributors: string[]
  availableFunds: bigint
  rewardsPoolEnabled: boolean
  rewardsPoolBalance: bigint
  paused: boolean
}

export type DecodedClause = {
  to: string | null
  value: bigint
  data: string
  /** The pool/apps/B3TR function the data calls, or null when the selector is unknown. */
  name: string | null
  args: Record<string, unknown>
}

export type IncludedTx = {
  id: string
  origin: string
  gasPayer: string
  blockNumber: number
  blockId: string
  reverted: boolean
  /** Why it reverted ('out of gas', a contract reason, or '' for a revert without reason). */
  revertReason: string | null
  gasUsed: number
  paid: bigint
  clauses: DecodedClause[]
}

export type Distribution = {
  txId: string
  blockNumber: number
  appId: string
  receiver: string
  amountWei: bigint
  proof: string
  distributor: string
}

export type SendOutcome = 'accepted' | 'duplicate' | 'bad-request' | 'rejected' | 'dropped' | 'down'

export type SendRecord = {
  txId: string | null
  outcome: SendOutcome
  /** HTTP status the node chose (null when the request never reached it). */
  status: number | null
  message: string | null
  /** The node processed the request but the client saw a network error (faults.loseSendAnswers). */
  answerLost: boolean
}

export type MinedBlock = { number: number; id: string; timestamp: number; txIds: string[] }

export type BestBlock = { number: number; id: string; timestamp: number }

// ---------------------------------------------------------------------------------------------
// Internal state

type AppRecord = {
  distributors: Set<string>
  availableFunds: bigint
  rewardsPoolEnabled: boolean
  rewardsPoolBalance: bigint
  paused: boolean
}

/** Everything a clause can change; executed on a copy and committed only when the tx succeeds. */
type World = {
  b3tr: Map<string, bigint>
  apps: Map<string, AppRecord>
  accounts: Map<string, { vet: bigint; vtho: bigint }>
  passport: {
    entries: Map<string, Required<FakePassportEntry>>
    /** The answer for a wallet without an entry. */
    fallback: Required<FakePassportEntry>
    signalers: Set<string>
    signalLog: Array<{ user: string; reason: string; signaler: string }>
  }
}

type EventLog = { address: string; topics: string[]; data: string }
type TransferLog = { sender: string; recipient: string; amount: string }
type NewDistribution = Omit<Distribution, 'txId' | 'blockNumber'>

type ClauseResult = {
  data: string
  events: EventLog[]
  transfers: TransferLog[]
  gasUsed: number
  reverted: boolean
  vmError: string
  revertReason: string | null
  distribution: NewDistribution | null
}

type ClauseInput = { to: string | null; value: bigint; data: string }

type Inclusion = {
  blockNumber: number
  reverted: boolean
  revertReason: string | null
  gasUsed: number
  paid: bigint
  reward: bigint
  outputs: Array<{ contractAddress: null; events: EventLog[]; transfers: TransferLog[] }>
}

type AnyTransaction = Transaction<Transaction.LegacyBody | Transaction.DynamicFeeBody>

type TxRecord = {
  id: string
  tx: AnyTransaction
  raw: string
  size: number
  origin: string
  delegator: string | null
  gasPayer: string
  /** Legacy: its gas price; dynamic fee: maxFeePerGas. */
  feeCap: bigint
  /** Legacy: its gas price; dynamic fee: maxPriorityFeePerGas. */
  priorityCap: bigint
  prepaid: bigint
  blockRefNumber: number
  acceptedAtBest: number
  status: 'pending' | 'included' | 'dropped'
  inclusion: Inclusion | null
}

type BlockRecord = { txIds: string[]; gasUsed: number; size: number }

type Verdict = { status: number; body: unknown; txId: string | null; outcome: SendOutcome; message: string | null }

class Revert extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

function check(condition: boolean, reason: string): asserts condition {
  if (!condition) throw new Revert(reason)
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const hex = (n: bigint | number) => '0x' + n.toString(16)
const lower = (s: string) => s.toLowerCase()
const hash = (...parts: Array<string | number>) => '0x' + keccak256(parts.join(':')).toString('hex')
const isAddress = (s: unknown): s is string => typeof s === 'string' && /^0x[0-9a-fA-F]{40}$/.test(s)
const isBytes32 = (s: string) => /^0x[0-9a-fA-F]{64}$/.test(s)
const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What Thor (Go's http.Error) sends for a refused request: plain text with a newline. */
function textError(status: number, message: string) {
  return HttpResponse.text(message + '\n', { status })
}

/** Legacy gas price: base × (1 + coef/255), in integer wei as Thor computes it. */
export function legacyGasPrice(gasPriceCoef: number, base: bigint = BASE_GAS_PRICE): bigint {
  return base + (base * BigInt(gasPriceCoef)) / 255n
}

/** The same checks as go-ethereum's hexutil.Decode, with its messages. */
function decodeHex(raw: unknown): Buffer | string {
  if (typeof raw !== 'string' || raw.length === 0) return 'empty hex string'
  if (!/^0x/i.test(raw)) return 'hex string without 0x prefix'
  const digits = raw.slice(2)
  if (digits.length % 2 !== 0) return 'hex string of odd length'
  if (!/^[0-9a-fA-F]*$/.test(digits)) return 'invalid hex string'
  return Buffer.from(digits, 'hex')
}

/** Thor refuses signatures of the wrong length and high-S signatures before recovering the origin. */
function signatureProblem(tx: AnyTransaction): string | null {
  const expected = tx.delegated ? 130 : 65
  const sig = tx.signature
  if (!sig || sig.length !== expected) return 'invalid signature length'
  const s = BigInt('0x' + sig.subarray(32, 64).toString('hex'))
  if (s > SECP256K1_HALF_N) return 'invalid signature: S value is out of range'
  if (expected === 130 && BigInt('0x' + sig.subarray(97, 129).toString('hex')) > SECP256K1_HALF_N) {
    return 'invalid signature: S value is out of range'
  }
  return null
}

function blockRefNumber(blockRef: string): number {
  return parseInt(blockRef.slice(2, 10), 16)
}

function cloneWorld(world: World): World {
  return structuredClone(world)
}

// ---------------------------------------------------------------------------------------------
// The pool contract's proof JSON (X2EarnRewardsPool.buildProof), byte for byte, reverts included.

export function buildProof(
  proofTypes: string[],
  proofValues: string[],
  impactCodes: string[],
  impactValues: Array<string | bigint | number>,
  description: string,
  allowedImpactKeys: ReadonlySet<string> = new Set(DEFAULT_ALLOWED_IMPACT_KEYS),
): string {
  // The contract only checks (and prints) a part when both of its arrays are non-empty.
  const hasProof = proofTypes.length > 0 && proofValues.length > 0
  const hasImpact = impactCodes.length > 0 && impactValues.length > 0
  if (!hasProof && !hasImpact) return ''

  let json = '{"version": 2'
  if (description.length > 0) json += ',"description": "' + description + '"'
  if (hasProof) json += ',"proof": ' + buildProofJson(proofTypes, proofValues)
  if (hasImpact) json += ',"impact": ' + buildImpactJson(impactCodes, impactValues, allowedImpactKeys)
  return json + '}'
}

function buildProofJson(proofTypes: string[], proofValues: string[]): string {
  check(proofTypes.length === proofValues.length, 'X2EarnRewardsPool: Mismatched input lengths for Proof')
  const parts = proofTypes.map((type, i) => {
    check(PROOF_TYPES.has(type), 'X2EarnRewardsPool: Invalid proof type')
    return '"' + type + '":"' + proofValues[i] + '"'
  })
  return '{' + parts.join(',') + '}'
}

function buildImpactJson(codes: string[], values: Array<string | bigint | number>, allowed: ReadonlySet<string>): string {
  check(codes.length === values.length, 'X2EarnRewardsPool: Mismatched input lengths for Impact')
  const parts = values.map((value, i) => {
    check(allowed.has(codes[i]), 'X2EarnRewardsPool: Invalid impact key')
    return '"' + codes[i] + '":' + BigInt(value).toString()
  })
  return '{' + parts.join(',') + '}'
}

// ---------------------------------------------------------------------------------------------
// Clause execution

type CallContext = {
  contracts: FakeContracts
  version: string
  allowedImpactKeys: ReadonlySet<string>
}

type ContractKind = 'pool' | 'apps' | 'b3tr' | 'passport'
type Args = Record<string, unknown>
type CallImpl = (ctx: CallContext, world: World, args: Args, sender: string) => ClauseResult

const ok = (data: string, gasUsed: number, extra: Partial<ClauseResult> = {}): ClauseResult => ({
  data,
  events: [],
  transfers: [],
  gasUsed,
  reverted: false,
  vmError: '',
  revertReason: null,
  distribution: null,
  ...extra,
})

/** A revert as Thor reports it: the Error(string) data, or '0x' for a revert without a reason. */
function reverted(reason: string | null, gasUsed = REVERT_GAS, vmError = 'execution reverted'): ClauseResult {
  return {
    data: reason === null ? '0x' : encodeRevertReason(reason),
    events: [],
    transfers: [],
    gasUsed,
    reverted: true,
    vmError,
    revertReason: reason ?? '',
    distribution: null,
  }
}

function returns(f: abi.Function, value: unknown, gasUsed = VIEW_GAS): ClauseResult {
  return ok(abi.encodeParameters(f.definition.outputs, [value]), gasUsed)
}

const appOf = (world: World, appId: unknown) => world.apps.get(lower(String(appId)))
const b3trOf = (world: World, who: string) => world.b3tr.get(lower(who)) ?? 0n

const CALLS: Record<ContractKind, Array<[abi.Function, CallImpl]>> = {
  pool: [
    [fn.version, (ctx) => returns(fn.version, ctx.version)],
    [fn.availableFunds, (_, w, a) => returns(fn.availableFunds, appOf(w, a.appId)?.availableFunds ?? 0n)],
    [fn.isRewardsPoolEnabled, (_, w, a) => returns(fn.isRewardsPoolEnabled, appOf(w, a.appId)?.rewardsPoolEnabled ?? false)],
    [fn.rewardsPoolBalance, (_, w, a) => returns(fn.rewardsPoolBalance, appOf(w, a.appId)?.rewardsPoolBalance ?? 0n)],
    [fn.isDistributionPaused, (_, w, a) => returns(fn.isDistributionPaused, appOf(w, a.appId)?.paused ?? false)],
    [fn.distributeRewardWithProof, distributeRewardWithProof],
  ],
  apps: [
    [fn.appExists, (_, w, a) => returns(fn.appExists, appOf(w, a.appId) !== undefined)],
    [
      fn.isRewardDistributor,
      (_, w, a) => returns(fn.isRewardDistributor, appOf(w, a.appId)?.distributors.has(lower(String(a.distributorAddress))) ?? false),
    ],
  ],
  b3tr: [[fn.balanceOf, (_, w, a) => returns(fn.balanceOf, b3trOf(w, String(a.account)))]],
  passport: [
    [fn.isBlacklisted, (_, w, a) => returns(fn.isBlacklisted, passportOf(w, a._user).blacklisted)],
    [fn.signaledCounter, (_, w, a) => returns(fn.signaledCounter, BigInt(passportOf(w, a._user).signals))],
    [
      fn.isPerson,
      (_, w, a) => {
        const entry = passportOf(w, a.user)
        const reason = entry.blacklisted ? 'User is blacklisted' : entry.person ? 'User has participated in enough actions' : 'User does not meet the criteria to be considered a person'
        return ok(abi.encodeParameters(fn.isPerson.definition.outputs, [entry.blacklisted ? false : entry.person, reason]), VIEW_GAS)
      },
    ],
    [fn.hasRole, (_, w, a) => returns(fn.hasRole, lower(String(a.role)) === SIGNALER_ROLE && w.passport.signalers.has(lower(String(a.account))))],
    [fn.signalUserWithReason, signalUserWithReason],
  ],
}

const passportEntry = (entry: FakePassportEntry): Required<FakePassportEntry> => ({
  blacklisted: entry.blacklisted ?? false,
  signals: entry.signals ?? 0,
  person: entry.person ?? false,
})
const passportOf = (world: World, who: unknown) => world.passport.entries.get(lower(String(who))) ?? world.passport.fallback

/** VeBetterPassport.signalUserWithReason: onlyRoleOrAdmin(SIGNALER_ROLE), then one more signal. */
function signalUserWithReason(_ctx: CallContext, world: World, a: Args, sender: string): ClauseResult {
  const signaler = lower(sender)
  check(world.passport.signalers.has(signaler), `AccessControl: account ${signaler} is missing role ${SIGNALER_ROLE}`)
  const user = lower(String(a._user))
  const entry = passportOf(world, user)
  world.passport.entries.set(user, { ...entry, signals: entry.signals + 1 })
  world.passport.signalLog.push({ user, reason: String(a.reason), signaler })
  return ok('0x', 60_000)
}

const ALL_FUNCTIONS = Object.values(fn)

function decodeArgs(f: abi.Function, data: string): Args {
  const decoded = abi.decodeParameters(f.definition.inputs, '0x' + data.slice(10))
  return Object.fromEntries(f.definition.inputs.map((input, i) => [input.name || String(i), decoded[i]]))
}

/** X2EarnRewardsPool.distributeRewardWithProof: _emitProof, then _distributeReward, in that order. */
function distributeRewardWithProof(ctx: CallContext, world: World, a: Args, sender: string): ClauseResult {
  const appId = lower(String(a.appId))
  const amount = BigInt(String(a.amount))
  const receiver = lower(String(a.receiver))
  const pool = ctx.contracts.x2EarnRewardsPool

  const proof = buildProof(
    a.proofTypes as string[],
    a.proofValues as string[],
    a.impactCodes as string[],
    a.impactValues as string[],
    String(a.description),
    ctx.allowedImpactKeys,
  )

  const app = world.apps.get(appId)
  check(!app?.paused, 'X2EarnRewardsPool: distribution is paused')
  check(app !== undefined, 'X2EarnRewardsPool: app does not exist')
  check(app.distributors.has(sender), 'X2EarnRewardsPool: not a reward distributor')
  check(b3trOf(world, pool) >= amount, 'X2EarnRewardsPool: insufficient funds on contract')
  if (app.rewardsPoolEnabled) {
    check(app.rewardsPoolBalance >= amount, 'X2EarnRewardsPool: not enough funds in the rewards pool')
    app.rewardsPoolBalance -= amount
  } else {
    check(app.availableFunds >= amount, 'X2EarnRewardsPool: app has insufficient available funds')
    app.availableFunds -= amount
  }
  world.b3tr.set(pool, b3trOf(world, pool) - amount)
  world.b3tr.set(receiver, b3trOf(world, receiver) + amount)

  const rewardEvent: EventLog = {
    address: pool,
    topics: events.rewardDistributed.encode({ appId, receiver, distributor: sender }) as string[],
    data: abi.encodeParameters(
      [
        { name: 'amount', type: 'uint256' },
        { name: 'proof', type: 'string' },
      ],
      [amount, proof],
    ),
  }
  const transferEvent: EventLog = {
    address: ctx.contracts.b3tr,
    topics: events.transfer.encode({ from: pool, to: receiver }) as string[],
    data: abi.encodeParameter('uint256', amount),
  }
  return ok('0x', DISTRIBUTE_GAS, {
    events: [rewardEvent, transferEvent],
    distribution: { appId, receiver, amountWei: amount, proof, distributor: sender },
  })
}

function executeClause(ctx: CallContext, world: World, clause: ClauseInput, sender: string): ClauseResult {
  if (clause.to === null) return reverted(null) // contract creation is beyond this fake
  const to = lower(clause.to)
  const kind = contractKind(ctx.contracts, to)
  if (kind === null) return transferVet(world, sender, to, clause.value)
  if (clause.value > 0n) return reverted(null) // the three contracts have no payable function
  const selector = lower(clause.data.slice(0, 10))
  const entry = CALLS[kind].find(([f]) => f.signature === selector)
  if (!entry) return reverted(null)
  let args: Args
  try {
    args = decodeArgs(entry[0], clause.data)
  } catch {
    return reverted(null)
  }
  try {
    return entry[1](ctx, world, args, sender)
  } catch (e) {
    if (e instanceof Revert) return reverted(e.reason)
    throw e
  }
}

/** A clause to an account without code: a plain VET transfer (it succeeds even with data). */
function transferVet(world: World, sender: string, to: string, value: bigint): ClauseResult {
  if (value === 0n) return ok('0x', VET_TRANSFER_GAS)
  const from = world.accounts.get(sender) ?? { vet: 0n, vtho: 0n }
  if (from.vet < value) return reverted(null, 0, 'insufficient balance for transfer')
  const recipient = world.accounts.get(to) ?? { vet: 0n, vtho: 0n }
  world.accounts.set(sender, { ...from, vet: from.vet - value })
  world.accounts.set(to, { ...recipient, vet: recipient.vet + value })
  return ok('0x', VET_TRANSFER_GAS, { transfers: [{ sender, recipient: to, amount: hex(value) }] })
}

function contractKind(contracts: FakeContracts, to: string): ContractKind | null {
  if (to === contracts.x2EarnRewardsPool) return 'pool'
  if (to === contracts.x2EarnApps) return 'apps'
  if (to === contracts.b3tr) return 'b3tr'
  if (to === contracts.veBetterPassport) return 'passport'
  return null
}

function decodeClause(clause: ClauseInput): DecodedClause {
  const selector = lower(clause.data.slice(0, 10))
  const f = ALL_FUNCTIONS.find((candidate) => candidate.signature === selector)
  if (!f) return { ...clause, name: null, args: {} }
  try {
    return { ...clause, name: f.definition.name, args: decodeArgs(f, clause.data) }
  } catch {
    return { ...clause, name: f.definition.name, args: {} }
  }
}

function clauseInputs(tx: AnyTransaction): ClauseInput[] {
  return tx.body.clauses.map((c) => ({ to: c.to ? lower(c.to) : null, value: BigInt(c.value), data: lower(c.data || '0x') }))
}

/** A call body's clause as Thor parses it (value may be a number, a decimal or a hex string). */
function parseCallClause(raw: unknown): ClauseInput | string {
  if (raw === null || typeof raw !== 'object') return 'clauses: expected objects'
  const c = raw as { to?: unknown; value?: unknown; data?: unknown }
  if (c.to !== null && c.to !== undefined && !isAddress(c.to)) return 'clauses: invalid address'
  let value: bigint
  try {
    value = BigInt((c.value as string | number | undefined) ?? 0)
  } catch {
    return 'clauses: invalid value'
  }
  const data = c.data === undefined || c.data === null || c.data === '' ? '0x' : c.data
  if (typeof data !== 'string' || typeof decodeHex(data) === 'string') return 'clauses: invalid data'
  return { to: c.to ? lower(c.to as string) : null, value, data: lower(data) }
}

// ---------------------------------------------------------------------------------------------
// The fake node

export class FakeThor {
  readonly url: string
  readonly genesisId: string
  readonly chainTag: number
  readonly contracts: FakeContracts
  readonly faults: FakeThorFaults
  /** msw handlers: `server.use(...fake.handlers)`. */
  readonly handlers: HttpHandler[]

  private world: World
  private best: number
  private readonly ctx: CallContext
  private readonly startBlock: number
  private readonly startTimestamp: number
  private readonly finalityLagBlocks: number
  private readonly baseGasPrice: bigint
  /** The base fee the next block will have; each mined block records its own. */
  private baseFee: bigint
  private readonly blockBaseFees = new Map<number, bigint>()
  private readonly onBlock?: (block: MinedBlock) => void
  private readonly blocks = new Map<number, BlockRecord>()
  /** Every accepted tx, in acceptance order (the order blocks include them). */
  private readonly txs = new Map<string, TxRecord>()
  private readonly sendLog: SendRecord[] = []
  private readonly distributionLog: Distribution[] = []

  constructor(options: FakeThorOptions = {}) {
    this.url = (options.url ?? FAKE_THOR_URL).replace(/\/+$/, '')
    this.genesisId = lower(options.genesisId ?? TESTNET_GENESIS_ID)
    this.chainTag = options.chainTag ?? parseInt(this.genesisId.slice(-2), 16)
    const contracts = { ...TESTNET_CONTRACTS, ...options.contracts }
    this.contracts = {
      x2EarnRewardsPool: lower(contracts.x2EarnRewardsPool),
      x2EarnApps: lower(contracts.x2EarnApps),
      b3tr: lower(contracts.b3tr),
      veBetterPassport: lower(contracts.veBetterPassport),
    }
    this.ctx = {
      contracts: this.contracts,
      version: options.version ?? '7',
      allowedImpactKeys: new Set(options.allowedImpactKeys ?? DEFAULT_ALLOWED_IMPACT_KEYS),
    }
    this.startBlock = options.startBlock ?? 1000
    this.best = this.startBlock
    this.startTimestamp = options.startTimestamp ?? Math.floor(Date.now() / 1000)
    this.finalityLagBlocks = options.finalityLagBlocks ?? 0
    this.baseGasPrice = options.baseGasPrice ?? BASE_GAS_PRICE
    this.baseFee = options.baseFeePerGas ?? BASE_GAS_PRICE
    this.onBlock = options.onBlock
    this.faults = {
      down: false,
      loseSendAnswers: 0,
      dropSends: 0,
      inclusionDelayBlocks: options.inclusionDelayBlocks ?? 1,
      revertNextInclusion: null,
      slowMs: 0,
    }
    this.world = {
      b3tr: new Map(),
      apps: new Map(),
      accounts: new Map(),
      passport: { entries: new Map(), fallback: passportEntry(options.defaultPassport ?? {}), signalers: new Set(), signalLog: [] },
    }
    for (const [who, amount] of Object.entries(options.b3trBalances ?? {})) this.world.b3tr.set(lower(who), amount)
    this.world.b3tr.set(this.contracts.x2EarnRewardsPool, options.poolB3tr ?? 0n)
    for (const [appId, app] of Object.entries(options.apps ?? {})) this.addApp(appId, app)
    for (const [who, account] of Object.entries(options.accounts ?? {})) this.setAccount(who, account)
    this.handlers = this.buildHandlers()
  }

  // --- chain ---------------------------------------------------------------------------------

  /** Produce n blocks, including the pending txs whose time has come. */
  mine(n = 1): MinedBlock[] {
    const mined: MinedBlock[] = []
    for (let i = 0; i < n; i++) mined.push(this.mineOne())
    return mined
  }

  bestBlock(): BestBlock {
    return { number: this.best, id: this.blockId(this.best), timestamp: this.blockTimestamp(this.best) }
  }

  /** The blockRef a client would put in a tx now: the first 8 bytes of the best block's id. */
  blockRef(): string {
    return this.blockId(this.best).slice(0, 18)
  }

  blockId(n: number): string {
    if (n === 0) return this.genesisId
    return '0x' + n.toString(16).padStart(8, '0') + hash(this.genesisId, 'block', n).slice(2, 58)
  }

  gasPrice(gasPriceCoef: number): bigint {
    return legacyGasPrice(gasPriceCoef, this.baseGasPrice)
  }

  /**
   * The base fee of the blocks mined from now on (a fee spike, or its end). Thor moves it by at
   * most 12.5 % a block; a test may jump, as several full blocks in a row would.
   */
  setBaseFee(baseFeePerGas: bigint): void {
    if (baseFeePerGas <= 0n) throw new Error('fake-thor: the base fee must be positive')
    this.baseFee = baseFeePerGas
  }

  /** The base fee the next block will charge. */
  currentBaseFee(): bigint {
    return this.baseFee
  }

  /** What GET /fees/priority suggests: 5 % of the base fee (Thor's PriorityIncreasePercentage). */
  suggestedPriorityFee(): bigint {
    return this.baseFee / 20n
  }

  // --- introspection -------------------------------------------------------------------------

  b3trBalanceOf(who: string): bigint {
    return b3trOf(this.world, who)
  }

  poolB3tr(): bigint {
    return this.b3trBalanceOf(this.contracts.x2EarnRewardsPool)
  }

  /** The app's state, or null when it is not registered. */
  appFunds(appId: string): FakeAppState | null {
    const app = this.world.apps.get(lower(appId))
    if (!app) return null
    return { ...app, distributors: [...app.distributors] }
  }

  account(who: string): { vet: bigint; vtho: bigint } {
    return { ...(this.world.accounts.get(lower(who)) ?? { vet: 0n, vtho: 0n }) }
  }

  /** Ids of accepted txs not yet included nor dropped, in acceptance order. */
  pending(): string[] {
    return this.records('pending').map((r) => r.id)
  }

  /** Ids of txs that left the pool without being included (expired, or their dependency reverted). */
  dropped(): string[] {
    return this.records('dropped').map((r) => r.id)
  }

  included(): IncludedTx[] {
    return this.records('included').map((r) => {
      const inc = r.inclusion as Inclusion
      return {
        id: r.id,
        origin: r.origin,
        gasPayer: r.gasPayer,
        blockNumber: inc.blockNumber,
        blockId: this.blockId(inc.blockNumber),
        reverted: inc.reverted,
        revertReason: inc.revertReason,
        gasUsed: inc.gasUsed,
        paid: inc.paid,
        clauses: clauseInputs(r.tx).map(decodeClause),
      }
    })
  }

  /** Successful payouts, in chain order. */
  distributions(): Distribution[] {
    return this.distributionLog.map((d) => ({ ...d }))
  }

  /** Every POST /transactions, in order, with what happened to it. */
  sends(): SendRecord[] {
    return this.sendLog.map((s) => ({ ...s }))
  }

  sendCounts(): Record<SendOutcome | 'answerLost' | 'total', number> {
    const counts = { accepted: 0, duplicate: 0, 'bad-request': 0, rejected: 0, dropped: 0, down: 0, answerLost: 0, total: 0 }
    for (const s of this.sendLog) {
      counts[s.outcome]++
      counts.total++
      if (s.answerLost) counts.answerLost++
    }
    return counts
  }

  // --- mutators ------------------------------------------------------------------------------

  addApp(appId: string, app: FakeAppOptions): void {
    this.world.apps.set(lower(appId), {
      distributors: new Set(app.distributors.map(lower)),
      availableFunds: app.availableFunds,
      rewardsPoolEnabled: app.rewardsPoolEnabled ?? false,
      rewardsPoolBalance: app.rewardsPoolBalance ?? 0n,
      paused: app.paused ?? false,
    })
  }

  removeApp(appId: string): void {
    this.world.apps.delete(lower(appId))
  }

  setPaused(appId: string, paused: boolean): void {
    this.app(appId).paused = paused
  }

  setAvailableFunds(appId: string, amount: bigint): void {
    this.app(appId).availableFunds = amount
  }

  setRewardsPool(appId: string, pool: { enabled: boolean; balance?: bigint }): void {
    const app = this.app(appId)
    app.rewardsPoolEnabled = pool.enabled
    if (pool.balance !== undefined) app.rewardsPoolBalance = pool.balance
  }

  addDistributor(appId: string, who: string): void {
    this.app(appId).distributors.add(lower(who))
  }

  removeDistributor(appId: string, who: string): void {
    this.app(appId).distributors.delete(lower(who))
  }

  setPoolB3tr(amount: bigint): void {
    this.world.b3tr.set(this.contracts.x2EarnRewardsPool, amount)
  }

  setB3trBalance(who: string, amount: bigint): void {
    this.world.b3tr.set(lower(who), amount)
  }

  /** What VeBetter Passport says about a wallet. */
  setPassport(who: string, entry: FakePassportEntry): void {
    const current = passportOf(this.world, who)
    this.world.passport.entries.set(lower(who), { ...current, ...entry })
  }

  /** Grant the SIGNALER_ROLE (assignSignalerToAppByAppAdmin). */
  addSignaler(who: string): void {
    this.world.passport.signalers.add(lower(who))
  }

  passportSignals(): Array<{ user: string; reason: string; signaler: string }> {
    return [...this.world.passport.signalLog]
  }

  setAccount(who: string, account: FakeAccountOptions): void {
    const current = this.account(who)
    this.world.accounts.set(lower(who), { vet: account.vet ?? current.vet, vtho: account.vtho ?? current.vtho })
  }

  private app(appId: string): AppRecord {
    const app = this.world.apps.get(lower(appId))
    if (!app) throw new Error(`fake-thor: no app ${appId}; add it with addApp() first`)
    return app
  }

  // --- mining --------------------------------------------------------------------------------

  private records(status: TxRecord['status']): TxRecord[] {
    return [...this.txs.values()].filter((r) => r.status === status)
  }

  private mineOne(): MinedBlock {
    const number = this.best + 1
    const block: BlockRecord = { txIds: [], gasUsed: 0, size: 0 }
    for (const record of this.records('pending')) {
      const readiness = this.readiness(record, number, block)
      if (readiness === 'drop') record.status = 'dropped'
      if (readiness !== 'include') continue
      record.inclusion = this.execute(record, number)
      record.status = 'included'
      block.txIds.push(record.id)
      block.gasUsed += record.inclusion.gasUsed
      block.size += record.size
    }
    this.blocks.set(number, block)
    this.blockBaseFees.set(number, this.baseFee)
    this.best = number
    const mined = { number, id: this.blockId(number), timestamp: this.blockTimestamp(number), txIds: block.txIds }
    this.onBlock?.(mined)
    return mined
  }

  /** Whether block `number` can take the tx now, must wait, or never can (Thor's packer rules). */
  private readiness(record: TxRecord, number: number, block: BlockRecord): 'include' | 'wait' | 'drop' {
    if (number > record.blockRefNumber + record.tx.body.expiration) return 'drop'
    if (number < record.blockRefNumber) return 'wait'
    if (number < record.acceptedAtBest + Math.max(1, this.faults.inclusionDelayBlocks)) return 'wait'
    const dependsOn = record.tx.body.dependsOn
    if (dependsOn) {
      const dep = this.txs.get(lower(dependsOn))
      if (dep?.status !== 'included') return 'wait'
      if (dep.inclusion?.reverted) return 'drop'
    }
    // "tx not adoptable now: gas price is less than block base fee": it waits for the fee to fall.
    if (record.feeCap < this.baseFee) return 'wait'
    if (this.account(record.gasPayer).vtho < record.prepaid) return 'wait'
    if (block.gasUsed + Number(record.tx.body.gas) > BLOCK_GAS_LIMIT) return 'wait'
    return 'include'
  }

  private execute(record: TxRecord, blockNumber: number): Inclusion {
    const gasLimit = Number(record.tx.body.gas)
    const intrinsic = record.tx.intrinsicGas
    const forced = this.faults.revertNextInclusion
    this.faults.revertNextInclusion = null

    let outcome = forced !== null ? forcedRevert(forced) : this.runClauses(record)
    if (intrinsic + outcome.execGas > gasLimit) outcome = { ...forcedRevert('out of gas'), execGas: gasLimit - intrinsic }

    if (!outcome.reverted && outcome.world) {
      this.world = outcome.world
      for (const d of outcome.distributions) this.distributionLog.push({ ...d, txId: record.id, blockNumber })
    }
    const gasUsed = intrinsic + outcome.execGas
    // Galactica: the base fee plus the tip, the tip bounded by the fee cap (EffectivePriorityFeePerGas).
    const room = record.feeCap - this.baseFee
    const tip = record.priorityCap < room ? record.priorityCap : room
    const paid = BigInt(gasUsed) * (this.baseFee + tip)
    const payer = this.account(record.gasPayer)
    this.world.accounts.set(record.gasPayer, { ...payer, vtho: payer.vtho - paid })
    return {
      blockNumber,
      reverted: outcome.reverted,
      revertReason: outcome.revertReason,
      gasUsed,
      paid,
      reward: (paid * REWARD_RATIO[0]) / REWARD_RATIO[1],
      outputs: outcome.reverted ? [] : outcome.outputs,
    }
  }

  /** Runs a tx's clauses on a copy of the state; any revert reverts them all. */
  private runClauses(record: TxRecord): ClausesOutcome {
    const world = cloneWorld(this.world)
    const outputs: Inclusion['outputs'] = []
    const distributions: NewDistribution[] = []
    let execGas = 0
    for (const clause of clauseInputs(record.tx)) {
      const result = executeClause(this.ctx, world, clause, record.origin)
      execGas += result.gasUsed
      if (result.reverted) return { ...forcedRevert(result.revertReason ?? ''), execGas }
      outputs.push({ contractAddress: null, events: result.events, transfers: result.transfers })
      if (result.distribution) distributions.push(result.distribution)
    }
    return { world, reverted: false, revertReason: null, execGas, outputs, distributions }
  }

  // --- sending -------------------------------------------------------------------------------

  /** POST /transactions: Thor's checks in Thor's order (api/transactions, txpool.add, TxObject.Evaluate). */
  private admit(bodyText: string): Verdict {
    const bad = (message: string, txId: string | null = null): Verdict => ({ status: 400, body: message, txId, outcome: 'bad-request', message })
    const refuse = (message: string, txId: string): Verdict => ({ status: 403, body: message, txId, outcome: 'rejected', message })

    let body: unknown
    try {
      body = JSON.parse(bodyText)
    } catch (e) {
      return bad('body: ' + errorMessage(e))
    }
    if (body === null || typeof body !== 'object') return bad('body')
    const bytes = decodeHex((body as { raw?: unknown }).raw)
    if (typeof bytes === 'string') return bad('raw: ' + bytes)
    let tx: AnyTransaction
    try {
      tx = Transaction.decode(bytes, false)
    } catch (e) {
      return bad('raw: ' + errorMessage(e))
    }

    const txId = tx.id
    // A tx already in the pool is not an error for Thor: it answers the id again.
    if (txId && this.txs.get(txId)?.status === 'pending') return { status: 200, body: { id: txId }, txId, outcome: 'duplicate', message: null }

    const sigProblem = signatureProblem(tx)
    if (sigProblem) return bad('bad tx: ' + sigProblem, txId)
    if (tx.body.chainTag !== this.chainTag) return bad('bad tx: chain tag mismatch', txId)
    const origin = tx.origin
    if (!origin || !txId) return bad('bad tx: invalid signature', txId)
    if (BigInt(tx.body.gas) < BigInt(tx.intrinsicGas)) return bad('bad tx: intrinsic gas exceeds provided gas', txId)

    const next = this.best + 1
    const refNumber = blockRefNumber(tx.body.blockRef)
    if (BigInt(tx.body.gas) > BigInt(BLOCK_GAS_LIMIT)) return refuse('tx rejected: tx gas exceeds block gas limit', txId)
    if (next > refNumber + tx.body.expiration) return refuse('tx rejected: expired', txId)
    if (refNumber > next + MAX_BLOCK_REF_AHEAD) return refuse('tx rejected: block ref out of schedule', txId)
    if (tx.type !== Transaction.Type.Legacy && tx.type !== Transaction.Type.DynamicFee) return refuse('tx rejected: transaction type not supported', txId)
    if (this.txs.get(txId)?.status === 'included') return refuse('tx rejected: known tx', txId)

    const delegator = tx.delegated ? tx.delegator : null
    if (tx.delegated && !delegator) return bad('bad tx: invalid signature', txId)
    const gasPayer = lower(delegator ?? origin)
    const { feeCap, priorityCap } = this.feeCapsOf(tx)
    // ResolvedTx.BuyGas: a fee cap under the next block's base fee is refused outright.
    if (feeCap < this.baseFee) return refuse('tx rejected: gas price is less than block base fee', txId)
    if (tx.type === Transaction.Type.DynamicFee && priorityCap > feeCap) return bad('bad tx: maxPriorityFeePerGas is greater than maxFeePerGas', txId)
    const prepaid = BigInt(tx.body.gas) * feeCap
    // A tx whose blockRef is still ahead is accepted without buying gas (Thor: "not executable yet").
    if (refNumber <= next) {
      const energy = this.account(gasPayer).vtho
      if (energy < prepaid) return refuse('tx rejected: insufficient energy', txId)
      const pendingCost = this.records('pending')
        .filter((r) => r.gasPayer === gasPayer)
        .reduce((sum, r) => sum + r.prepaid, prepaid)
      if (energy < pendingCost) return refuse('tx rejected: insufficient energy for overall pending cost', txId)
    }

    this.txs.set(txId, {
      id: txId,
      tx,
      raw: '0x' + bytes.toString('hex'),
      size: bytes.length,
      origin: lower(origin),
      delegator: delegator ? lower(delegator) : null,
      gasPayer,
      feeCap,
      priorityCap,
      prepaid,
      blockRefNumber: refNumber,
      acceptedAtBest: this.best,
      status: 'pending',
      inclusion: null,
    })
    return { status: 200, body: { id: txId }, txId, outcome: 'accepted', message: null }
  }

  private async answerSend(request: Request): Promise<Response> {
    if (this.faults.dropSends > 0) {
      this.faults.dropSends--
      this.sendLog.push({ txId: null, outcome: 'dropped', status: null, message: null, answerLost: false })
      return HttpResponse.error()
    }
    const verdict = this.admit(await request.text())
    const answerLost = this.faults.loseSendAnswers > 0
    if (answerLost) this.faults.loseSendAnswers--
    this.sendLog.push({ txId: verdict.txId, outcome: verdict.outcome, status: verdict.status, message: verdict.message, answerLost })
    if (answerLost) return HttpResponse.error()
    if (verdict.status === 200) return HttpResponse.json(verdict.body as { id: string })
    return textError(verdict.status, String(verdict.body))
  }

  /** A tx's fee cap and tip cap: a legacy tx pays its gas price for both. */
  private feeCapsOf(tx: AnyTransaction): { feeCap: bigint; priorityCap: bigint } {
    if (tx.type === Transaction.Type.DynamicFee) {
      const body = tx.body as Transaction.DynamicFeeBody
      return { feeCap: BigInt(body.maxFeePerGas), priorityCap: BigInt(body.maxPriorityFeePerGas) }
    }
    const price = this.gasPrice((tx.body as Transaction.LegacyBody).gasPriceCoef)
    return { feeCap: price, priorityCap: price }
  }

  // --- JSON views ----------------------------------------------------------------------------

  private blockTimestamp(n: number): number {
    return this.startTimestamp + (n - this.startBlock) * BLOCK_INTERVAL_S
  }

  private finalized(): number {
    return Math.max(0, this.best - this.finalityLagBlocks)
  }

  /** A block number for Thor's revision syntax, null for an unknown block, or an error message. */
  private resolveRevision(revision: string): { number: number | null } | { error: string } {
    if (revision === '' || revision === 'best') return { number: this.best }
    if (revision === 'finalized' || revision === 'justified') return { number: this.finalized() }
    if (revision === 'next') return { error: 'invalid revision: next is not allowed' }
    if (revision.length === 66 || revision.length === 64) {
      const id = lower(revision.startsWith('0x') ? revision : '0x' + revision)
      if (!isBytes32(id)) return { error: 'invalid hex string' }
      const n = parseInt(id.slice(2, 10), 16)
      return { number: n <= this.best && this.blockId(n) === id ? n : null }
    }
    if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(revision)) return { error: `strconv.ParseUint: parsing "${revision}": invalid syntax` }
    const n = Number(revision)
    if (n > 0xffffffff) return { error: 'block number out of max uint32' }
    return { number: n <= this.best ? n : null }
  }

  private blockJson(n: number, expanded: boolean) {
    const record = this.blocks.get(n) ?? { txIds: [], gasUsed: 0, size: 0 }
    const signer = hash('signer', this.genesisId).slice(0, 42)
    return {
      number: n,
      id: this.blockId(n),
      size: 250 + record.size,
      parentID: n === 0 ? GENESIS_PARENT_ID : this.blockId(n - 1),
      timestamp: this.blockTimestamp(n),
      gasLimit: BLOCK_GAS_LIMIT,
      beneficiary: signer,
      gasUsed: record.gasUsed,
      totalScore: n,
      txsRoot: record.txIds.length === 0 ? EMPTY_ROOT : hash('txs', ...record.txIds),
      txsFeatures: 1,
      stateRoot: hash(this.genesisId, 'state', n),
      receiptsRoot: record.txIds.length === 0 ? EMPTY_ROOT : hash('receipts', ...record.txIds),
      com: true,
      signer,
      isTrunk: true,
      isFinalized: n <= this.finalized(),
      baseFeePerGas: hex(n === this.best ? this.baseFee : (this.blockBaseFees.get(n) ?? this.baseFee)),
      transactions: expanded ? record.txIds.map((id) => this.embeddedTxJson(this.txs.get(id) as TxRecord)) : record.txIds,
    }
  }

  /** Thor's api.Transaction: gasPriceCoef for a legacy tx, the two fee caps for a dynamic-fee one (omitempty). */
  private txJson(record: TxRecord) {
    const body = record.tx.body
    const inc = record.status === 'included' ? record.inclusion : null
    const fees =
      record.tx.type === Transaction.Type.DynamicFee
        ? { maxFeePerGas: hex(record.feeCap), maxPriorityFeePerGas: hex(record.priorityCap) }
        : { gasPriceCoef: (body as Transaction.LegacyBody).gasPriceCoef }
    return {
      id: record.id,
      type: record.tx.type === Transaction.Type.DynamicFee ? 81 : 0,
      chainTag: body.chainTag,
      blockRef: lower(body.blockRef),
      expiration: body.expiration,
      clauses: clauseInputs(record.tx).map((c) => ({ to: c.to, value: hex(c.value), data: c.data })),
      ...fees,
      gas: Number(body.gas),
      origin: record.origin,
      delegator: record.delegator,
      nonce: hex(BigInt(body.nonce)),
      dependsOn: body.dependsOn ? lower(body.dependsOn) : null,
      size: record.size,
      meta: inc ? this.txMeta(inc.blockNumber) : null,
    }
  }

  private txMeta(blockNumber: number) {
    return { blockID: this.blockId(blockNumber), blockNumber, blockTimestamp: this.blockTimestamp(blockNumber) }
  }

  /** Receipt as Thor's api.Receipt: `type` is omitempty there, so a legacy receipt has none. */
  private receiptJson(record: TxRecord) {
    const inc = record.inclusion as Inclusion
    return {
      gasUsed: inc.gasUsed,
      gasPayer: record.gasPayer,
      paid: hex(inc.paid),
      reward: hex(inc.reward),
      reverted: inc.reverted,
      meta: { ...this.txMeta(inc.blockNumber), txID: record.id, txOrigin: record.origin },
      outputs: inc.outputs,
    }
  }

  private embeddedTxJson(record: TxRecord) {
    const { meta: _meta, ...tx } = this.txJson(record)
    const { meta: _receiptMeta, ...receipt } = this.receiptJson(record)
    return { ...tx, ...receipt }
  }

  // --- HTTP ----------------------------------------------------------------------------------

  private buildHandlers(): HttpHandler[] {
    const url = this.url
    return [
      // Faults first: a resolver that returns nothing lets the request fall through to the routes.
      http.all(`${url}/*`, async ({ request }) => {
        if (this.faults.slowMs > 0) await sleep(this.faults.slowMs)
        if (!this.faults.down) return undefined
        if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/transactions')) {
          this.sendLog.push({ txId: null, outcome: 'down', status: null, message: null, answerLost: false })
        }
        return HttpResponse.error()
      }),
      http.get(`${url}/blocks/:revision`, ({ params, request }) => {
        const rev = this.resolveRevision(decodeURIComponent(String(params.revision)))
        if ('error' in rev) return textError(400, 'revision: ' + rev.error)
        if (rev.number === null) return HttpResponse.json(null)
        const expanded = new URL(request.url).searchParams.get('expanded') === 'true'
        return HttpResponse.json(this.blockJson(rev.number, expanded))
      }),
      http.get(`${url}/fees/priority`, () => HttpResponse.json({ maxPriorityFeePerGas: hex(this.suggestedPriorityFee()) })),
      http.get(`${url}/accounts/:address`, ({ params }) => {
        const who = String(params.address)
        if (!isAddress(who)) return textError(400, 'address: invalid address')
        const account = this.account(who)
        return HttpResponse.json({
          balance: hex(account.vet),
          energy: hex(account.vtho),
          hasCode: contractKind(this.contracts, lower(who)) !== null,
        })
      }),
      http.post(`${url}/accounts/*`, async ({ request }) => this.answerCall(request)),
      http.post(`${url}/transactions`, async ({ request }) => this.answerSend(request)),
      http.get(`${url}/transactions/:id/receipt`, ({ params, request }) => {
        const id = lower(String(params.id))
        if (!isBytes32(id)) return textError(400, 'id: invalid length')
        // `head`: the receipt as of that block; a block the node does not have is an error.
        const head = new URL(request.url).searchParams.get('head')
        let headNumber = this.best
        if (head) {
          const rev = this.resolveRevision(head)
          if ('error' in rev) return textError(400, 'head: ' + rev.error)
          if (rev.number === null) return textError(400, 'head: leveldb: not found')
          headNumber = rev.number
        }
        const record = this.txs.get(id)
        const included = record?.status === 'included' && (record.inclusion as Inclusion).blockNumber <= headNumber
        return HttpResponse.json(included ? this.receiptJson(record) : null)
      }),
      http.get(`${url}/transactions/:id`, ({ params, request }) => {
        const id = lower(String(params.id))
        if (!isBytes32(id)) return textError(400, 'id: invalid length')
        const query = new URL(request.url).searchParams
        const record = this.txs.get(id)
        const visible = record?.status === 'included' || (record?.status === 'pending' && query.get('pending') === 'true')
        if (!record || !visible) return HttpResponse.json(null)
        if (query.get('raw') === 'true') return HttpResponse.json({ raw: record.raw, meta: this.txJson(record).meta })
        return HttpResponse.json(this.txJson(record))
      }),
      http.all(`${url}/*`, () => textError(404, '404 page not found')),
    ]
  }

  /** POST /accounts/* (a batch of clauses) and the older POST /accounts/{address} (one call). */
  private async answerCall(request: Request): Promise<Response> {
    const target = decodeURIComponent(new URL(request.url).pathname.split('/').pop() ?? '')
    let body: Record<string, unknown>
    try {
      body = JSON.parse(await request.text())
    } catch (e) {
      return textError(400, 'body: ' + errorMessage(e))
    }
    if (body === null || typeof body !== 'object') return textError(400, 'body')
    const caller = body.caller === undefined || body.caller === null ? ZERO_ADDRESS : body.caller
    if (!isAddress(caller)) return textError(400, 'caller: invalid address')

    if (target !== '*') {
      if (!isAddress(target)) return textError(400, 'address: invalid address')
      const clause = parseCallClause({ to: target, value: body.value, data: body.data })
      if (typeof clause === 'string') return textError(400, clause)
      return HttpResponse.json(this.callJson(executeClause(this.ctx, cloneWorld(this.world), clause, lower(caller))))
    }

    if (!Array.isArray(body.clauses)) return textError(400, 'body: clauses required')
    const clauses = body.clauses.map(parseCallClause)
    const invalid = clauses.find((c): c is string => typeof c === 'string')
    if (invalid) return textError(400, invalid)
    return HttpResponse.json(this.simulate(clauses as ClauseInput[], lower(caller)))
  }

  /** Thor runs a batch on one uncommitted state and stops after the first reverted clause. */
  private simulate(clauses: ClauseInput[], caller: string) {
    const world = cloneWorld(this.world)
    const results = []
    for (const clause of clauses) {
      const result = executeClause(this.ctx, world, clause, caller)
      results.push(this.callJson(result))
      if (result.reverted) break
    }
    return results
  }

  private callJson(result: ClauseResult) {
    return {
      data: result.data,
      events: result.events,
      transfers: result.transfers,
      gasUsed: result.gasUsed,
      reverted: result.reverted,
      vmError: result.vmError,
    }
  }
}

type ClausesOutcome = {
  world?: World
  reverted: boolean
  revertReason: string | null
  execGas: number
  outputs: Inclusion['outputs']
  distributions: NewDistribution[]
}

function forcedRevert(reason: string): ClausesOutcome {
  return { reverted: true, revertReason: reason, execGas: REVERT_GAS, outputs: [], distributions: [] }
}

export function createFakeThor(options: FakeThorOptions = {}): FakeThor {
  return new FakeThor(options)
}

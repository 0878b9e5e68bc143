import type { abi } from 'thor-devkit'
import type { Clause } from './payout'

// A typed client for the Thor REST API calls ReCircle makes. Fetch is injected (tests pass msw's
// fetch or a fake node's URL); every call has a timeout and fails with a ThorError that says what
// went wrong in words an operator can act on.

export type ThorErrorKind = 'unreachable' | 'timeout' | 'http' | 'rejected' | 'bad_response'

export class ThorError extends Error {
  constructor(
    readonly kind: ThorErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'ThorError'
  }
}

export type Block = {
  number: number
  id: string
  timestamp: number
  parentID?: string
  gasUsed?: number
  transactions?: string[]
  /** Since the Galactica fork: the block's base fee per gas (hex). */
  baseFeePerGas?: string
}
export type Account = { balance: bigint; energy: bigint; hasCode: boolean }
export type CallResult = { data: string; events: unknown[]; transfers: unknown[]; gasUsed: number; reverted: boolean; vmError: string }
export type TxMeta = { blockID: string; blockNumber: number; blockTimestamp: number }
export type ThorTransaction = {
  id: string
  origin: string
  delegator: string | null
  gas: number
  /** 0 legacy, 81 dynamic fee. */
  type?: number
  gasPriceCoef?: number
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  clauses: Clause[]
  blockRef: string
  expiration: number
  nonce: string
  meta: TxMeta | null
}
export type Event = { address: string; topics: string[]; data: string }
export type TxReceipt = {
  gasUsed: number
  gasPayer: string
  paid: string
  reverted: boolean
  outputs: Array<{ events: Event[]; transfers: unknown[] }>
  meta: TxMeta & { txID: string; txOrigin: string }
}

export type ThorClient = ReturnType<typeof createThorClient>

export function createThorClient(opts: { baseUrl: string; fetch?: typeof fetch; timeoutMs?: number }) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '')
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  const timeoutMs = opts.timeoutMs ?? 8_000

  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response
    try {
      res = await doFetch(baseUrl + path, {
        method,
        headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      const name = (error as Error).name
      if (name === 'TimeoutError' || name === 'AbortError') throw new ThorError('timeout', `The VeChain node did not answer within ${timeoutMs / 1000} s`)
      throw new ThorError('unreachable', `The VeChain node at ${baseUrl} cannot be reached`)
    }
    const text = await res.text().catch(() => '')
    if (!res.ok) {
      const detail = text.trim().slice(0, 300) || res.statusText
      // Thor answers 403 for a transaction it refuses ("tx rejected: …") and 400 for a malformed one.
      if (res.status === 403 || res.status === 400) throw new ThorError('rejected', detail, res.status)
      throw new ThorError('http', `The VeChain node answered ${res.status}: ${detail}`, res.status)
    }
    try {
      return JSON.parse(text) as T
    } catch {
      throw new ThorError('bad_response', 'The VeChain node answered something that is not JSON')
    }
  }

  return {
    baseUrl,
    async getBlock(revision: 'best' | 'finalized' | number | string): Promise<Block | null> {
      const block = await request<Block | null>('GET', `/blocks/${encodeURIComponent(String(revision))}`)
      if (block !== null && (typeof block.number !== 'number' || typeof block.id !== 'string')) throw new ThorError('bad_response', 'The VeChain node answered a block without number or id')
      return block
    },
    async getBestBlock(): Promise<Block> {
      const block = await this.getBlock('best')
      if (!block) throw new ThorError('bad_response', 'The VeChain node has no best block')
      return block
    },
    /** The newest block the network can no longer revert. */
    async getFinalizedBlock(): Promise<Block> {
      const block = await this.getBlock('finalized')
      if (!block) throw new ThorError('bad_response', 'The VeChain node has no finalized block')
      return block
    },
    async getAccount(address: string): Promise<Account> {
      const raw = await request<{ balance: string; energy: string; hasCode: boolean }>('GET', `/accounts/${address}`)
      return { balance: BigInt(raw.balance), energy: BigInt(raw.energy), hasCode: !!raw.hasCode }
    },
    /**
     * Executes clauses without a transaction: simulations and view calls. `next` runs them on the
     * state the next block starts from (what a transaction sent now meets), `best` on the best block.
     */
    async inspect(clauses: Clause[], opts: { caller?: string; gas?: number; revision?: 'best' | 'next' } = {}): Promise<CallResult[]> {
      const revision = opts.revision ?? 'best'
      const results = await request<CallResult[]>('POST', `/accounts/*?revision=${revision}`, { clauses, caller: opts.caller, gas: opts.gas })
      // Thor stops a batch at the first reverted clause, so a shorter answer must end in a revert.
      const complete = Array.isArray(results) && (results.length === clauses.length || (results.length > 0 && results.length < clauses.length && results[results.length - 1].reverted))
      if (!complete) throw new ThorError('bad_response', 'The VeChain node answered a simulation with the wrong number of results')
      return results
    },
    /** A view call: the decoded outputs of one function. */
    async call(to: string, func: abi.Function, args: unknown[] = [], caller?: string): Promise<abi.Decoded> {
      const [result] = await this.inspect([{ to, value: '0x0', data: func.encode(...args) }], { caller })
      if (result.reverted) throw new ThorError('rejected', `${func.definition.name}() reverted${result.vmError ? `: ${result.vmError}` : ''}`)
      return func.decode(result.data)
    },
    /** The tip the node suggests for a transaction sent now (GET /fees/priority). */
    async getPriorityFee(): Promise<bigint> {
      const raw = await request<{ maxPriorityFeePerGas?: string }>('GET', '/fees/priority')
      const value = parseQuantity(raw?.maxPriorityFeePerGas)
      if (value === null) throw new ThorError('bad_response', 'The VeChain node answered a priority fee that is not a number')
      return value
    },
    async sendRawTransaction(raw: string): Promise<{ id: string }> {
      return request<{ id: string }>('POST', '/transactions', { raw })
    },
    async getTransaction(id: string, opts: { pending?: boolean } = {}): Promise<ThorTransaction | null> {
      return request<ThorTransaction | null>('GET', `/transactions/${id}${opts.pending ? '?pending=true' : ''}`)
    },
    /**
     * The receipt, or null while the transaction is not included. With `head`, as of that block
     * (a node that does not have the block answers an error, never a misleading null).
     */
    async getReceipt(id: string, opts: { head?: string } = {}): Promise<TxReceipt | null> {
      const receipt = await request<TxReceipt | null>('GET', `/transactions/${id}/receipt${opts.head ? `?head=${opts.head}` : ''}`)
      if (receipt !== null && !isReceipt(receipt)) throw new ThorError('bad_response', 'The VeChain node answered a malformed receipt')
      return receipt
    },
  }
}

/** A hex or decimal quantity as Thor writes them, or null. */
export function parseQuantity(value: unknown): bigint | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null
  try {
    const n = BigInt(value)
    return n >= 0n ? n : null
  } catch {
    return null
  }
}

/** The block's base fee per gas, or null before the Galactica fork (or from a node that omits it). */
export function baseFeeOf(block: Block): bigint | null {
  return parseQuantity(block.baseFeePerGas)
}

/** The node refused a transaction whose fee cap is under the base fee (it may go through once the fee falls). */
export function isBaseFeeRejection(error: unknown): boolean {
  return error instanceof ThorError && error.kind === 'rejected' && /less than block base fee/i.test(error.message)
}

function isReceipt(r: unknown): r is TxReceipt {
  const receipt = r as TxReceipt
  return (
    typeof receipt === 'object' &&
    typeof receipt.reverted === 'boolean' &&
    Array.isArray(receipt.outputs) &&
    typeof receipt.meta === 'object' &&
    receipt.meta !== null &&
    Number.isInteger(receipt.meta.blockNumber) &&
    typeof receipt.meta.txID === 'string'
  )
}

/** "tx rejected: known tx": the node already has this exact transaction (sending it again is harmless). */
export function isKnownTxRejection(error: unknown): boolean {
  return error instanceof ThorError && error.kind === 'rejected' && /known tx/i.test(error.message)
}

export function describeThorError(error: unknown): string {
  if (error instanceof ThorError) return error.message
  return error instanceof Error ? error.message : String(error)
}

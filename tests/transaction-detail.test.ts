import { http, HttpResponse, type JsonBodyType } from 'msw'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server'
import { beforeEach, describe, expect, it } from 'vitest'
import { createThorClient } from '../app/chain/thor.server'
import { claimAllTokens } from '../app/claims/claims.server'
import { creditReward } from '../app/rewards/ledger.server'
import TransactionDetail, { ErrorBoundary, loader } from '../app/routes/transactions_.$id/route'
import {
  getUserTransaction,
  ledgerStatusBadge,
  parseTransactionId,
  readChainTransaction,
  streakBonusNote,
} from '../app/users/transaction-detail.server'
import { getDb } from '../app/utils/db.server'
import { server } from './mocks/index'
import { THOR_URL } from './mocks/thor'
import { bodyOf, getRequest, signInNewUser } from './utils/requests'

const TX_ID = '0x' + 'ab'.repeat(32)
const ORIGIN = '0x' + '11'.repeat(20)
const POOL = '0x' + '22'.repeat(20)
const BLOCK_ID = '0x0140d2f1' + 'cd'.repeat(28)
const LONG_DATA = '0x' + 'ef'.repeat(300)

function thorTx(meta: object | null) {
  return {
    id: TX_ID,
    origin: ORIGIN,
    delegator: null,
    gas: 120_000,
    gasPriceCoef: 0,
    clauses: [{ to: POOL, value: '0x0', data: LONG_DATA }],
    blockRef: '0x0140d2f0aabbccdd',
    expiration: 720,
    nonce: '0x1',
    meta,
  }
}

const META = { blockID: BLOCK_ID, blockNumber: 21_000_001, blockTimestamp: 1_735_689_600 }

function thorReceipt(reverted = false) {
  return {
    gasUsed: 80_000,
    gasPayer: ORIGIN,
    paid: '0x' + (80_000n * 10n ** 13n).toString(16), // 0.8 VTHO
    reverted,
    outputs: [],
    meta: { ...META, txID: TX_ID, txOrigin: ORIGIN },
  }
}

/** The node answers `tx` and `receipt` for TX_ID; every request made to it is logged. */
function mockNode(tx: JsonBodyType, receipt: JsonBodyType) {
  server.use(
    http.get(`${THOR_URL}/transactions/:id/receipt`, () => HttpResponse.json(receipt)),
    http.get(`${THOR_URL}/transactions/:id`, () => HttpResponse.json(tx)),
  )
}

let nodeRequests: string[] = []
beforeEach(() => {
  nodeRequests = []
  server.events.removeAllListeners()
  server.events.on('request:start', ({ request }) => {
    nodeRequests.push(request.url)
  })
})

const ctx = { context: {} }

/** A loader result, or the Response it threw (redirect, 404). */
async function load(path: string, cookie?: string): Promise<Response> {
  const id = new URL(path, 'http://x').pathname.split('/')[2] ?? ''
  try {
    return await loader({ ...ctx, params: { id }, request: getRequest(path, cookie) })
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

let keySeq = 0
async function credit(userId: number, description = 'Receipt verified: 18 B3TR', amountMilli = 18_000) {
  const key = `detail-test:${userId}:${++keySeq}`
  await creditReward(
    getDb(),
    { user_id: userId, type: 'receipt_verification', amount_milli: amountMilli, description, tx_hash: null, idempotency_key: key, receipt_id: null, store_submission_id: null, referral_id: null },
    description,
  )
  const rows = await getDb().selectFrom('transactions').select(['id', 'type']).where('idempotency_key', 'like', `${key}%`).execute()
  return {
    creditId: rows.find((r) => r.type === 'receipt_verification')!.id,
    fundId: rows.find((r) => r.type === 'sustainability_app')!.id,
  }
}

/** A user with a claim of their whole balance; `paid` sets the hash and confirms it as the payout worker would. */
async function userWithClaim(opts: { paid: boolean }) {
  const signedIn = await signInNewUser()
  await credit(signedIn.user.id)
  const claim = await claimAllTokens(getDb(), { userId: signedIn.user.id, amountMilli: 18_000 })
  if (!claim.ok) throw new Error(claim.error)
  if (opts.paid) {
    await getDb().updateTable('transactions').set({ status: 'confirmed', tx_hash: TX_ID }).where('id', '=', claim.claimId).execute()
  }
  return { ...signedIn, claimId: claim.claimId }
}

/** The page as the server renders it, through a data router (no JavaScript involved). */
async function renderPage(path: string, cookie: string) {
  const routes = [
    {
      id: 'transaction',
      path: '/transactions/:id',
      loader: (args: { request: Request; params: Record<string, string | undefined> }) => loader({ ...ctx, ...args }),
      Component: TransactionDetail,
      ErrorBoundary,
    },
  ]
  const handler = createStaticHandler(routes)
  const context = await handler.query(getRequest(path, cookie))
  if (context instanceof Response) throw new Error(`Unexpected response ${context.status}`)
  const router = createStaticRouter(handler.dataRoutes, context)
  const html = renderToString(createElement(StaticRouterProvider, { router, context }))
  // What a reader sees: without the hydration data (which repeats the loader data) and React's text separators.
  return html.replace(/<script>[\s\S]*?<\/script>/g, '').replace(/<!-- -->/g, '')
}

describe('/transactions/{id} loader', () => {
  it('sends a signed-out visitor to connect a wallet', async () => {
    const res = await load('/transactions/1')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/connect-wallet?redirectTo=%2Ftransactions%2F1')
  })

  it.each(['abc', '0', '-1', '1.5', '01', '99999999999'])('answers 404 for the id %s', async (id) => {
    const { cookie } = await signInNewUser()
    const res = await load(`/transactions/${id}`, cookie)
    expect(res.status).toBe(404)
    expect(await res.text()).toBe('Transaction not found')
  })

  it("answers 404 for another user's entry and for the app fund's share of one's own reward", async () => {
    const owner = await signInNewUser()
    const other = await signInNewUser()
    const { creditId, fundId } = await credit(owner.user.id)
    expect((await load(`/transactions/${creditId}`, owner.cookie)).status).toBe(200)
    expect((await load(`/transactions/${creditId}`, other.cookie)).status).toBe(404)
    expect((await load(`/transactions/${fundId}`, owner.cookie)).status).toBe(404)
  })

  it('shows the details tab without asking the node, even for an on-chain claim', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: true })
    mockNode(thorTx(META), thorReceipt())
    const res = await load(`/transactions/${claimId}`, cookie)
    expect(res.status).toBe(200)
    const data = await bodyOf(res)
    expect(data.tab).toBe('details')
    expect(data.chain).toBeNull()
    expect(data.entry).toMatchObject({ id: claimId, type: 'token_claim', amountMilli: -18_000, status: 'confirmed', txHash: TX_ID })
    expect(data.claim).toMatchObject({ label: 'Confirmed' })
    expect(nodeRequests).toEqual([])
  })

  it('reads a confirmed transaction and its receipt on the chain tab', async () => {
    const { cookie, claimId, wallet } = await userWithClaim({ paid: true })
    mockNode(thorTx(META), thorReceipt())
    const res = await load(`/transactions/${claimId}?tab=chain`, cookie)
    expect(res.status).toBe(200)
    const data = await bodyOf(res)
    expect(data.tab).toBe('chain')
    expect(data.chain).toEqual({
      state: 'ok',
      details: {
        txId: TX_ID,
        status: 'confirmed',
        blockNumber: 21_000_001,
        blockId: BLOCK_ID,
        timestamp: '2025-01-01T00:00:00.000Z',
        from: ORIGIN,
        to: POOL,
        valueWei: '0',
        gasUsed: 80_000,
        gasLimit: 120_000,
        gasPriceVtho: '0.00001',
        feeVtho: '0.8',
        data: LONG_DATA,
        clauseCount: 1,
      },
    })
    expect(nodeRequests.sort()).toEqual([`${THOR_URL}/transactions/${TX_ID}/receipt`, `${THOR_URL}/transactions/${TX_ID}?pending=true`])
    expect(wallet.address).not.toBe(ORIGIN) // the origin shown is the node's, not the user's wallet
  })

  it('marks a reverted transaction as failed', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: true })
    mockNode(thorTx(META), thorReceipt(true))
    const data = await bodyOf(await load(`/transactions/${claimId}?tab=chain`, cookie))
    expect(data.chain.state).toBe('ok')
    expect(data.chain.details.status).toBe('failed')
  })

  it('says pending for a transaction the node holds without a block', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: true })
    mockNode(thorTx(null), null)
    const data = await bodyOf(await load(`/transactions/${claimId}?tab=chain`, cookie))
    expect(data.chain).toEqual({ state: 'pending' })
  })

  it('says not found for a transaction the node does not know', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: true })
    mockNode(null, null)
    const data = await bodyOf(await load(`/transactions/${claimId}?tab=chain`, cookie))
    expect(data.chain).toEqual({ state: 'not_found' })
  })

  it('still answers 200 when the node is down, with the reason', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: true })
    server.use(http.get(`${THOR_URL}/transactions/*`, () => HttpResponse.error()))
    const res = await load(`/transactions/${claimId}?tab=chain`, cookie)
    expect(res.status).toBe(200)
    const data = await bodyOf(res)
    expect(data.chain).toEqual({ state: 'unreachable', error: `The VeChain node at ${THOR_URL} cannot be reached` })
  })

  it('makes no node call for an off-chain reward on the chain tab', async () => {
    const { user, cookie } = await signInNewUser()
    const { creditId } = await credit(user.id)
    const data = await bodyOf(await load(`/transactions/${creditId}?tab=chain`, cookie))
    expect(data.tab).toBe('chain')
    expect(data.chain).toBeNull()
    expect(data.claim).toBeNull()
    expect(nodeRequests).toEqual([])
  })

  it('shows an unpaid claim with its payout state and no hash, without asking the node', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: false })
    // A hash on an unconfirmed claim is not shown as real (decision 041).
    await getDb().updateTable('transactions').set({ tx_hash: TX_ID }).where('id', '=', claimId).execute()
    await getDb().updateTable('payouts').set({ status: 'sent' }).where('transaction_id', '=', claimId).execute()
    const data = await bodyOf(await load(`/transactions/${claimId}?tab=chain`, cookie))
    expect(data.entry.txHash).toBeNull()
    expect(data.entry.payoutStatus).toBe('sent')
    expect(data.claim).toEqual({ label: 'Pending Claim', tone: 'pending', detail: null })
    expect(data.chain).toBeNull()
    expect(nodeRequests).toEqual([])
  })

  it("joins a failed claim's payout error into the claim state", async () => {
    const { user, claimId } = await userWithClaim({ paid: false })
    await getDb().updateTable('transactions').set({ status: 'failed' }).where('id', '=', claimId).execute()
    await getDb().updateTable('payouts').set({ status: 'reverted', error: 'execution reverted: insufficient funds' }).where('transaction_id', '=', claimId).execute()
    const entry = await getUserTransaction(getDb(), user.id, claimId)
    expect(entry).toMatchObject({ status: 'failed', payoutStatus: 'reverted', payoutError: 'execution reverted: insufficient funds' })
  })
})

describe('/transactions/{id} page', () => {
  it('renders the details tab with tabs as links, the streak note and the signed amount', async () => {
    const { user, cookie } = await signInNewUser()
    const { creditId } = await credit(user.id, 'Receipt verified (streak bonus 20%)', 21_600)
    const html = await renderPage(`/transactions/${creditId}`, cookie)
    expect(html).toContain('role="tablist"')
    expect(html).toMatch(/<a [^>]*role="tab" aria-selected="true"[^>]*href="\/transactions\/\d+\?tab=details">Transaction Details<\/a>/)
    expect(html).toMatch(/<a [^>]*role="tab" aria-selected="false"[^>]*href="\/transactions\/\d+\?tab=chain">Blockchain Data<\/a>/)
    expect(html).toContain('+21.6 B3TR')
    expect(html).toContain('streak bonus 20%')
    expect(html).toContain('Completed')
    expect(html).toContain('None: off-chain reward')
  })

  it('renders the failed state with a Retry link when the node is down', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: true })
    server.use(http.get(`${THOR_URL}/transactions/*`, () => HttpResponse.error()))
    const html = await renderPage(`/transactions/${claimId}?tab=chain`, cookie)
    expect(html).toContain('No Blockchain Data')
    expect(html).toContain('Failed to fetch blockchain details for this transaction')
    expect(html).toContain(`href="/transactions/${claimId}?tab=chain"`)
    expect(html).toContain('-18.0 B3TR')
  })

  it('renders the chain details with the data cut to 200 characters and its length noted', async () => {
    const { cookie, claimId } = await userWithClaim({ paid: true })
    mockNode(thorTx(META), thorReceipt())
    const html = await renderPage(`/transactions/${claimId}?tab=chain`, cookie)
    expect(html).toContain('21,000,001')
    expect(html).toContain(ORIGIN)
    expect(html).toContain('0.8')
    expect(html).toContain(`${LONG_DATA.slice(0, 200)}…`)
    expect(html).not.toContain(LONG_DATA)
    expect(html).toContain('First 200 of 602 characters')
    expect(html).toContain(`href="https://explore-testnet.vechain.org/transactions/${TX_ID}"`)
  })

  it('renders the transaction-not-found boundary for a missing entry', async () => {
    const { cookie } = await signInNewUser()
    const html = await renderPage('/transactions/999999999', cookie)
    expect(html).toContain('Transaction not found')
    expect(html).toContain('href="/transactions"')
  })
})

describe('readChainTransaction', () => {
  const thor = createThorClient({ baseUrl: THOR_URL, timeoutMs: 1_000 })

  it('refuses a receipt that belongs to another transaction', async () => {
    mockNode(thorTx(META), { ...thorReceipt(), meta: { ...thorReceipt().meta, txID: '0x' + '99'.repeat(32) } })
    const result = await readChainTransaction(thor, TX_ID)
    expect(result.state).toBe('unreachable')
  })

  it('reports an error answer of the node as unreachable with its status', async () => {
    server.use(http.get(`${THOR_URL}/transactions/*`, () => new HttpResponse('boom', { status: 502 })))
    expect(await readChainTransaction(thor, TX_ID)).toEqual({ state: 'unreachable', error: 'The VeChain node answered 502: boom' })
  })
})

describe('pure helpers', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['0', null],
    ['-1', null],
    ['abc', null],
    ['1e3', null],
    ['007', null],
    [undefined, null],
  ])('parseTransactionId(%s) is %s', (input, expected) => {
    expect(parseTransactionId(input)).toBe(expected)
  })

  it.each([
    ['Receipt verified (streak bonus 20%)', 'streak bonus 20%'],
    ['Receipt verified: Uber (streak bonus ×1.2, transport bonus ×1.2)', 'streak bonus ×1.2, transport bonus ×1.2'],
    ['Streak bonus for 5 days', 'Streak bonus applied!'],
    ['Receipt verified: 18 B3TR (rideshare)', null],
    ['Streak bonus ( )', 'Streak bonus applied!'],
  ])('streakBonusNote(%s) is %s', (description, expected) => {
    expect(streakBonusNote(description)).toBe(expected)
  })

  it.each([
    ['confirmed', 'Confirmed', 'ok'],
    ['completed', 'Completed', 'ok'],
    ['pending', 'Pending', 'warn'],
    ['failed', 'Failed', 'bad'],
    ['weird', 'Unknown', 'unknown'],
  ])('ledgerStatusBadge(%s) is %s', (status, label, tone) => {
    expect(ledgerStatusBadge(status)).toEqual({ label, tone })
  })
})

import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, migrateToLatest, type DB } from '../db/db.server'
import { claimAllTokens } from '../app/claims/claims.server'
import { recordEntry } from '../app/rewards/ledger.server'
import { findOrCreateUser } from '../app/users/users.server'
import { startFakeThorServer, type FakeThorServer } from './mocks/fake-thor-server'
import { APP_ID, B3TR, DISTRIBUTOR } from './utils/payouts'
import { createTestWallet } from './utils/wallet'

// Real processes, really killed: `npm run payouts` workers (sometimes two at once) are started
// against the fake node over HTTP and killed with SIGKILL at random moments while some send
// answers are lost; then one worker finishes the queue. Every claim must be paid exactly once.

const CLAIMS = 6
const KILLS = 6

let dir: string
let db: DB
let chain: FakeThorServer

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recircle-crash-'))
  db = createDb(`file:${path.join(dir, 'crash.db')}`)
  await migrateToLatest(db)
  chain = await startFakeThorServer({
    blockIntervalMs: 150,
    apps: { [APP_ID]: { distributors: [DISTRIBUTOR.address], availableFunds: 1000n * B3TR } },
    poolB3tr: 1000n * B3TR,
    accounts: { [DISTRIBUTOR.address]: { vet: 10n * B3TR, vtho: 1000n * B3TR } },
  })
})

afterAll(async () => {
  await chain?.close()
  await db?.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
})

function startWorker(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'scripts/payouts.ts'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: `file:${path.join(dir, 'crash.db')}`,
      SESSION_SECRET: 'crash-test-session-secret-long-enough-0123456789',
      THOR_NODE_URL: chain.url,
      PAYOUT_PRIVATE_KEY: DISTRIBUTOR.privateKey.toString('hex'),
      VEBETTER_APP_ID: APP_ID,
      PAYOUT_INTERVAL_MS: '200',
      PAYOUT_LEASE_MS: '1000',
      PAYOUT_TX_EXPIRATION_BLOCKS: '18',
    },
    stdio: 'ignore',
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Wait until a worker holds a lease no earlier worker held (it is up and working), or give up after `ms`. */
async function firstNewLease(before: Set<string | null>, ms: number) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const rows = await db.selectFrom('payouts').select('lease_owner').where('lease_owner', 'is not', null).execute()
    if (rows.some((r) => !before.has(r.lease_owner))) return
    await sleep(50)
  }
}

async function kill(child: ChildProcess) {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGKILL')
  await exited
}

describe('payout workers killed at random', () => {
  it('pay every claim exactly once', async () => {
    const claims: Array<{ wallet: string; amountMilli: number; claimId: number }> = []
    for (let i = 0; i < CLAIMS; i++) {
      const wallet = createTestWallet().address.toLowerCase()
      const { user } = await findOrCreateUser(db, wallet, new Date())
      const amountMilli = 1000 + i * 111
      await recordEntry(db, {
        user_id: user.id,
        type: 'receipt_verification',
        amount_milli: amountMilli,
        description: 'crash test credit',
        status: 'completed',
        tx_hash: null,
        idempotency_key: `crash:${i}`,
        receipt_id: null,
        store_submission_id: null,
        referral_id: null,
      })
      const claim = await claimAllTokens(db, { userId: user.id, amountMilli })
      if (!claim.ok) throw new Error(claim.error)
      claims.push({ wallet, amountMilli, claimId: claim.claimId })
    }

    // A deterministic sequence of kill times (ms after a new worker took its first lease) so a
    // failure can be reproduced. Counting from the first lease, not from the spawn, keeps the kills
    // inside the work however long a busy machine takes to start a process.
    const delays = [400, 1100, 200, 1600, 700, 1300]
    chain.fake.faults.slowMs = 120 // every answer takes a while, so kills land in the middle of a step
    for (let round = 0; round < KILLS; round++) {
      if (round % 2 === 0) chain.fake.faults.loseSendAnswers = 1
      const owners = new Set((await db.selectFrom('payouts').select('lease_owner').execute()).map((r) => r.lease_owner))
      const workers = round % 3 === 2 ? [startWorker(), startWorker()] : [startWorker()]
      await firstNewLease(owners, 20_000)
      await sleep(delays[round % delays.length]!)
      await Promise.all(workers.map(kill))
    }
    chain.fake.faults.loseSendAnswers = 0
    chain.fake.faults.slowMs = 0
    // The killed workers did real work (otherwise this test would prove nothing).
    const signedBeforeFinish = await db.selectFrom('payouts').select('id').where('signings', '>', 0).execute()
    expect(signedBeforeFinish.length).toBeGreaterThan(0)

    const finisher = startWorker()
    try {
      const deadline = Date.now() + 60_000
      for (;;) {
        const open = await db.selectFrom('payouts').select('id').where('status', '!=', 'confirmed').execute()
        if (open.length === 0) break
        if (Date.now() > deadline) throw new Error(`Payouts still open: ${JSON.stringify(await db.selectFrom('payouts').selectAll().where('status', '!=', 'confirmed').execute())}`)
        await sleep(250)
      }
    } finally {
      await kill(finisher)
    }

    const paid = chain.fake.distributions()
    expect(paid).toHaveLength(CLAIMS)
    for (const c of claims) {
      const mine = paid.filter((d) => d.receiver === c.wallet)
      expect(mine).toHaveLength(1)
      expect(mine[0]!.amountWei).toBe(BigInt(c.amountMilli) * 10n ** 15n)
      const entry = await db.selectFrom('transactions').selectAll().where('id', '=', c.claimId).executeTakeFirstOrThrow()
      expect(entry).toMatchObject({ status: 'confirmed', tx_hash: mine[0]!.txId })
    }
    expect(chain.fake.included().filter((t) => !t.reverted)).toHaveLength(CLAIMS)
    console.log(JSON.stringify({ signedBeforeFinish: signedBeforeFinish.length, sends: chain.fake.sendCounts() }))
  }, 120_000)
})

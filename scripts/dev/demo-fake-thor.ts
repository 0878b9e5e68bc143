// LOCAL DEMO ONLY: runs the fake VeChain Thor node from tests/mocks on 127.0.0.1 so ReCircle's
// payouts can be watched end to end without a network or a funded wallet.
//   tsx scripts/dev/demo-fake-thor.ts            (FAKE_THOR_PORT, FAKE_THOR_BLOCK_MS to change the defaults)
// Nothing here touches a real network; the key below exists only inside this fake chain.
import { address, keccak256, secp256k1 } from 'thor-devkit'
import { startFakeThorServer } from '../../tests/mocks/fake-thor-server'

// DEMO KEY, PUBLICLY KNOWN: NEVER use it (or fund its address) on a real network.
const DEMO_DISTRIBUTOR_KEY = '0x' + 'd1'.repeat(32)
const DEMO_APP_ID = '0x' + keccak256('ReCircle demo').toString('hex')
const B3TR = 10n ** 18n

const port = Number(process.env.FAKE_THOR_PORT ?? 8669)
const blockIntervalMs = Number(process.env.FAKE_THOR_BLOCK_MS ?? 10_000)
const distributor = address.fromPublicKey(secp256k1.derivePublicKey(Buffer.from(DEMO_DISTRIBUTOR_KEY.slice(2), 'hex')))

const node = await startFakeThorServer({
  port,
  host: '127.0.0.1',
  blockIntervalMs,
  poolB3tr: 10_000n * B3TR,
  apps: { [DEMO_APP_ID]: { distributors: [distributor], availableFunds: 10_000n * B3TR } },
  accounts: { [distributor]: { vet: 1_000n * B3TR, vtho: 10_000n * B3TR } },
  onBlock: (block) => {
    if (block.txIds.length > 0) console.log(`block ${block.number}: included ${block.txIds.join(', ')}`)
  },
})

console.log(`Fake VeChain Thor node (LOCAL DEMO) at ${node.url}, one block every ${blockIntervalMs} ms.`)
console.log(`Demo distributor ${distributor} holds 10,000 VTHO; the pool holds 10,000 B3TR for the demo app.`)
console.log('\nPaste into .env (demo values, never for a real network):\n')
console.log(`THOR_NODE_URL=${node.url}`)
console.log(`PAYOUT_PRIVATE_KEY=${DEMO_DISTRIBUTOR_KEY}`)
console.log(`VEBETTER_APP_ID=${DEMO_APP_ID}`)
console.log('\nCtrl+C to stop.')

process.once('SIGINT', () => {
  const paid = node.fake.distributions()
  console.log(`\nStopping: ${paid.length} payout(s) made on the fake chain.`)
  void node.close().then(() => process.exit(0))
})

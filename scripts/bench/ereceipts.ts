/**
 * E-receipt verification and extraction (issue 21), measured:
 *   tsx scripts/bench/ereceipts.ts [--per-service N]
 * Generates realistic HTML receipt e-mails for every test service (tests/utils/ereceipts.ts),
 * signs them with test keys published by a local DNS server (a real one, on the loopback), and
 * runs each through analyzeEReceipt: time, every field right, approved automatically. Then the
 * variants nobody without the sender's key can make (tampered, re-signed by another domain,
 * l=-extended, inline-forwarded) and replays through the real submission code on a scratch SQLite
 * database must approve none. Prints one JSON object.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createDb, migrateToLatest } from '#db/db.server'
import { analyzeEReceipt } from '~/analysis/email-analysis.server'
import { createResolver } from '~/ereceipts/dkim.server'
import { parseSenderConfig, senderTable } from '~/analysis/senders'
import { analyzeAndStore } from '~/analysis/analyses.server'
import { submitReceipt } from '~/receipts/receipts.server'
import { toCents } from '~/receipts/decision'
import { utcDay } from '../../app/utils/calendar'
import { findOrCreateUser } from '~/users/users.server'
import { startDkimDns } from '../../tests/utils/dkim-dns'
import { mailboxHash } from '~/ereceipts/read.server'
import { answerOnce, checkDelivery, signDelivery } from '~/ereceipts/webhook.server'
import { MAX_SIGNATURES } from '~/ereceipts/dkim.server'
import {
  forwardAsAttachment,
  forwardInline,
  lengthExtended,
  makeTrip,
  NON_TRIP_SAMPLES,
  resignedByOther,
  rewriteHeader,
  SERVICE_STYLES,
  signedNonTrip,
  signedReceipt,
  signedWithHeaders,
  tamperTotal,
  TEST_EXTRA_SENDERS,
  withFakeSignatures,
  type Trip,
} from '../../tests/utils/ereceipts'

const perService = Number(process.argv[process.argv.indexOf('--per-service') + 1]) || 20

function percentile(sorted: number[], q: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : 0
}

async function main() {
  const dns = await startDkimDns()
  const resolver = createResolver([dns.server])
  const senders = senderTable(parseSenderConfig(TEST_EXTRA_SENDERS))
  const analyze = (raw: Buffer) => analyzeEReceipt(raw, { resolver, senders })
  const now = Date.now()

  // The corpus: trips over the last 12 days, every service.
  const corpus: Array<{ service: string; trip: Trip; raw: Buffer }> = []
  for (const style of SERVICE_STYLES) {
    for (let i = 0; i < perService; i++) {
      const seed = corpus.length + 1
      const trip = makeTrip(seed, new Date(now - (1 + (seed % 12)) * 86_400_000 - (seed % 7) * 3_600_000))
      corpus.push({ service: style.service, trip, raw: await signedReceipt(dns, style.service, trip) })
    }
  }
  // Warm up (JIT, DNS socket) on a few, then measure every one.
  for (const item of corpus.slice(0, 10)) await analyze(item.raw)
  const times: number[] = []
  let allFieldsRight = 0
  let approved = 0
  const wrong: string[] = []
  const started = performance.now()
  for (const item of corpus) {
    const t0 = performance.now()
    const a = await analyze(item.raw)
    times.push(performance.now() - t0)
    const right =
      a.storeName === item.service &&
      toCents(a.totalAmount) === item.trip.totalCents &&
      a.purchaseDate === utcDay(item.trip.date) &&
      a.category !== null &&
      a.ereceipt?.tripKey === `${item.service}:${item.trip.tripId.replace(/-/g, '')}`
    if (right) allFieldsRight++
    else if (wrong.length < 5) wrong.push(`${item.service}: ${a.storeName} ${a.totalAmount} ${a.purchaseDate} ${a.ereceipt?.tripKey}`)
    if (a.isAcceptable) approved++
  }
  const elapsed = performance.now() - started
  times.sort((x, y) => x - y)

  // What must never be approved.
  const attacks: Record<string, { tried: number; approved: number }> = {}
  const attempt = async (kind: string, make: () => Promise<Buffer>) => {
    attacks[kind] ??= { tried: 0, approved: 0 }
    attacks[kind].tried++
    try {
      if ((await analyze(await make())).isAcceptable) attacks[kind].approved++
    } catch {
      // refused: never approved
    }
  }
  for (const [i, style] of SERVICE_STYLES.entries()) {
    const trip = makeTrip(9000 + i, new Date(now - 2 * 86_400_000))
    await attempt('tampered', async () => tamperTotal(await signedReceipt(dns, style.service, trip), trip))
    await attempt('resignedByAnotherDomain', () => resignedByOther(dns, style.service, trip))
    await attempt('lengthExtended', () => lengthExtended(dns, style.service, trip))
    await attempt('inlineForwarded', async () => forwardInline(await signedReceipt(dns, style.service, trip), 'me@example.org', 'friend@example.org'))
  }
  // Issue 29: signed by a registered service, but no completed trip.
  for (const [i, sample] of NON_TRIP_SAMPLES.entries()) {
    await attempt(`nonTrip:${sample.kind}`, () => signedNonTrip(dns, sample, makeTrip(9100 + i, new Date(now - 2 * 86_400_000))))
  }
  // A genuine receipt under 100 fake signatures: refused before any lookup.
  const lookups = { before: 0, after: 0 }
  for (const [i, style] of SERVICE_STYLES.entries()) {
    const raw = await signedReceipt(dns, style.service, makeTrip(9200 + i, new Date(now - 2 * 86_400_000)))
    lookups.before = dns.queries.length
    await attempt('hundredSignatures', async () => withFakeSignatures(raw, 100))
    lookups.after += dns.queries.length - lookups.before
  }

  // Replays through the real submission path: the first wallet is paid, no other one.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ereceipts-'))
  const db = createDb(`file:${path.join(dir, 'bench.db')}`)
  await migrateToLatest(db)
  const replays = { tried: 0, approved: 0, firstPaid: 0 }
  for (const [i, item] of corpus.filter((_, k) => k % perService === 0).entries()) {
    const wallets = [0, 1, 2].map((w) => `0x${(i * 3 + w + 1).toString(16).padStart(40, '0')}`)
    for (const [w, wallet] of wallets.entries()) {
      const { user } = await findOrCreateUser(db, wallet)
      const stored = await analyzeAndStore(db, { userId: user.id, image: item.raw, analyze: async () => ({}) as never, analyzeEmail: (raw) => analyze(raw) })
      const result = await submitReceipt(db, {
        userId: user.id,
        analysisId: stored.id,
        maxAgeDays: 14,
        values: {
          category: String(stored.analysis.category),
          amountCents: toCents(stored.analysis.totalAmount) ?? 0,
          purchaseDate: String(stored.analysis.purchaseDate),
        },
      })
      const paid = result.ok && result.status === 'approved'
      if (w === 0) replays.firstPaid += paid ? 1 : 0
      else {
        replays.tried++
        if (paid) replays.approved++
      }
    }
  }

  // Issue 29: the unsigned-To bind. An e-mail whose signature leaves To out, re-addressed to a
  // victim's mailbox, goes to review and binds nothing; the victim's own receipt is then paid.
  const unsignedTo = { tried: 0, approved: 0, mailboxesTaken: 0, victimsPaid: 0 }
  for (const [i, style] of SERVICE_STYLES.entries()) {
    const victimMailbox = `victim${i}@example.org`
    const attacker = (await findOrCreateUser(db, `0x${(0xa000 + i).toString(16).padStart(40, '0')}`)).user
    const victim = (await findOrCreateUser(db, `0x${(0xb000 + i).toString(16).padStart(40, '0')}`)).user
    const headers = style.headerList.filter((h) => h !== 'to')
    const forged = rewriteHeader(await signedWithHeaders(dns, style.service, makeTrip(9300 + i, new Date(now - 2 * 86_400_000)), headers), 'To', victimMailbox)
    unsignedTo.tried++
    if ((await submitEmail(db, attacker.id, forged, analyze)) === 'approved') unsignedTo.approved++
    const bound = await db.selectFrom('ereceipt_mailboxes').select('user_id').where('address_hash', '=', mailboxHash(victimMailbox)).executeTakeFirst()
    if (bound) unsignedTo.mailboxesTaken++
    const genuine = await signedReceipt(dns, style.service, makeTrip(9400 + i, new Date(now - 2 * 86_400_000), victimMailbox))
    if ((await submitEmail(db, victim.id, genuine, analyze)) === 'approved') unsignedTo.victimsPaid++
  }

  // Issue 29: a captured webhook delivery for rider A, re-posted to the attacker's address.
  const secret = 'bench-webhook-secret-0123456789'
  const webhook = { tried: 0, accepted: 0 }
  for (const [i, style] of SERVICE_STYLES.entries()) {
    const raw = await forwardAsAttachment(await signedReceipt(dns, style.service, makeTrip(9500 + i, new Date(now - 2 * 86_400_000))), 'a@example.org', 'r-riderA@in.example')
    const captured = signDelivery({ secret, body: raw, recipient: 'r-riderA@in.example', token: `bench-delivery-${i}-0000`, timestamp: Math.floor(Date.now() / 1000) })
    const reposted = new Headers({ ...captured, 'X-Inbound-Recipient': 'r-attacker@in.example' })
    webhook.tried++
    if (checkDelivery(reposted, raw, secret).ok) webhook.accepted++
    // The very same request again: answered from the first answer, never run twice.
    const same = checkDelivery(new Headers(captured), raw, secret)
    if (same.ok) {
      let runs = 0
      const run = async () => ((runs += 1), { status: 201, body: { receiptId: i } })
      await answerOnce(db, { delivery: same.delivery, body: raw }, run)
      await answerOnce(db, { delivery: same.delivery, body: raw }, run)
      webhook.tried++
      if (runs > 1) webhook.accepted++
    }
  }

  await db.destroy()
  fs.rmSync(dir, { recursive: true, force: true })
  await dns.close()

  const total =
    Object.values(attacks).reduce((n, a) => n + a.approved, 0) + replays.approved + unsignedTo.approved + unsignedTo.mailboxesTaken + webhook.accepted
  console.log(
    JSON.stringify(
      {
        services: SERVICE_STYLES.length,
        receipts: corpus.length,
        allFieldsRight: allFieldsRight / corpus.length,
        approvedAutomatically: approved / corpus.length,
        medianMs: Number(percentile(times, 0.5).toFixed(2)),
        p90Ms: Number(percentile(times, 0.9).toFixed(2)),
        maxMs: Number(times[times.length - 1].toFixed(2)),
        receiptsPerSecondOneThread: Math.round((corpus.length / elapsed) * 1000),
        attacks,
        replays,
        unsignedTo,
        webhookReposts: webhook,
        keyLookupsForHundredSignatureMails: lookups.after,
        maxSignaturesRead: MAX_SIGNATURES,
        wrongApprovals: total,
        ...(wrong.length ? { wrongFields: wrong } : {}),
      },
      null,
      2,
    ),
  )
}

await main()

/** Analyse and submit an e-mail as the real submission code does; the status it ends in. */
async function submitEmail(db: ReturnType<typeof createDb>, userId: number, raw: Buffer, analyze: (raw: Buffer) => ReturnType<typeof analyzeEReceipt>) {
  try {
    const stored = await analyzeAndStore(db, { userId, image: raw, analyze: async () => ({}) as never, analyzeEmail: (r) => analyze(r) })
    const result = await submitReceipt(db, {
      userId,
      analysisId: stored.id,
      maxAgeDays: 14,
      values: { category: String(stored.analysis.category), amountCents: toCents(stored.analysis.totalAmount) ?? 0, purchaseDate: String(stored.analysis.purchaseDate) },
    })
    return result.ok ? result.status : 'refused'
  } catch {
    return 'refused'
  }
}

/**
 * npm run eval:receipts (issue 37) over a tiny folder: one photo of the dev corpus and one Uber
 * e-mail, read by the app's own readers, judged against a truth.json with one deliberately wrong
 * value (the photo's total), so a wrong field and a wrong approval must be seen.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resetEnvCache } from '~/utils/env.server'
import { evaluateReceipts, parseArgs, sameVendor } from '../scripts/eval/eval-receipts'
import { startDkimDns, type DkimDns } from './utils/dkim-dns'
import { makeTrip, signedReceipt } from './utils/ereceipts'

const quiet = () => undefined
let dir: string
let dns: DkimDns
const trip = makeTrip(37, new Date('2026-03-10T18:00:00Z'))
const total = trip.totalCents / 100

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-receipts-'))
  dns = await startDkimDns()
  fs.copyFileSync('tests/fixtures/receipts/dev-015-bird.jpg', path.join(dir, 'bird.jpg'))
  fs.writeFileSync(path.join(dir, 'uber.eml'), await signedReceipt(dns, 'Uber', trip))
  fs.writeFileSync(path.join(dir, 'body.txt'), 'Total $5.00')
  const truth = [
    // The photo prints 7.72: this truth is wrong on purpose, so the approval counts as a wrong one.
    { file: 'bird.jpg', vendor: 'Bird', category: 'scooter_bike', totalAmount: 7.73, purchaseDate: '2026-08-09', expect: 'auto' },
    { file: 'uber.eml', vendor: 'uber', category: 'ride_share', totalAmount: total, purchaseDate: '2026-03-10', expect: 'auto', currency: 'USD', tripKey: trip.tripId },
    { file: 'body.txt', vendor: null, category: null, totalAmount: 5, purchaseDate: null, expect: 'reject' },
  ]
  fs.writeFileSync(path.join(dir, 'truth.json'), JSON.stringify(truth))
})

afterAll(async () => {
  await dns.close()
  fs.rmSync(dir, { recursive: true, force: true })
  delete process.env.DNS_SERVERS
  resetEnvCache()
})

describe('eval:receipts', () => {
  it('reads a photo and a re-signed e-mail as of their printed dates, and counts a wrong total as a wrong approval', async () => {
    const report = await evaluateReceipts(dir, { asOfPrintedDate: true, resign: true, progress: quiet })
    const byFile = Object.fromEntries(report.files.map((f) => [f.file, f]))

    expect(report.skipped).toEqual([{ file: 'body.txt', reason: expect.stringContaining('without a `from`') }])
    expect(byFile['uber.eml']).toMatchObject({
      kind: 'email',
      decision: 'auto',
      reader: 'email',
      judgedOn: '2026-03-11',
      fields: { vendor: 'Uber', category: 'ride_share', totalAmount: total, purchaseDate: '2026-03-10', currency: 'USD' },
      right: { vendor: true, category: true, total: true, date: true, all: true, tripKey: true },
    })
    expect(byFile['bird.jpg']).toMatchObject({
      kind: 'photo',
      decision: 'auto',
      judgedOn: '2026-08-10',
      fields: { vendor: 'Bird', totalAmount: 7.72, purchaseDate: '2026-08-09' },
      right: { vendor: true, category: true, total: false, date: true, all: false },
    })
    expect(report.summary).toMatchObject({
      count: 2,
      skipped: 1,
      byKind: { photo: 1, email: 1 },
      fieldAccuracy: { vendor: 1, category: 1, total: 0.5, date: 1, all: 0.5 },
      tripKey: { count: 1, right: 1 },
      transport: { count: 2, autoApprovedAllRight: 1, rate: 0.5 },
      emails: { tripReceipts: 1, paidRightTotalAndDate: 1, rate: 1 },
      wrongApprovals: { count: 1, files: ['bird.jpg'] },
    })
  })

  it('without --resign verifies with the configured resolver, and applies the age window on the evaluation date', async () => {
    process.env.DNS_SERVERS = dns.server
    resetEnvCache()
    const report = await evaluateReceipts(dir, { only: 'email', now: new Date('2026-11-26T12:00:00Z'), progress: quiet })
    expect(report.files).toHaveLength(1)
    expect(report.files[0]).toMatchObject({ file: 'uber.eml', decision: 'reject', right: { all: true } })
    expect(report.files[0].reasons[0]).toMatch(/^too_old:/)
    expect(report.summary.emails).toEqual({ tripReceipts: 1, paidRightTotalAndDate: 0, rate: 0 })

    // Signed with a key nobody publishes: the reader refuses it, with its code.
    dns.reset()
    const refused = await evaluateReceipts(dir, { only: 'email', asOfPrintedDate: true, progress: quiet })
    expect(refused.files[0]).toMatchObject({ decision: 'refused', refusal: { code: 'bad_signature' }, right: { total: false } })
  })

  it('compares vendors as the brief says, and parses its options', () => {
    expect(sameVendor('MTA / OMNY', 'mta / omny')).toBe(true)
    expect(sameVendor('OMNY', 'MTA')).toBe(true)
    expect(sameVendor(null, 'Uber')).toBe(false)
    expect(sameVendor(null, "Joe's Corner Cafe")).toBe(true)
    expect(sameVendor('Uber', "Joe's Corner Cafe")).toBe(false)
    expect(parseArgs(['d', '--as-of-printed-date', '--resign', '--only-emails', '--limit', '3'])).toMatchObject({
      options: { asOfPrintedDate: true, resign: true, only: 'email', limit: 3 },
    })
    expect(parseArgs(['d', '--bogus'])).toHaveProperty('error')
  })
})

/**
 * One evaluation for photos and e-mails (issue 37):
 *   npm run eval:receipts -- DIR [--as-of-printed-date] [--resign] [--only-photos | --only-emails]
 *                                [--limit N] [--now YYYY-MM-DD]
 * Reads DIR/truth.json (the format of ../shared/receipts-dev/truth.json: file, vendor, category,
 * totalAmount, purchaseDate, expect; optionally kind, currency, tripKey, and from/to/subject/date
 * for .html/.txt bodies), runs each file through the app's own reader as production does (photos:
 * analyzeReceipt with the shared tesseract pool and SECOND_READER, under the 25 s limit; e-mails:
 * analyzeEReceipt with the configured senders and resolver), then decides as the submission would
 * (the early age-window refusal, then decideSubmission with the fields the form is filled with).
 * Prints one JSON object on stdout; progress goes to stderr.
 *
 * --as-of-printed-date  judge each receipt on the day after its printed date (truth.purchaseDate
 *                       + 1, else the date read + 1, else today): the readers and the age window.
 * --resign              e-mails are signed again with a fresh test key for their From domain,
 *                       published on a local DNS server: real keys cannot be looked up offline, so
 *                       this measures the reading, not the signatures (resign-email.ts).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import MailComposer from 'nodemailer/lib/mail-composer/index.js'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { analyzeEReceipt, eReceiptDefaults } from '~/analysis/email-analysis.server'
import { ANALYSIS_TIMEOUT_MS, analyzeWithTimeout } from '~/analysis/readers.server'
import { findVendorByName } from '~/analysis/vendors'
import type { StoredAnalysis } from '~/analysis/stored-analysis'
import { createResolver, type TxtResolver } from '~/ereceipts/dkim.server'
import { looksLikeEmail } from '~/ereceipts/message.server'
import { closePaddleReader, getPaddleReader } from '~/ocr/paddle.server'
import { closeOcrPool, getOcrPool } from '~/ocr/tesseract.server'
import { checkPurchaseDate } from '~/receipts/age-window'
import { decideSubmission, toCents } from '~/receipts/decision'
import { addUtcDays, parseUtcDay, utcDay } from '~/utils/calendar'
import { getEnv } from '~/utils/env.server'
import { Refusal } from '~/utils/refusal'
import { startDkimDns, type DkimDns } from '../../tests/utils/dkim-dns'
import { resignEmail } from './resign-email'

export type Expect = 'auto' | 'review' | 'reject'
export type Decision = 'auto' | 'review' | 'reject' | 'refused' | 'error'
export type Kind = 'photo' | 'email'

export type TruthEntry = {
  file: string
  vendor: string | null
  category: string | null
  totalAmount: number | null
  purchaseDate: string | null
  expect: Expect
  currency?: string
  kind?: Kind
  tripKey?: string
  /** For .html/.txt bodies: the From of the message they are wrapped in (else they are skipped). */
  from?: string
  to?: string
  subject?: string
  /** The sending time of a wrapped body (ISO); default: noon UTC of purchaseDate. */
  date?: string
  [extra: string]: unknown
}

export type EvalOptions = {
  asOfPrintedDate?: boolean
  resign?: boolean
  only?: Kind
  limit?: number
  /** The evaluation date (default: the clock); --as-of-printed-date replaces it per receipt. */
  now?: Date
  /** The age window; default RECEIPT_MAX_AGE_DAYS (14). */
  maxAgeDays?: number
  /** Photos read at a time; default the OCR pool's size. */
  concurrency?: number
  progress?: (line: string) => void
}

type Fields = { vendor: string | null; category: string | null; totalAmount: number | null; purchaseDate: string | null; currency?: string | null }
type Right = { vendor: boolean; category: boolean; total: boolean; date: boolean; all: boolean; tripKey?: boolean; currency?: boolean }

export type FileResult = {
  file: string
  kind: Kind
  expect: Expect
  decision: Decision
  /** Why a reader refused the file (Refusal / EReceiptError / ReceiptImageError). */
  refusal?: { code: string; message: string }
  fields: Fields
  truth: TruthEntry
  right: Right
  /** The trip key the submission would claim (an e-receipt's "Vendor:reference", a photo's printed number). */
  tripKey: string | null
  /** The day the receipt was judged on (the readers' and the age window's "now"). */
  judgedOn: string
  ms: number
  reader: string | null
  reasons: string[]
  notes?: string[]
}

export type EvalReport = {
  dir: string
  options: { asOfPrintedDate: boolean; resign: boolean; only: Kind | null; limit: number | null; now: string; maxAgeDays: number; secondReader: string }
  files: FileResult[]
  skipped: Array<{ file: string; reason: string }>
  summary: ReturnType<typeof summarize>
}

const IMAGE = /\.(jpe?g|png|webp|heic|heif|avif|gif|tiff?)$/i
const EMAIL = /\.eml$/i
const BODY = /\.(html?|txt)$/i

/** The kind of a truth entry's file, or why it is not read. */
function kindOf(entry: TruthEntry, buf: Buffer): Kind | { skip: string } {
  if (entry.kind === 'photo' || entry.kind === 'email') return entry.kind
  if (IMAGE.test(entry.file)) return 'photo'
  if (EMAIL.test(entry.file) || BODY.test(entry.file)) return 'email'
  return looksLikeEmail(buf) ? 'email' : 'photo'
}

/** An .html/.txt body as the minimal RFC 5322 message a service would have sent. */
async function wrapBody(entry: TruthEntry, body: Buffer): Promise<Buffer> {
  const text = body.toString('utf8')
  const html = /\.html?$/i.test(entry.file) || /^\s*<(?:!doctype|html|table|div|body)/i.test(text)
  const sentAt = entry.date ? new Date(entry.date) : entry.purchaseDate ? new Date(`${entry.purchaseDate}T12:00:00Z`) : new Date()
  const composer = new MailComposer({
    from: entry.from,
    to: entry.to ?? 'rider@example.org',
    subject: entry.subject ?? path.basename(entry.file).replace(/\.[^.]+$/, ''),
    date: sentAt,
    ...(html ? { html: text } : { text }),
  })
  return composer.compile().build()
}

function dayAfter(day: string): Date {
  return new Date(`${addUtcDays(day, 1)}T12:00:00Z`)
}

/** Vendor: case-insensitive, an app service by any of its names; an unknown merchant is right when not named or named the same. */
export function sameVendor(read: string | null, truth: string | null): boolean {
  const norm = (s: string) => s.trim().toLowerCase()
  if (truth === null || truth.trim() === '') return read === null
  const service = findVendorByName(truth)
  if (service) return read !== null && (norm(read) === norm(truth) || findVendorByName(read) === service)
  return read === null || norm(read) === norm(truth)
}

export function judgeFields(fields: Fields, truth: TruthEntry, tripKey?: string | null): Right {
  const vendor = sameVendor(fields.vendor, truth.vendor ?? null)
  const category = (fields.category ?? null) === (truth.category ?? null)
  const total =
    truth.totalAmount === null || truth.totalAmount === undefined
      ? fields.totalAmount === null
      : fields.totalAmount !== null && Math.abs(fields.totalAmount - truth.totalAmount) < 0.005
  const date = (fields.purchaseDate ?? null) === (truth.purchaseDate ?? null)
  const right: Right = { vendor, category, total, date, all: vendor && category && total && date }
  // The app keys a trip "Vendor:reference"; a truth.json gives the printed reference.
  const key = (k: string | null | undefined) => (k ? k.replace(/^[^:]*:/, '').replace(/[^a-z0-9]/gi, '').toLowerCase() : null)
  if (truth.tripKey !== undefined) right.tripKey = key(tripKey) === key(truth.tripKey)
  // The total's currency, where the truth names one (not part of `all`: the four fields decide).
  if (truth.currency !== undefined && truth.totalAmount !== null && truth.totalAmount !== undefined) right.currency = (fields.currency ?? null) === truth.currency
  return right
}

/** What the submission would do with this analysis, the form filled with what it read (the truth where it read nothing). */
export function decide(analysis: StoredAnalysis, truth: TruthEntry, now: Date, maxAgeDays: number): { decision: Decision; reasons: string[] } {
  // The analysis step refuses a date outside the window at once (receipts/early.server.ts).
  if (analysis.purchaseDate) {
    const window = checkPurchaseDate(analysis.purchaseDate, now, maxAgeDays)
    if (!window.ok) return { decision: 'reject', reasons: [`${window.code}: ${window.reason}`, ...analysis.reasons] }
  }
  const decision = decideSubmission({
    analysis,
    user: {
      category: analysis.category ?? truth.category ?? '',
      amountCents: toCents(analysis.totalAmount) ?? toCents(truth.totalAmount) ?? 0,
      purchaseDate: analysis.purchaseDate ?? truth.purchaseDate ?? utcDay(now),
    },
    now,
    maxAgeDays,
    nearDuplicate: false,
    sameReceiptFromOtherAccount: false,
    inviteeCapReached: false,
  })
  if (decision.kind === 'approve') return { decision: 'auto', reasons: analysis.reasons }
  if (decision.kind === 'review') return { decision: 'review', reasons: [...new Set([...analysis.reasons, ...decision.reasons])] }
  return { decision: 'reject', reasons: [...new Set([decision.reason, ...analysis.reasons])] }
}

type Reading = { analysis: StoredAnalysis | null; refusal?: { code: string; message: string }; error?: string; ms: number }

async function timed(read: () => Promise<StoredAnalysis>): Promise<Reading> {
  const started = performance.now()
  try {
    const analysis = await read()
    return { analysis, ms: Math.round(performance.now() - started) }
  } catch (error) {
    const ms = Math.round(performance.now() - started)
    if (error instanceof Refusal) return { analysis: null, refusal: { code: error.code, message: error.message }, ms }
    return { analysis: null, error: error instanceof Error ? error.message : String(error), ms }
  }
}

export async function evaluateReceipts(dir: string, opts: EvalOptions = {}): Promise<EvalReport> {
  const progress = opts.progress ?? ((line: string) => console.error(line))
  const env = getEnv()
  const clock = opts.now ?? new Date()
  const maxAgeDays = opts.maxAgeDays ?? env.RECEIPT_MAX_AGE_DAYS
  const truth: TruthEntry[] = JSON.parse(await fs.readFile(path.join(dir, 'truth.json'), 'utf8'))
  if (!Array.isArray(truth)) throw new Error(`${path.join(dir, 'truth.json')} must hold a JSON array`)

  const skipped: EvalReport['skipped'] = []
  const todo: Array<{ entry: TruthEntry; kind: Kind; buf: Buffer; index: number }> = []
  for (const [index, entry] of truth.entries()) {
    let buf: Buffer
    try {
      buf = await fs.readFile(path.join(dir, entry.file))
    } catch {
      skipped.push({ file: entry.file, reason: 'file not found' })
      continue
    }
    const kind = kindOf(entry, buf)
    if (typeof kind !== 'string') {
      skipped.push({ file: entry.file, reason: kind.skip })
      continue
    }
    if (opts.only && kind !== opts.only) continue
    if (kind === 'email' && BODY.test(entry.file)) {
      if (!entry.from) {
        skipped.push({ file: entry.file, reason: 'an .html/.txt body without a `from` in truth.json to wrap it in a message' })
        continue
      }
      buf = await wrapBody(entry, buf)
    }
    todo.push({ entry, kind, buf, index })
  }
  const items = opts.limit ? todo.slice(0, opts.limit) : todo
  for (const s of skipped) progress(`skipped ${s.file}: ${s.reason}`)

  const emails = items.filter((i) => i.kind === 'email')
  const photos = items.filter((i) => i.kind === 'photo')
  const results = new Map<number, FileResult>()
  let done = 0
  const report = (r: FileResult) => {
    done++
    const wrong = Object.entries(r.right).filter(([k, v]) => k !== 'all' && !v).map(([k]) => k)
    progress(`[${done}/${items.length}] ${r.file} ${r.kind} expect=${r.expect} decision=${r.decision}${r.refusal ? ` (${r.refusal.code})` : ''} ${r.ms} ms${wrong.length ? ` wrong: ${wrong.join(',')}` : ''}`)
  }
  const judgedOn = (entry: TruthEntry, readDate: string | null): Date => {
    if (!opts.asOfPrintedDate) return clock
    if (entry.purchaseDate && parseUtcDay(entry.purchaseDate) !== null) return dayAfter(entry.purchaseDate)
    if (readDate && parseUtcDay(readDate) !== null) return dayAfter(readDate)
    return clock
  }
  /** Reads with `read(now)`; without a printed date in the truth, again as of the day after the date it read. */
  const readAsOf = async (entry: TruthEntry, read: (now: Date) => Promise<Reading>) => {
    let now = judgedOn(entry, null)
    let reading = await read(now)
    const readDate = reading.analysis?.purchaseDate ?? null
    if (opts.asOfPrintedDate && !entry.purchaseDate && readDate && judgedOn(entry, readDate).getTime() !== now.getTime()) {
      now = judgedOn(entry, readDate)
      reading = await read(now)
    }
    return { reading, now }
  }
  const finish = (item: (typeof items)[number], reading: Reading, now: Date, notes: string[]) => {
    const a = reading.analysis
    const fields: Fields = {
      vendor: a?.storeName ?? null,
      category: a?.category ?? null,
      totalAmount: a?.totalAmount ?? null,
      purchaseDate: a?.purchaseDate ?? null,
      currency: a?.currency ?? null,
    }
    // What the submission keys the trip by: an e-receipt's "Vendor:reference", a photo's printed number.
    const tripKey = (a?.ereceipt ? a.ereceipt.tripKey : a?.referenceNumber) ?? null
    const judged = a
      ? decide(a, item.entry, now, maxAgeDays)
      : reading.refusal
        ? { decision: 'refused' as const, reasons: [`${reading.refusal.code}: ${reading.refusal.message}`] }
        : { decision: 'error' as const, reasons: [reading.error ?? 'unknown error'] }
    if (a?.timeoutFallback) notes.push(`past the ${ANALYSIS_TIMEOUT_MS / 1000} s analysis limit: the manual-review fallback`)
    const result: FileResult = {
      file: item.entry.file,
      kind: item.kind,
      expect: item.entry.expect,
      decision: judged.decision,
      ...(reading.refusal ? { refusal: reading.refusal } : {}),
      fields,
      truth: item.entry,
      right: judgeFields(fields, item.entry, tripKey),
      tripKey,
      judgedOn: utcDay(now),
      ms: reading.ms,
      reader: a?.reader ?? (item.kind === 'email' ? 'email' : null),
      reasons: judged.reasons,
      ...(notes.length ? { notes } : {}),
    }
    results.set(item.index, result)
    report(result)
  }

  // E-mails: the configured senders; the configured resolver, or with --resign a local DNS server.
  let dns: DkimDns | null = null
  try {
    if (emails.length > 0) {
      const { senders } = eReceiptDefaults()
      let resolver: TxtResolver = eReceiptDefaults().resolver
      if (opts.resign) {
        dns = await startDkimDns()
        resolver = createResolver([dns.server])
      }
      for (const item of emails) {
        const notes: string[] = []
        let raw = item.buf
        if (dns) {
          const resigned = await resignEmail(raw, dns, senders)
          raw = resigned.raw
          notes.push(resigned.domain ? `re-signed for ${resigned.domain}` : 'no From domain: not re-signed')
          if (resigned.unwrapped) notes.push('the original, unwrapped from a forward, was read')
        }
        const { reading, now } = await readAsOf(item.entry, (now) =>
          timed(() => analyzeEReceipt(raw, { senders, resolver, now, deadline: Date.now() + ANALYSIS_TIMEOUT_MS })),
        )
        finish(item, reading, now, notes)
      }
    }
  } finally {
    await dns?.close()
  }

  // Photos: the shared pool, as many at a time as it has workers, the second reader as configured.
  if (photos.length > 0) {
    const pool = getOcrPool()
    progress(`warming up ${pool.size} OCR workers${env.SECOND_READER === 'off' ? '' : ' and the second reader (PaddleOCR)'}`)
    await pool.warmUp()
    if (env.SECOND_READER !== 'off') await getPaddleReader().warmUp()
    const queue = [...photos]
    await Promise.all(
      Array.from({ length: Math.max(1, opts.concurrency ?? pool.size) }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const buf = item.buf
          const { reading, now } = await readAsOf(item.entry, (now) =>
            timed(() => analyzeWithTimeout((image, { signal }) => analyzeReceipt(image, { signal, now }), buf)),
          )
          finish(item, reading, now, [])
        }
      }),
    )
  }

  const files = [...results.entries()].sort(([a], [b]) => a - b).map(([, r]) => r)
  return {
    dir,
    options: {
      asOfPrintedDate: Boolean(opts.asOfPrintedDate),
      resign: Boolean(opts.resign),
      only: opts.only ?? null,
      limit: opts.limit ?? null,
      now: clock.toISOString(),
      maxAgeDays,
      secondReader: env.SECOND_READER,
    },
    files,
    skipped,
    summary: summarize(files, skipped.length),
  }
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

const rate = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 1000)

export function summarize(files: FileResult[], skipped = 0) {
  const count = files.length
  const share = (key: keyof Right) => rate(files.filter((f) => f.right[key]).length, count)
  const transport = files.filter((f) => f.expect === 'auto')
  const transportRight = transport.filter((f) => f.decision === 'auto' && f.right.all).length
  const trips = files.filter((f) => f.kind === 'email' && f.expect === 'auto')
  const tripsPaidRight = trips.filter((f) => f.decision === 'auto' && f.right.total && f.right.date).length
  const wrong = files.filter((f) => f.decision === 'auto' && (f.expect !== 'auto' || !f.right.total || !f.right.date || !f.right.category))
  const times = files.map((f) => f.ms).sort((a, b) => a - b)
  const tally = <T extends string>(values: T[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {})
  return {
    count,
    skipped,
    byKind: { photo: files.filter((f) => f.kind === 'photo').length, email: files.filter((f) => f.kind === 'email').length },
    decisions: tally(files.map((f) => f.decision)),
    /** expect → decision → count. */
    expectVsDecision: Object.fromEntries(
      (['auto', 'review', 'reject'] as const).map((e) => [e, tally(files.filter((f) => f.expect === e).map((f) => f.decision))]),
    ),
    refusals: tally(files.flatMap((f) => (f.refusal ? [f.refusal.code] : []))),
    fieldAccuracy: { vendor: share('vendor'), category: share('category'), total: share('total'), date: share('date'), all: share('all') },
    /** Over the files whose truth gives a tripKey (the printed trip or receipt number); not part of "all". */
    tripKey: (() => {
      const keyed = files.filter((f) => f.right.tripKey !== undefined)
      return { count: keyed.length, right: keyed.filter((f) => f.right.tripKey).length }
    })(),
    /** Over the files whose truth names the total's currency; not part of "all". */
    currency: (() => {
      const named = files.filter((f) => f.right.currency !== undefined)
      return { count: named.length, right: named.filter((f) => f.right.currency).length }
    })(),
    transport: { count: transport.length, autoApprovedAllRight: transportRight, rate: rate(transportRight, transport.length) },
    emails: { tripReceipts: trips.length, paidRightTotalAndDate: tripsPaidRight, rate: rate(tripsPaidRight, trips.length) },
    wrongApprovals: { count: wrong.length, files: wrong.map((f) => f.file) },
    medianMs: percentile(times, 0.5),
    p90Ms: percentile(times, 0.9),
  }
}

/** Stops the photo readers' workers (the tesseract pool, PaddleOCR) so the process can end. */
export async function closeReaders(): Promise<void> {
  await closeOcrPool()
  await closePaddleReader()
}

const USAGE = 'usage: npm run eval:receipts -- DIR [--as-of-printed-date] [--resign] [--only-photos | --only-emails] [--limit N] [--now YYYY-MM-DD]'

export function parseArgs(argv: string[]): { dir: string; options: EvalOptions } | { error: string } {
  const options: EvalOptions = {}
  let dir: string | null = null
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--as-of-printed-date') options.asOfPrintedDate = true
    else if (a === '--resign') options.resign = true
    else if (a === '--only-emails') options.only = 'email'
    else if (a === '--only-photos') options.only = 'photo'
    else if (a === '--limit') {
      const n = Number(argv[++i])
      if (!Number.isInteger(n) || n < 1) return { error: '--limit takes a whole number of files' }
      options.limit = n
    } else if (a === '--now') {
      const day = argv[++i]
      if (!day || parseUtcDay(day) === null) return { error: '--now takes a date, YYYY-MM-DD' }
      options.now = new Date(`${day}T12:00:00Z`)
    } else if (a === '-h' || a === '--help') return { error: USAGE }
    else if (a.startsWith('--')) return { error: `unknown option ${a}\n${USAGE}` }
    else if (dir === null) dir = a
    else return { error: `one DIR only\n${USAGE}` }
  }
  return dir ? { dir: path.resolve(dir), options } : { error: USAGE }
}

async function main() {
  const parsed = parseArgs(process.argv.slice(2))
  if ('error' in parsed) {
    console.error(parsed.error)
    process.exitCode = 2
    return
  }
  try {
    const report = await evaluateReceipts(parsed.dir, parsed.options)
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  } finally {
    await closeReaders()
  }
}

if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  main().catch(async (error) => {
    console.error(error)
    await closeReaders().catch(() => undefined)
    process.exit(1)
  })
}

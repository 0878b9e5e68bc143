import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js'
import { getMetrics } from '~/ops/metrics.server'
import { getEnv } from '~/utils/env.server'
import { Refusal } from '~/utils/refusal'

/**
 * One OCR'd line with its reader's 0..100 confidence and the lowest 0..100 confidence of any digit
 * on it (each reader scores characters: tesseract's symbols, PaddleOCR's CTC steps), or null when
 * the line has no digit or the reader gave no character scores. A date or total is only as sure as
 * its least sure digit (issue 23).
 */
export type OcrLineResult = {
  text: string
  confidence: number
  digitConfidence?: number | null
  /** Each digit's score, in the line's order (extract.ts digitsConfidence). */
  digitScores?: ReadonlyArray<number> | null
  words?: ReadonlyArray<{ text: string; confidence: number }>
}
export type OcrResult = {
  text: string
  lines: OcrLineResult[]
  confidence: number
  /** Which way the text runs, where the reader can tell from its boxes (PaddleOCR's detection). */
  textDirection?: 'across' | 'down' | null
}
/** What analysis needs from OCR: injected so tests can pass canned text. */
export type OcrFn = (image: Buffer, opts?: { signal?: AbortSignal }) => Promise<OcrResult>

/**
 * The language data a pool reads with (issue 37). Every photo is read in English first; the others
 * are loaded only when a page needs them (app/ocr/script.ts decides): for a Latin page with European
 * signs, the one language its words name (German, French, Spanish or Italian), or all four with
 * English in one worker when they name none clearly; Korean and Simplified Chinese for Hangul and
 * Han. One language reads a page in about a third of the time of five: tesseract reads each word
 * again in every further language it is not sure of (a real DB ticket: German 2.6 s, the five 8.8 s).
 */
export const OCR_LANGUAGES = {
  eng: ['eng'],
  deu: ['deu'],
  fra: ['fra'],
  spa: ['spa'],
  ita: ['ita'],
  european: ['eng', 'deu', 'fra', 'spa', 'ita'],
  kor: ['kor'],
  chi_sim: ['chi_sim'],
} as const
export type OcrLanguage = keyof typeof OCR_LANGUAGES

export type OcrPoolOptions = {
  size?: number
  /** The language data (default English). */
  language?: OcrLanguage
  /** Replace a worker after this many jobs: the wasm heap only grows. */
  recycleAfter?: number
  /** Folder of @tesseract.js-data/eng to load (see docs/decisions/010). */
  dataVariant?: '4.0.0' | '4.0.0_best_int'
  psm?: PSM
  params?: Record<string, string>
}

const require = createRequire(import.meta.url)

/** The language data ships in node_modules: never fetched from a CDN. */
export function localLangPath(variant: NonNullable<OcrPoolOptions['dataVariant']>, code = 'eng'): string {
  const pkg = require.resolve(`@tesseract.js-data/${code}/package.json`)
  return path.join(path.dirname(pkg), variant)
}

/**
 * One folder holding each of a language's traineddata files, linked from their own packages:
 * tesseract.js reads every language of a worker from one folder (its in-memory form for several
 * languages is broken in 7.0.0: the data, not the code, ends up in the language list).
 */
async function languageFolder(language: OcrLanguage, variant: NonNullable<OcrPoolOptions['dataVariant']>): Promise<string> {
  const folder = path.join(os.tmpdir(), 'recircle-tesseract', `languages-${variant}`)
  await fs.mkdir(folder, { recursive: true })
  for (const code of OCR_LANGUAGES[language]) {
    const file = `${code}.traineddata.gz`
    const target = path.join(localLangPath(variant, code), file)
    const link = path.join(folder, file)
    const current = await fs.readlink(link).catch(() => null)
    if (current === target) continue
    await fs.rm(link, { force: true })
    // A link where the filesystem allows one, else a copy: either way the package's own file.
    await fs.symlink(target, link).catch(() => fs.copyFile(target, link))
  }
  return folder
}

export const DEFAULT_OCR_PARAMS: Record<string, string> = {
  // Receipts are scaled so text is ~36 px tall; telling tesseract the dpi avoids its own guess.
  user_defined_dpi: '300',
  // Keep runs of spaces between label and amount so lines stay readable for staff.
  preserve_interword_spaces: '1',
  // Tesseract prints warnings ('Image too small to scale!!') to stdout, which would corrupt the
  // CLI's JSON lines; send them to the wasm filesystem's /dev/null.
  debug_file: '/dev/null',
}

type Slot = { worker: Promise<Worker> | null; jobs: number; busy: boolean }
type Job = {
  image: Buffer
  resolve: (r: OcrResult) => void
  reject: (e: unknown) => void
  signal?: AbortSignal
}

export type OcrPool = {
  recognize: OcrFn
  language: OcrLanguage
  /** Start every worker now (the first job otherwise pays ~0.5 s to load the model). */
  warmUp: () => Promise<void>
  size: number
  terminate: () => Promise<void>
  /** For /metrics: workers reading now, and jobs waiting for one. */
  stats: () => { busy: number; queued: number }
}

export function createOcrPool(options: OcrPoolOptions = {}): OcrPool {
  const size = Math.max(1, options.size ?? 2)
  const recycleAfter = options.recycleAfter ?? 300
  const variant = options.dataVariant ?? '4.0.0_best_int'
  const params = {
    ...DEFAULT_OCR_PARAMS,
    tessedit_pageseg_mode: options.psm ?? PSM.SINGLE_BLOCK,
    ...options.params,
  }
  const slots: Slot[] = Array.from({ length: size }, () => ({ worker: null, jobs: 0, busy: false }))
  const queue: Job[] = []
  let closed = false

  const language = options.language ?? 'eng'
  const start = async (): Promise<Worker> => {
    const cachePath = path.join(os.tmpdir(), 'recircle-tesseract', variant)
    const langPath = language === 'eng' ? localLangPath(variant) : await languageFolder(language, variant)
    const worker = await createWorker([...OCR_LANGUAGES[language]], OEM.LSTM_ONLY, { langPath, gzip: true, cachePath })
    await worker.setParameters(params)
    return worker
  }

  const workerFor = (slot: Slot): Promise<Worker> => {
    if (!slot.worker) {
      slot.worker = start()
      // A failed start must not poison the slot forever.
      slot.worker.catch(() => {
        slot.worker = null
      })
    }
    return slot.worker
  }

  const recycle = (slot: Slot) => {
    const old = slot.worker
    slot.worker = null
    slot.jobs = 0
    void old?.then((w) => w.terminate()).catch(() => {})
  }

  const pump = () => {
    for (const slot of slots) {
      if (slot.busy) continue
      const job = queue.shift()
      if (!job) return
      if (job.signal?.aborted) {
        job.reject(job.signal.reason)
        continue
      }
      slot.busy = true
      void run(slot, job).finally(() => {
        slot.busy = false
        if (slot.jobs >= recycleAfter) recycle(slot)
        pump()
      })
    }
  }

  const run = async (slot: Slot, job: Job) => {
    try {
      const worker = await workerFor(slot)
      slot.jobs++
      const { data } = await worker.recognize(job.image, {}, { text: true, blocks: true })
      job.resolve(toResult(data))
    } catch (error) {
      // A crashed worker is replaced on the next job.
      recycle(slot)
      job.reject(error)
    }
  }

  const recognize: OcrFn = (image, opts) =>
    new Promise<OcrResult>((resolve, reject) => {
      if (closed) return reject(new Error('OCR pool has been terminated'))
      const signal = opts?.signal
      if (signal?.aborted) return reject(signal.reason)
      const job: Job = { image, resolve, reject, signal }
      // A request that gives up while queued leaves the queue at once (a running job finishes).
      signal?.addEventListener(
        'abort',
        () => {
          const i = queue.indexOf(job)
          if (i >= 0) {
            queue.splice(i, 1)
            reject(signal.reason)
          }
        },
        { once: true },
      )
      queue.push(job)
      pump()
    })

  return {
    recognize,
    language,
    size,
    stats: () => ({ busy: slots.filter((s) => s.busy).length, queued: queue.length }),
    warmUp: async () => {
      await Promise.all(slots.map(workerFor))
    },
    terminate: async () => {
      closed = true
      for (const job of queue.splice(0)) job.reject(new Error('OCR pool has been terminated'))
      await Promise.all(
        slots.map(async (slot) => {
          const w = slot.worker
          slot.worker = null
          if (w) await (await w.catch(() => null))?.terminate()
        }),
      )
    },
  }
}

type TesseractPage = Awaited<ReturnType<Worker['recognize']>>['data']

function toResult(data: TesseractPage): OcrResult {
  const lines: OcrLineResult[] = []
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const text = line.text.replace(/\s+$/, '')
        if (!text.trim()) continue
        // Each word's own score: a total or a date is as sure as its words, not as the icons beside it (extract.ts fieldConfidence).
        const words = (line.words ?? []).map((w) => ({ text: w.text, confidence: Math.round(w.confidence * 10) / 10 }))
        lines.push({ text, confidence: line.confidence, digitConfidence: lowestDigit(line), digitScores: eachDigit(line), words })
      }
    }
  }
  return { text: data.text, lines, confidence: data.confidence }
}

type TesseractLine = NonNullable<TesseractPage['blocks']>[number]['paragraphs'][number]['lines'][number]

function lowestDigit(line: TesseractLine): number | null {
  let lowest: number | null = null
  for (const word of line.words ?? []) {
    for (const symbol of word.symbols ?? []) {
      if (/[0-9]/.test(symbol.text)) lowest = Math.min(lowest ?? 100, symbol.confidence)
    }
  }
  return lowest === null ? null : Math.round(lowest * 10) / 10
}

/** Each digit symbol's score in reading order; null where a symbol holds more than one character. */
function eachDigit(line: TesseractLine): number[] | null {
  const scores: number[] = []
  for (const word of line.words ?? []) {
    for (const symbol of word.symbols ?? []) {
      if (symbol.text.length !== 1 && /[0-9]/.test(symbol.text)) return null
      if (/[0-9]/.test(symbol.text)) scores.push(Math.round(symbol.confidence * 10) / 10)
    }
  }
  return scores
}

/** OCR_WORKERS, default 2 (one per core on the 2-core box the targets were measured on). */
export function poolSizeFromEnv(env: Record<string, string | undefined> = process.env): number {
  const n = Number.parseInt(env.OCR_WORKERS ?? '', 10)
  return Number.isFinite(n) && n >= 1 && n <= 16 ? n : 2
}

// One pool per process; kept on globalThis so `remix dev` reloads don't leak workers.
const GLOBAL_KEY = Symbol.for('recircle.ocrPool')
type WithPool = typeof globalThis & { [GLOBAL_KEY]?: OcrPool }

export function getOcrPool(): OcrPool {
  const g = globalThis as WithPool
  if (!g[GLOBAL_KEY]) {
    const pool = createOcrPool({ size: poolSizeFromEnv() })
    g[GLOBAL_KEY] = pool
    getMetrics().setOcrProbe(() => {
      const gate = (globalThis as WithGate)[GATE_KEY]
      return { workers: pool.size, ...pool.stats(), inFlight: gate?.inFlight() ?? 0, capacity: gate?.capacity() ?? 0 }
    })
  }
  return g[GLOBAL_KEY]
}

/** Terminate the shared pool and the other languages' (scripts and graceful shutdown). */
export async function closeOcrPool(): Promise<void> {
  const g = globalThis as WithPool
  const pool = g[GLOBAL_KEY]
  delete g[GLOBAL_KEY]
  await Promise.all([pool?.terminate(), closeLanguagePools()])
}

/**
 * Pools of the other languages alive at once, one worker each: past this, the one used longest ago
 * is stopped when idle. Measured RSS of one worker after a page: English 72 MB, European (five
 * models) 127 MB, Korean 49 MB, Chinese 75 MB; with two English workers and PaddleOCR, a second
 * language alive took a mixed run of real-sized and foreign receipts to 1,014 MB (issue 37: ≤ 1 GB).
 */
export const MAX_LANGUAGE_POOLS = 1
/** A language pool unused this long is stopped: its memory goes back to the process. */
export const LANGUAGE_IDLE_MS = 5 * 60_000

type LanguagePools = { pools: Map<OcrLanguage, { pool: OcrPool; lastUsed: number; timer: NodeJS.Timeout | null }> }
const LANGUAGES_KEY = Symbol.for('recircle.ocrLanguagePools')
type WithLanguages = typeof globalThis & { [LANGUAGES_KEY]?: LanguagePools }

function languagePools(): LanguagePools {
  const g = globalThis as WithLanguages
  g[LANGUAGES_KEY] ??= { pools: new Map() }
  return g[LANGUAGES_KEY]
}

/**
 * The reader of one language: English is the shared pool; any other language's one-worker pool is
 * started on its first page (~1 s to load) and stopped after LANGUAGE_IDLE_MS unused, or when
 * another language is needed and it is idle (MAX_LANGUAGE_POOLS).
 */
export function languageOcr(language: OcrLanguage): OcrFn {
  if (language === 'eng') return getOcrPool().recognize
  return async (image, opts) => {
    const registry = languagePools()
    let entry = registry.pools.get(language)
    if (!entry) {
      const idle = [...registry.pools.entries()].filter(([, e]) => e.pool.stats().busy === 0 && e.pool.stats().queued === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed)
      while (registry.pools.size >= MAX_LANGUAGE_POOLS && idle.length > 0) stopLanguagePool(idle.shift()![0])
      entry = { pool: createOcrPool({ size: 1, language }), lastUsed: Date.now(), timer: null }
      registry.pools.set(language, entry)
    }
    const current = entry
    current.lastUsed = Date.now()
    if (current.timer) clearTimeout(current.timer)
    try {
      return await current.pool.recognize(image, opts)
    } finally {
      current.lastUsed = Date.now()
      current.timer = setTimeout(() => {
        if (registry.pools.get(language) === current && current.pool.stats().busy === 0) stopLanguagePool(language)
      }, LANGUAGE_IDLE_MS).unref()
    }
  }
}

function stopLanguagePool(language: OcrLanguage): void {
  const registry = languagePools()
  const entry = registry.pools.get(language)
  registry.pools.delete(language)
  if (entry?.timer) clearTimeout(entry.timer)
  void entry?.pool.terminate().catch(() => {})
}

/** The other languages with a pool alive (tests: an English receipt starts none). */
export function loadedLanguages(): OcrLanguage[] {
  return [...languagePools().pools.keys()]
}

/** Stop every other-language pool (scripts, tests and graceful shutdown). */
export async function closeLanguagePools(): Promise<void> {
  const registry = languagePools()
  const entries = [...registry.pools.values()]
  registry.pools.clear()
  for (const e of entries) if (e.timer) clearTimeout(e.timer)
  await Promise.all(entries.map((e) => e.pool.terminate().catch(() => {})))
}

export const READER_BUSY_MESSAGE = 'The receipt reader is busy. Please try again in a few seconds.'
/** About how long a worker takes for a few receipts: the queue has moved on by then. */
export const READER_BUSY_RETRY_AFTER_SECONDS = 5

/** Thrown at once, before any work, when more analyses wait than the workers can finish in time. */
export class ReaderBusyError extends Refusal<'reader_busy'> {
  constructor() {
    super('reader_busy', 503, READER_BUSY_MESSAGE, { retryAfter: READER_BUSY_RETRY_AFTER_SECONDS, echo: ['message'], title: 'The reader is busy' })
  }
}

/**
 * Admission to receipt analysis: at most `capacity()` analyses in flight (running on a worker or
 * waiting for one, preprocessing included). Counted synchronously, so a burst cannot overshoot.
 */
export type AnalysisGate = { tryEnter: () => (() => void) | null; inFlight: () => number; capacity: () => number }

export function createAnalysisGate(capacity: () => number): AnalysisGate {
  let inFlight = 0
  return {
    capacity,
    inFlight: () => inFlight,
    tryEnter: () => {
      if (inFlight >= capacity()) return null
      inFlight++
      let released = false
      return () => {
        if (released) return
        released = true
        inFlight--
      }
    },
  }
}

const GATE_KEY = Symbol.for('recircle.analysisGate')
type WithGate = typeof globalThis & { [GATE_KEY]?: AnalysisGate }

/**
 * Waiting analyses per worker when OCR_MAX_QUEUE is unset. A worker takes 0.45-0.9 s per receipt
 * (scripts/bench/analysis-load.ts, 2 cores) and up to ~2 s for a large or rotated photo: 10 waiting
 * per worker are done within ~20 s even then, inside the 25 s limit.
 */
export const OCR_QUEUE_PER_WORKER = 10

export function maxQueueFor(workers: number, configured: number | undefined = getEnv().OCR_MAX_QUEUE): number {
  return configured ?? workers * OCR_QUEUE_PER_WORKER
}

/** The process's gate: the pool's workers plus the waiting analyses allowed (OCR_MAX_QUEUE). */
export function getAnalysisGate(): AnalysisGate {
  const g = globalThis as WithGate
  g[GATE_KEY] ??= createAnalysisGate(() => getOcrPool().size + maxQueueFor(getOcrPool().size))
  return g[GATE_KEY]
}

/** Run `work` inside the gate, or reject with ReaderBusyError at once. */
export async function withReaderSlot<T>(work: () => Promise<T>, gate: AnalysisGate = getAnalysisGate()): Promise<T> {
  const release = gate.tryEnter()
  if (!release) {
    getMetrics().ocrRefusals.inc({ mode: 'inline' })
    throw new ReaderBusyError()
  }
  try {
    return await work()
  } finally {
    release()
  }
}

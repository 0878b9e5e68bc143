import { describe, expect, test } from 'vitest'
import { CAPTURE_ADVICE, checkCapture, judgeCapture, toGrey, type CaptureMetrics } from '~/ocr/capture-quality'

type Scene = {
  width?: number
  height?: number
  /** Share of each side the paper covers, centred. */
  paper?: number
  paperGrey?: number
  tableGrey?: number
  /** Box-blur radius in pixels, applied this many times. */
  blur?: number
  /** A burnt-out patch covering this share of the paper. */
  glare?: number
  /** Sensor noise, ± this many grey levels (a camera's; 0 for a screenshot). */
  noise?: number
}

/** A receipt-like scene: a table, a paper, rows of 'letters' (dark bars with gaps), optionally blurred. */
function scene(s: Scene = {}) {
  const w = s.width ?? 800
  const h = s.height ?? 1000
  const paper = s.paper ?? 0.8
  const data = new Uint8Array(w * h).fill(s.tableGrey ?? 90)
  const x0 = Math.round((w * (1 - paper)) / 2)
  const y0 = Math.round((h * (1 - paper)) / 2)
  const x1 = w - x0
  const y1 = h - y0
  const pg = s.paperGrey ?? 215
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * w + x] = pg
  const ink = Math.round(pg * 0.25)
  for (let y = y0 + 20; y + 14 < y1 - 10; y += 30) {
    for (let x = x0 + 20; x + 8 < x1 - 20; x += 11) {
      if ((x * 7 + y * 3) % 5 === 0) continue
      for (let dy = 0; dy < 14; dy++) for (let dx = 0; dx < 3; dx++) data[(y + dy) * w + x + dx] = ink
      for (let dx = 0; dx < 8; dx++) data[(y + (x % 2 ? 0 : 13)) * w + x + dx] = ink
    }
  }
  if (s.glare) {
    const gw = Math.round((x1 - x0) * Math.sqrt(s.glare))
    const gh = Math.round((y1 - y0) * Math.sqrt(s.glare))
    for (let y = y0 + 30; y < y0 + 30 + gh; y++) for (let x = x0 + 30; x < x0 + 30 + gw; x++) data[y * w + x] = 255
  }
  for (let pass = 0; pass < (s.blur ?? 0); pass++) boxBlur(data, w, h, 2)
  const noise = s.noise ?? 6
  let seed = 7
  for (let i = 0; noise > 0 && i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    data[i] = Math.max(0, Math.min(255, data[i] + Math.round(((seed / 2 ** 31) * 2 - 1) * noise)))
  }
  return { width: w, height: h, data, channels: 1 as const }
}

function boxBlur(data: Uint8Array, w: number, h: number, r: number) {
  const copy = Uint8Array.from(data)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0
      let n = 0
      for (let k = -r; k <= r; k++) {
        const xx = Math.min(w - 1, Math.max(0, x + k))
        sum += copy[y * w + xx]
        n++
      }
      data[y * w + x] = Math.round(sum / n)
    }
  }
  const copy2 = Uint8Array.from(data)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0
      let n = 0
      for (let k = -r; k <= r; k++) {
        const yy = Math.min(h - 1, Math.max(0, y + k))
        sum += copy2[yy * w + x]
        n++
      }
      data[y * w + x] = Math.round(sum / n)
    }
  }
}

describe('checkCapture', () => {
  test.each([
    ['a sharp, well lit receipt filling the frame', {}, null],
    ['a screenshot: white edge to edge', { paper: 1, paperGrey: 255, noise: 0 }, null],
    // An app's dark mode, and a grey card on a white page: flat colours, no camera problem (issue 23).
    ['a dark-mode screenshot', { paper: 1, paperGrey: 30, noise: 0 }, null],
    ['a screenshot with a grey card', { paper: 0.9, paperGrey: 208, tableGrey: 255, noise: 0 }, null],
    ['a blurred screenshot is still blurred', { paper: 1, paperGrey: 255, noise: 0, blur: 2, width: 800 }, 'blurry'],
    ['a blurred photo', { blur: 2 }, 'blurry'],
    ['a dark photo', { paperGrey: 55, tableGrey: 25 }, 'dark'],
    ['a receipt far away', { paper: 0.3 }, 'far'],
    ['glare across the paper', { glare: 0.2, paperGrey: 200 }, 'glare'],
    ['a photo narrower than 500 px', { width: 420, height: 700 }, 'small'],
  ] as const)('%s -> %s', (_name, s, problem) => {
    const verdict = checkCapture(scene(s))
    expect(verdict.problem).toBe(problem)
    expect(verdict.advice).toBe(problem ? CAPTURE_ADVICE[problem] : null)
  })

  test('a photo decoded smaller is judged at its own size', () => {
    expect(checkCapture(scene(), { width: 3000, height: 4000 }).metrics.width).toBe(3000)
    expect(checkCapture(scene({ width: 520, height: 700 }), { width: 480, height: 640 }).problem).toBe('small')
  })
})

describe('judgeCapture', () => {
  const good: CaptureMetrics = { width: 1000, height: 1300, paperFill: 0.6, paperBrightness: 200, glare: 0, edgeWidth: 2.1, flatShare: 0.3 }
  test.each([
    [{}, null],
    [{ width: 499 }, 'small'],
    [{ paperFill: 0.1 }, 'far'],
    [{ paperBrightness: 60 }, 'dark'],
    [{ glare: 0.2 }, 'glare'],
    [{ edgeWidth: 3.1 }, 'blurry'],
    // The order a user fixes them in: the first problem is named.
    [{ paperFill: 0.1, edgeWidth: 3.1 }, 'far'],
    // A screenshot (a few flat colours) has no distance, light or glare to fix; size and blur count.
    [{ flatShare: 0.97, paperFill: 0, paperBrightness: 30, glare: 0.4 }, null],
    [{ flatShare: 0.97, width: 499 }, 'small'],
    [{ flatShare: 0.97, edgeWidth: 3.1 }, 'blurry'],
    [{ flatShare: 0.92, paperFill: 0.1 }, 'far'],
    // Flat but without sharp edges: an underexposed photo crushed to black, not a screenshot.
    [{ flatShare: 0.97, edgeWidth: 99, paperBrightness: 30 }, 'dark'],
  ] as const)('%j -> %s', (change, problem) => {
    expect(judgeCapture({ ...good, ...change }).problem).toBe(problem)
  })
})

describe('toGrey', () => {
  test('RGBA to grey, averaged down to at most 1000 px', () => {
    const rgba = new Uint8ClampedArray(2400 * 10 * 4).fill(255)
    const grey = toGrey(2400, 10, rgba, 4)
    expect([grey.width, grey.height, grey.data[0]]).toEqual([800, 3, 255])
  })
})
